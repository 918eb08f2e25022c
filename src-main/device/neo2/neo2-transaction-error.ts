/**
 * Transaction error codes: byte 1 of the `FFEE1F` error record of a failed 02-40 (status 0A), or
 * byte 14 of a failed 02-01 (docs/neo2-protocol.md §3.2, §9.2; IDG p.32-34). Each maps to a typed error
 * with a cashier-actionable message. Codes 00, 01, 03, 40, 41 come from an older ViVOpay IDG and are
 * marked [K] in the note; RF State Codes are not public, so they are carried raw for the log.
 */
import type { CashierAction, CashierAdvice } from '../cashier-action'

export interface Neo2TransactionErrorInfo extends CashierAdvice {
  errorCode: number
  /** camelCase name; `unknownTransactionError` for codes the public IDG pages do not list. */
  code: string
  description: string
}

type Entry = readonly [code: string, description: string, advice: CashierAdvice]

const advice = (action: CashierAction, retryable: boolean, message: string): CashierAdvice => ({ action, retryable, message })

const AGAIN = advice('presentCardAgain', true, 'Card read failed. Present the card again.')
const OTHER_CARD = advice('useAnotherCard', false, 'This card cannot be used. Use another card.')
const CARD_AUTH = advice('useAnotherCard', false, 'Card authentication failed. Use another card.')
const SETUP = advice('callSupport', false, 'Card reader configuration problem. Call support.')

const TABLE: ReadonlyMap<number, Entry> = new Map<number, Entry>([
  [0x00, ['noError', 'No error [K]', advice('none', false, '')]],
  [
    0x01,
    ['outOfSequenceCommand', 'Out of sequence command [K]', advice('tryAgain', true, 'Card reader out of step. Start the payment again.')],
  ],
  [0x02, ['goToContact', 'Go to Contact Interface', advice('insertCard', true, 'Insert the card into the chip reader.')]],
  [0x03, ['zeroAmount', 'Transaction amount is zero [K]', advice('callSupport', false, 'The amount cannot be zero.')]],
  [0x20, ['cardReturnedErrorStatus', 'Card Returned Error Status', AGAIN]],
  [0x21, ['collision', 'Collision Error', advice('presentCardAgain', true, 'More than one card detected. Present only one card.')]],
  [
    0x22,
    [
      'amountOverLimit',
      'Amount Over Maximum Limit',
      advice('insertCard', true, 'Amount over the contactless limit. Insert or swipe the card.'),
    ],
  ],
  [0x23, ['requestOnlineAuthorization', 'Request Online Authorization', advice('none', false, '')]],
  [
    0x24,
    [
      'cardCommunicationError',
      'Card Communication Error',
      advice('presentCardAgain', true, 'The card was removed too early. Insert the card again.'),
    ],
  ],
  [0x25, ['cardBlocked', 'Card Blocked', OTHER_CARD]],
  [0x26, ['cardExpired', 'Card Expired', advice('useAnotherCard', false, 'The card has expired. Use another card.')]],
  [0x27, ['unsupportedCard', 'Unsupported Card', advice('useAnotherCard', false, 'Card not supported. Use another card.')]],
  [0x30, ['cardDidNotRespond', 'Card did not respond', AGAIN]],
  [0x40, ['unknownDataElement', 'Unknown data element [K]', SETUP]],
  [0x41, ['requiredDataMissing', 'Required data element(s) missing [K]', SETUP]],
  [0x42, ['cardGeneratedAac', 'Card Generated AAC', advice('cardDeclined', false, 'Declined by the card.')]],
  [
    0x43,
    [
      'cardGeneratedArqcOffline',
      'Card Generated ARQC while configured offline-only',
      advice('cardDeclined', false, 'Declined: the card needs online approval.'),
    ],
  ],
  [0x44, ['odaNotSupported', 'SDA/DDA failed (not supported by card)', CARD_AUTH]],
  // "retrying ... does not correct the error" (IDG p.33): the reader lacks the CA public key.
  [0x50, ['caPublicKeyMissing', 'ODA failed: CA public key missing', SETUP]],
  [0x51, ['issuerPublicKeyFailed', 'ODA failed: issuer public key', CARD_AUTH]],
  [0x52, ['sdaFailed', 'ODA failed: SDA (SSAD)', CARD_AUTH]],
  [0x53, ['iccPublicKeyFailed', 'ODA failed: ICC public key', CARD_AUTH]],
  [0x54, ['dynamicSignatureFailed', 'ODA failed: dynamic signature', CARD_AUTH]],
  [0x62, ['genericError', 'Generic Error', advice('tryAgain', true, 'Card reader error. Try again.')]],
  [0x73, ['tornTransactionLog', 'Torn Transaction Log Error', AGAIN]],
  [0x80, ['noMerchantsConfigured', 'No merchants configured', SETUP]],
  [0x81, ['tlvParseFailure', 'TLV parse failure', SETUP]],
  [0x82, ['merchantDataError', 'Merchant data error', SETUP]],
  [0x83, ['systemMemoryError', 'System memory error', advice('callSupport', false, 'Card reader fault. Call support.')]],
  [0x84, ['applicationSkip', 'Application skip error', SETUP]],
  [0x85, ['applicationVersion', 'Application version error', SETUP]],
  [0x88, ['ltpkNotLoaded', 'LTPK not loaded', SETUP]],
])

const hex = (byte: number): string => `0x${byte.toString(16).padStart(2, '0').toUpperCase()}`

export function describeNeo2TransactionError(errorCode: number): Neo2TransactionErrorInfo {
  const entry = TABLE.get(errorCode)
  if (entry) return { errorCode, code: entry[0], description: entry[1], ...entry[2] }
  return { errorCode, code: 'unknownTransactionError', description: `Error code ${hex(errorCode)} not in the public IDG pages`, ...AGAIN }
}

/** The 4-byte `FFEE1F` value (docs/neo2-protocol.md §3.2): error code, SW1, SW2, RF state. */
export interface Neo2ErrorRecord {
  errorCode: number
  sw1: number
  sw2: number
  rfState: number
}

/** Reads an `FFEE1F` value; undefined when it is shorter than the 4 documented bytes. */
export function parseNeo2ErrorRecord(value: Uint8Array): Neo2ErrorRecord | undefined {
  if (value.length < 4) return undefined
  return { errorCode: value[0] ?? 0, sw1: value[1] ?? 0, sw2: value[2] ?? 0, rfState: value[3] ?? 0 }
}

/** A transaction the reader ended with a failure record. */
export class Neo2TransactionError extends Error {
  override readonly name = 'Neo2TransactionError'
  readonly code: string
  readonly action: CashierAction
  readonly cashierMessage: string
  readonly retryable: boolean

  constructor(readonly record: Neo2ErrorRecord) {
    const info = describeNeo2TransactionError(record.errorCode)
    const sw = ((record.sw1 << 8) | record.sw2).toString(16).padStart(4, '0').toUpperCase()
    super(`NEO 2 transaction error ${hex(record.errorCode)} ${info.description} (SW ${sw}, RF state ${hex(record.rfState)})`)
    this.code = info.code
    this.action = info.action
    this.cashierMessage = info.message
    this.retryable = info.retryable
  }
}
