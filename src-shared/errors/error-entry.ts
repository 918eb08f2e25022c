/**
 * The shape of one entry of the error catalogue. Each error code is declared once, with everything
 * every door needs: the local API's status, whether repeating may help, and what a person reads.
 */

/** The statuses the local API answers with (docs/local-api.md). */
export type HttpStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500

export interface ErrorEntry {
  /** True when the same request, repeated unchanged a little later, may succeed. */
  readonly retryable: boolean
  /** The local API's HTTP status for this error. */
  readonly status: HttpStatus
  /**
   * What the cashier or manager reads: what happened and what to do, in plain words. Never a code,
   * a sale state or an event name: the specific detail goes in the error's `message`, for logs.
   */
  readonly words: string
}

export const entry = (status: HttpStatus, retryable: boolean, words: string): ErrorEntry => ({ status, retryable, words })
