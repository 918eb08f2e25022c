/**
 * One reading of anything the NEO 2 driver may throw: its own `ReaderError`, a status byte's
 * `Neo2StatusError` or a failure record's `Neo2TransactionError` all become a code and cashier
 * advice (docs/device-protocol.md §7). It lives with the driver because it knows the driver's error
 * classes; the role level (reader-error.ts) stays protocol-free.
 */
import type { ReaderFailure } from '../reader-error'
import { ReaderError } from '../reader-error'
import { Neo2StatusError } from './neo2-status'
import { Neo2TransactionError } from './neo2-transaction-error'

/** Code and cashier advice of anything the driver may throw; unknown errors become `deviceNotResponding`-like faults. */
export function describeReaderFailure(error: unknown): ReaderFailure {
  if (error instanceof ReaderError || error instanceof Neo2StatusError || error instanceof Neo2TransactionError) {
    return { code: error.code, action: error.action, message: error.cashierMessage, retryable: error.retryable }
  }
  return { code: 'readerFault', action: 'tryAgain', retryable: true, message: 'Card reader error. Try again.' }
}
