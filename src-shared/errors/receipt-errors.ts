/** Receipts leaving the terminal: the receipt printer and email (docs/receipts.md). */
import { entry } from './error-entry'

export const RECEIPT_ERRORS = {
  PRINTER_NOT_CONFIGURED: entry(409, false, 'No receipt printer is set up on this terminal. Print from the screen instead.'),
  PRINTER_OFFLINE: entry(500, true, 'The receipt printer is not answering. Check that it is on and connected, then print again.'),
  PRINTER_PAPER_OUT: entry(500, true, 'The receipt printer is out of paper. Put in a new roll, then print again.'),
  PRINTER_COVER_OPEN: entry(500, true, 'The receipt printer cover is open. Close it, then print again.'),
  EMAIL_NOT_CONFIGURED: entry(409, false, 'Email receipts are not set up on this terminal.'),
  EMAIL_FAILED: entry(500, true, 'The receipt could not be emailed. Check the address, or try again later.'),
} as const
