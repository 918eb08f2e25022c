/**
 * The error catalogue's door: the closed list of codes with their status, retryability and words,
 * the error type that carries one, and the shape errors cross the doors in. Pure TypeScript.
 */
export { ERROR_CATALOGUE, ERROR_CODES, errorEntry, isErrorCode, type ErrorCode } from './catalogue'
export type { ErrorEntry, HttpStatus } from './error-entry'
export { errorView, failed, httpStatusOf, wordsOf, type ErrorView } from './error-view'
export { PosError } from '../pos-error'
