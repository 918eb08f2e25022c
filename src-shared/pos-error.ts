/**
 * Errors for failing to do something (a declined card is a result, not an error). Every domain's
 * typed errors extend this one. The code is one of the closed catalogue (src-shared/errors), which
 * also decides whether it is retryable and what the cashier reads; `message` is the specific detail
 * for logs and integrators, in plain words too.
 */
import { ERROR_CATALOGUE, type ErrorCode } from './errors/catalogue'

export class PosError extends Error {
  override readonly name: string = 'PosError'
  readonly code: ErrorCode
  /** The catalogue's answer, so that one code is never retryable in one place and not in another. */
  readonly retryable: boolean

  constructor(code: ErrorCode, message: string, options?: ErrorOptions)
  /** @deprecated The catalogue decides `retryable`; a flag given here is not used. */
  constructor(code: ErrorCode, message: string, retryable: boolean, options?: ErrorOptions)
  constructor(code: ErrorCode, message: string, retryableOrOptions?: boolean | ErrorOptions, options?: ErrorOptions) {
    super(message, typeof retryableOrOptions === 'object' ? retryableOrOptions : options)
    this.code = code
    this.retryable = ERROR_CATALOGUE[code].retryable
  }
}
