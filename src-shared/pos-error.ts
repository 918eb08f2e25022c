/**
 * Errors for failing to do something (a declined card is a result, not an error). Every domain's
 * typed errors extend this one, so each door (IPC, local API, CLI) maps them once, the same way:
 * `{ code, message, retryable }`.
 */
export class PosError extends Error {
  override readonly name: string = 'PosError'
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}
