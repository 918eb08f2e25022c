/**
 * An error as data, the one shape every door sends (IPC, local API): the code, the detail, whether
 * to retry, and the catalogue's words, so an integrator can show what the cashier window shows.
 */
import { errorEntry, type ErrorCode } from './catalogue'
import type { HttpStatus } from './error-entry'

export interface ErrorView {
  code: ErrorCode
  /** The specific detail, for logs and integrators. */
  message: string
  retryable: boolean
  /** The catalogue's words for the code: what a cashier or manager reads. */
  words: string
}

export function errorView(error: { readonly code: ErrorCode; readonly message: string }): ErrorView {
  const { retryable, words } = errorEntry(error.code)
  return { code: error.code, message: error.message, retryable, words }
}

/** A refusal as a whole result, for doors that answer before any operation runs. */
export function failed(code: ErrorCode, message: string): { ok: false; error: ErrorView } {
  return { ok: false, error: errorView({ code, message }) }
}

/** The local API's status for any answered code; a code this build does not know is a 500. */
export function httpStatusOf(code: string): HttpStatus {
  return errorEntry(code).status
}

/** The words for any answered code; a code this build does not know reads as INTERNAL. */
export function wordsOf(code: string): string {
  return errorEntry(code).words
}
