/**
 * The closed catalogue of error codes: every code the agent or the cashier window can report, each
 * declared once (its family's file) with its HTTP status, whether it is retryable and its words.
 */
import type { ErrorEntry } from './error-entry'
import { JOURNAL_ERRORS } from './journal-errors'
import { OPERATOR_ERRORS } from './operator-errors'
import { READER_ERRORS } from './reader-errors'
import { RECEIPT_ERRORS } from './receipt-errors'
import { REQUEST_ERRORS } from './request-errors'
import { SALE_ERRORS } from './sale-errors'
import { SETUP_ERRORS } from './setup-errors'

export const ERROR_CATALOGUE = {
  ...REQUEST_ERRORS,
  ...SALE_ERRORS,
  ...OPERATOR_ERRORS,
  ...SETUP_ERRORS,
  ...JOURNAL_ERRORS,
  ...READER_ERRORS,
  ...RECEIPT_ERRORS,
} as const satisfies Readonly<Record<string, ErrorEntry>>

export type ErrorCode = keyof typeof ERROR_CATALOGUE

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as readonly ErrorCode[]

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code)
}

/** The entry of a code; a code this build does not know reads as INTERNAL. */
export function errorEntry(code: string): ErrorEntry {
  return isErrorCode(code) ? ERROR_CATALOGUE[code] : ERROR_CATALOGUE.INTERNAL
}
