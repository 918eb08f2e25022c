/**
 * Transaction error codes: byte 1 of the error record of a failed 02-40 (status 0A), or byte 14 of a
 * failed 02-01 (docs/neo2-protocol.md §3.2, §9.2; IDG p.32-34, and the SDK's `TRANS_ERROR_CODE` table,
 * S2 IDTCommon.h, for 04-06, 55-58, 61, 70). Each maps to a typed error with a cashier-actionable
 * message. Codes 00, 01, 03, 40, 41 come from an older ViVOpay IDG (the SDK names them the same).
 * RF State Codes are carried raw for the log, with the SDK's `RF_STATE` name when it has one.
 *
 * Where the record is: the IDG's table names the 02-40 item `FFEE1F` (p.232); ID TECH's own QA scripts
 * read it as `DFEE02` (`DF EE 02 04 20 90 00 03`, docs/neo2-protocol.md §3.2). `findNeo2ErrorRecord`
 * takes `DFEE02` at the top level or inside `FFEE1F`, else the raw `FFEE1F` bytes (D2.9).
 */
import type { CashierAction, CashierAdvice } from '../cashier-action'
import { decodeTlv, findTlv } from '../card-data/tlv'
import type { Tlv } from '../card-data/tlv'

export interface Neo2TransactionErrorInfo extends CashierAdvice {
  errorCode: number
  /** camelCase name; `unknownTransactionError` for codes neither the IDG pages nor the SDK list. */
  code: string
  description: string
}

type Entry = readonly [code: string, description: string, advice: CashierAdvice]

const advice = (action: CashierAction, retryable: boolean, message: string): CashierAdvice => ({ action, retryable, message })

const AGAIN = advice('presentCardAgain', true, 'Card read failed. Present the card again.')
const OTHER_CARD = advice('useAnotherCard', false, 'This card cannot be used. Use another card.')
const CARD_AUTH = advice('useAnotherCard', false, 'Card authentication failed. Use another card.')
const SETUP = advice('callSupport', false, 'Card reader configuration problem. Call support.')
const INSERT = advice('insertCard', true, 'Insert the card into the chip reader.')

const TABLE: ReadonlyMap<number, Entry> = new Map<number, Entry>([
  [0x00, ['noError', 'No error [K]', advice('none', false, '')]],
  [
    0x01,
    ['outOfSequenceCommand', 'Out of sequence command [K]', advice('tryAgain', true, 'Card reader out of step. Start the payment again.')],
  ],
  [0x02, ['goToContact', 'Go to Contact Interface', INSERT]],
  [0x03, ['zeroAmount', 'Transaction amount is zero [K]', advice('callSupport', false, 'The amount cannot be zero.')]],
  [
    0x04,
    ['goToOtherInterface', 'Go to Other Interface', advice('insertCard', true, 'This card cannot be tapped. Insert or swipe the card.')],
  ],
  [0x05, ['goToNearbyContact', 'Go to Nearby Contact Interface', INSERT]],
  [0x06, ['goToMagstripe', 'Go to Magstripe Interface', advice('insertCard', true, 'Swipe the card.')]],
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
  [0x55, ['processingRestrictionsFailed', 'Processing Restrictions Failed', OTHER_CARD]],
  [0x56, ['terminalRiskManagementFailed', 'Terminal Risk Management (TRM) Failed', OTHER_CARD]],
  [
    0x57,
    [
      'cardholderVerificationFailed',
      'Cardholder Verification Failed',
      advice('useAnotherCard', false, 'The cardholder could not be verified. Use another card.'),
    ],
  ],
  [0x58, ['terminalActionAnalysisFailed', 'Terminal Action Analysis (TAA) Failed', OTHER_CARD]],
  [0x61, ['sdMemoryError', 'SD Memory Error', advice('callSupport', false, 'Card reader fault. Call support.')]],
  [0x62, ['genericError', 'Generic Error', advice('tryAgain', true, 'Card reader error. Try again.')]],
  [0x70, ['contactEmvError', 'Contact EMV Error', advice('insertCard', true, 'The chip could not be read. Insert the card again.')]],
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
  return { errorCode, code: 'unknownTransactionError', description: `Error code ${hex(errorCode)} not in the IDG or SDK tables`, ...AGAIN }
}

/** Where in the reader-card dialogue the error happened (S2 IDTCommon.h `RF_STATE`), for logs. */
const RF_STATES: ReadonlyMap<number, string> = new Map([
  [0x00, 'not available'],
  [0x01, 'PPSE'],
  [0x02, 'SELECT'],
  [0x03, 'GET PROCESSING OPTIONS'],
  [0x04, 'READ RECORD'],
  [0x05, 'GEN AC'],
  [0x06, 'CCC'],
  [0x07, 'IA'],
  [0x08, 'SDA'],
  [0x09, 'DDA'],
  [0x0a, 'CDA'],
  [0x0b, 'TAA'],
  [0x0c, 'GET DATA'],
  [0x21, 'card read complete'],
  [0x22, 'processing restrictions'],
  [0x23, 'ODA'],
  [0x24, 'cardholder verification'],
  [0x25, 'online processing'],
  [0x26, 'completion'],
])

export function describeRfState(rfState: number): string {
  return RF_STATES.get(rfState) ?? 'unknown'
}

/** The 4-byte error record (docs/neo2-protocol.md §3.2): error code, SW1, SW2, RF state. */
export interface Neo2ErrorRecord {
  errorCode: number
  sw1: number
  sw2: number
  rfState: number
}

/** Reads a record's 4 bytes; undefined when it is shorter than the 4 documented bytes. */
export function parseNeo2ErrorRecord(value: Uint8Array): Neo2ErrorRecord | undefined {
  if (value.length < 4) return undefined
  return { errorCode: value[0] ?? 0, sw1: value[1] ?? 0, sw2: value[2] ?? 0, rfState: value[3] ?? 0 }
}

/** `DFEE02` inside an `FFEE1F` value, when that value reads as TLVs holding one. */
function nestedRecord(group: Uint8Array): Tlv | undefined {
  try {
    return findTlv(decodeTlv(group, { padding: 'zeroOnly' }), 'DFEE02')
  } catch {
    // A raw 4-byte record is not TLV data: it is read as it is.
    return undefined
  }
}

/**
 * The error record of a failed 02-40, wherever the firmware put it: `DFEE02` at the top level, `DFEE02`
 * inside `FFEE1F`, else `FFEE1F`'s own bytes (docs/neo2-protocol.md §3.2; D2.9).
 */
export function findNeo2ErrorRecord(tlvs: readonly Tlv[]): Neo2ErrorRecord | undefined {
  const top = findTlv(tlvs, 'DFEE02')
  if (top) return parseNeo2ErrorRecord(top.value)
  const group = findTlv(tlvs, 'FFEE1F')
  if (!group) return undefined
  const nested = nestedRecord(group.value)
  return parseNeo2ErrorRecord(nested ? nested.value : group.value)
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
    const rf = `${hex(record.rfState)} ${describeRfState(record.rfState)}`
    super(`NEO 2 transaction error ${hex(record.errorCode)} ${info.description} (SW ${sw}, RF state ${rf})`)
    this.code = info.code
    this.action = info.action
    this.cashierMessage = info.message
    this.retryable = info.retryable
  }
}
