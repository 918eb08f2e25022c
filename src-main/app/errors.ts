/**
 * Errors for failing to do something (not for a declined card, which is a result). Each has a code,
 * whether retrying may help, and the CLI exit code it maps to, so every edge maps it the same way.
 */
export class PosError extends Error {
  override readonly name: string = 'PosError'
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message)
  }
}

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
