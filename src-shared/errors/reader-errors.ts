/**
 * The card reader and the card in it. The driver's own, finer codes (docs/device-protocol.md §7)
 * are folded into these by what the cashier can do about them.
 */
import { entry } from './error-entry'

export const READER_ERRORS = {
  READER_DISCONNECTED: entry(500, true, 'The card reader is disconnected. Check its cable, then try again.'),
  READER_NOT_RESPONDING: entry(500, true, 'The card reader is not answering. Wait a moment, then try again.'),
  READER_BUSY: entry(409, true, 'The card reader is busy. Wait for it to finish, then try again.'),
  READER_NOT_FOUND: entry(500, false, 'No card reader was found. Check that it is plugged in, or call support.'),
  READER_NOT_SUPPORTED: entry(500, false, 'The card reader is set up in a way this terminal cannot use. Call support.'),
  READER_FAULT: entry(500, true, 'The card reader had a problem. Try again; if it happens again, call support.'),
  READER_NEEDS_SUPPORT: entry(500, false, 'The card reader reported a problem it cannot recover from. Call support.'),
  READER_CANCELLED: entry(422, false, 'The card reader stopped because the request was cancelled.'),
  CARD_UNREADABLE: entry(422, true, 'The card could not be read. Ask the customer to try again, or to use another card.'),
  CARD_NOT_USABLE: entry(422, false, 'This card cannot be used here. Ask the customer for another card.'),
  CARD_DECLINED: entry(422, false, 'The card declined the payment.'),
  PIN_ENTRY_FAILED: entry(500, false, 'PIN entry did not work on the PIN pad. Call support.'),
} as const
