/**
 * The card reader's errors in catalogue terms. The driver's errors (`ReaderError`, and the NEO 2
 * status and failure-record errors) each carry a driver code and cashier advice
 * (src-main/device/cashier-action.ts); the device door does not export their classes, so they are
 * recognised by that shape. A driver code named here picks its catalogue code; any other is
 * placed by the action it advises.
 */
import type { ErrorCode } from '../../src-shared/errors'

/** What every driver error carries (device/reader-error.ts, the NEO 2 status and record errors). */
export interface DeviceFailure extends Error {
  code: string
  action: string
  cashierMessage: string
  retryable: boolean
}

export function isDeviceFailure(error: unknown): error is DeviceFailure {
  if (!(error instanceof Error)) return false
  const { code, action, cashierMessage, retryable } = error as Partial<DeviceFailure>
  return typeof code === 'string' && typeof action === 'string' && typeof cashierMessage === 'string' && typeof retryable === 'boolean'
}

/** By the driver's own code (`READER_ERROR_CODES`, device/reader-error.ts). */
const BY_READER_CODE: Readonly<Record<string, ErrorCode>> = {
  deviceDisconnected: 'READER_DISCONNECTED',
  closed: 'READER_DISCONNECTED',
  deviceNotResponding: 'READER_NOT_RESPONDING',
  corruptResponse: 'READER_FAULT',
  deviceRestarted: 'READER_FAULT',
  deviceBusy: 'READER_BUSY',
  readerNotFound: 'READER_NOT_FOUND',
  encryptedDataNotSupported: 'READER_NOT_SUPPORTED',
  unreadableCardData: 'CARD_UNREADABLE',
  pinEntryFailed: 'PIN_ENTRY_FAILED',
  cardDeclinedOffline: 'CARD_DECLINED',
  cancelled: 'READER_CANCELLED',
}

/** By the advice (`CASHIER_ACTIONS`, device/cashier-action.ts), for the status and record codes. */
const BY_ACTION: Readonly<Record<string, ErrorCode>> = {
  none: 'READER_FAULT',
  tryAgain: 'READER_FAULT',
  waitAndRetry: 'READER_BUSY',
  presentCardAgain: 'CARD_UNREADABLE',
  insertCard: 'CARD_UNREADABLE',
  useAnotherCard: 'CARD_NOT_USABLE',
  cardDeclined: 'CARD_DECLINED',
  callSupport: 'READER_NEEDS_SUPPORT',
}

export function deviceErrorCode(failure: DeviceFailure): ErrorCode {
  return (
    (Object.hasOwn(BY_READER_CODE, failure.code) ? BY_READER_CODE[failure.code] : undefined) ??
    (Object.hasOwn(BY_ACTION, failure.action) ? BY_ACTION[failure.action] : undefined) ??
    'READER_FAULT'
  )
}
