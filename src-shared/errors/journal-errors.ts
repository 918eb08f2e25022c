/**
 * The journal: the sale record kept on this computer's disk. Its failures are the agent's, never
 * the request's, so they answer 500; the record is never changed half-way (src-main/journal).
 */
import { entry } from './error-entry'

export const JOURNAL_ERRORS = {
  JOURNAL_DISK_FULL: entry(
    500,
    false,
    'The disk is full, so the sale record could not be saved. Nothing was lost. Free space on the computer, then try again.',
  ),
  JOURNAL_IO: entry(
    500,
    false,
    'The sale record on this computer could not be read or written, and nothing was saved. Check the disk, or call support.',
  ),
  JOURNAL_BUSY: entry(
    500,
    true,
    'The sale record is busy. Wait a moment and try again; if it happens again, make sure only one payment agent is running.',
  ),
  JOURNAL_CORRUPT: entry(500, false, 'The sale record on this computer is damaged. Do not delete it: call support to restore it.'),
  JOURNAL_NOT_DURABLE: entry(
    500,
    false,
    'This computer cannot save sales safely, so the payment agent will not take payments. Call support.',
  ),
  JOURNAL_TOO_NEW: entry(
    500,
    false,
    'The sale record was written by a newer version of the payment agent. Install that version or a newer one.',
  ),
  JOURNAL_MIGRATION_FAILED: entry(500, false, 'Updating the sale record failed and was undone; nothing was lost. Call support.'),
  JOURNAL_MIGRATION_OWED: entry(
    500,
    false,
    'This update cannot be undone, and payments or reversals still wait to be sent to the bank. Connect the terminal to the bank and let them go first, or ask a manager to force the update.',
  ),
  JOURNAL_MIGRATION_LIST: entry(
    500,
    false,
    'This version of the payment agent is faulty and cannot open the sale record. Nothing was changed. Call support.',
  ),
  SEALED_FIELD_UNREADABLE: entry(500, false, 'The protected card details of this sale cannot be opened. Call support.'),
  DATA_KEY_MISSING: entry(
    500,
    false,
    'The key that protects stored card details is missing. Offline payments are stopped until a manager restores it; no record was deleted.',
  ),
  DATA_KEY_INVALID: entry(500, false, 'The key that protects stored card details is damaged. Call support; no record was deleted.'),
} as const
