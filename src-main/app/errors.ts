/** The CLI's exit codes; the error type itself is shared by every domain (src-shared/pos-error.ts). */
export { PosError } from '../../src-shared/pos-error'

/** Documented in README "Exit codes". */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  config: 3,
  keychain: 4,
  signatureMismatch: 5,
  declined: 10,
  rejected: 11,
  notDelivered: 12,
  unknown: 13,
} as const
