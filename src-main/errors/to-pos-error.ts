/**
 * The one mapping from anything thrown to a catalogue error (src-shared/errors). Every entrance uses
 * it: the operations dispatcher behind the local API and the Electron IPC, the IPC handler itself,
 * the command line's exit code and the Electron shell's refusal to start. Domain errors that already
 * extend PosError (journal, keychain, configuration, signing key, sale refusals) pass through as
 * they are; the families that do not are mapped here; anything else is INTERNAL.
 */
import { ZodError } from 'zod'
import { PosError } from '../../src-shared/errors'
import { MoneyError } from '../../src-shared/money'
import { StaleSaleError } from '../journal'
import { deviceErrorCode, isDeviceFailure } from './device-errors'

export function toPosError(error: unknown): PosError {
  if (error instanceof PosError) return error
  const cause = { cause: error }
  if (isDeviceFailure(error)) return new PosError(deviceErrorCode(error), error.message, cause)
  if (error instanceof StaleSaleError) return new PosError('STALE_SALE', error.message, cause)
  if (error instanceof ZodError) return new PosError('INVALID_REQUEST', describeZodError(error), cause)
  if (error instanceof MoneyError) return new PosError('INVALID_AMOUNT', error.message, cause)
  return new PosError('INTERNAL', error instanceof Error ? error.message : String(error), cause)
}

/** The first problem of a failed validation as `field: what is wrong`, the form the local API documents. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0]
  const field = issue?.path.map(String).join('.') || '(request)'
  return `${field}: ${issue?.message ?? 'invalid'}`
}
