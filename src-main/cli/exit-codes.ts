/** The command line's exit codes (README "Exit codes"), and the one reading of an error as one of them. */
import type { ErrorCode } from '../../src-shared/errors'
import { toPosError } from '../errors'

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  config: 3,
  keychain: 4,
  signatureMismatch: 5,
  auditBroken: 6,
  declined: 10,
  rejected: 11,
  notDelivered: 12,
  unknown: 13,
} as const

/** Codes with an exit code of their own; every other error exits with `failure`. */
const EXIT_OF_CODE: Partial<Record<ErrorCode, number>> = {
  CONFIG_INVALID: EXIT.config,
  CONFIG_MISSING: EXIT.config,
  KEYCHAIN_UNAVAILABLE: EXIT.keychain,
  NO_SIGNING_KEY: EXIT.keychain,
  BAD_SIGNING_KEY: EXIT.keychain,
}

export function exitCodeOf(error: unknown): number {
  return EXIT_OF_CODE[toPosError(error).code] ?? EXIT.failure
}
