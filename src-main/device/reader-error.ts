/**
 * Failures of the card reader driver itself: the link, the command channel, answers it cannot use.
 * Device statuses and failure records keep their own typed errors (`Neo2StatusError`,
 * `Neo2TransactionError`); the driver's `describeReaderFailure` (neo2/reader-failure.ts) reads any
 * of them as a `ReaderFailure`, so a failed `readCard` always carries a code and a cashier-actionable
 * line (docs/device-protocol.md §7). That reading lives with the driver because it knows the driver's
 * error classes; this file stays protocol-free.
 * Messages never quote card data: they may reach logs and the screen (docs/card-reader.md §1.4 "Logging").
 */
import type { CashierAction, CashierAdvice } from './cashier-action'

export const READER_ERROR_CODES = [
  'deviceDisconnected',
  'deviceNotResponding',
  'corruptResponse',
  'deviceRestarted',
  'deviceBusy',
  'readerNotFound',
  'encryptedDataNotSupported',
  'unreadableCardData',
  'invalidCardNumber',
  'pinEntryFailed',
  'cardDeclinedOffline',
  'cancelled',
  'closed',
] as const
export type ReaderErrorCode = (typeof READER_ERROR_CODES)[number]

const advice = (action: CashierAction, retryable: boolean, message: string): CashierAdvice => ({ action, retryable, message })

const ADVICE: Readonly<Record<ReaderErrorCode, CashierAdvice>> = {
  deviceDisconnected: advice(
    'waitAndRetry',
    true,
    'The card reader is disconnected. Check its cable; the payment can be retried once it is back.',
  ),
  deviceNotResponding: advice('waitAndRetry', true, 'The card reader does not answer. Wait a moment and try again.'),
  corruptResponse: advice('tryAgain', true, 'Card reader communication error. Try again.'),
  deviceRestarted: advice('tryAgain', true, 'The card reader restarted. Start the payment again.'),
  deviceBusy: advice('waitAndRetry', true, 'The card reader is busy with another payment.'),
  readerNotFound: advice('callSupport', false, 'No card reader found. Check that it is plugged in, or call support.'),
  encryptedDataNotSupported: advice(
    'callSupport',
    false,
    'The card reader sends encrypted card data, which this terminal cannot use. Call support.',
  ),
  unreadableCardData: advice('presentCardAgain', true, 'The card data could not be read. Present the card again.'),
  invalidCardNumber: advice('useAnotherCard', false, 'The card number is not valid. Try another card.'),
  pinEntryFailed: advice('callSupport', false, 'PIN entry failed on the PIN pad. Call support.'),
  cardDeclinedOffline: advice('cardDeclined', false, 'Declined by the card.'),
  cancelled: advice('none', false, 'Cancelled.'),
  closed: advice('callSupport', false, 'The card reader connection was closed.'),
}

export class ReaderError extends Error {
  override readonly name = 'ReaderError'
  readonly action: CashierAction
  readonly cashierMessage: string
  readonly retryable: boolean

  /** `detail` is for logs (never card data); the cashier sees `cashierMessage`. */
  constructor(
    readonly code: ReaderErrorCode,
    detail?: string,
  ) {
    const known = ADVICE[code]
    super(detail === undefined ? known.message : `${known.message} (${detail})`)
    this.action = known.action
    this.cashierMessage = known.message
    this.retryable = known.retryable
  }
}

export interface ReaderFailure extends CashierAdvice {
  code: string
}
