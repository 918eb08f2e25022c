import { describe, expect, it } from 'vitest'
import { CASHIER_ACTIONS } from '../../../../src-main/device/cashier-action'
import { decodeNeo2Frame } from '../../../../src-main/device/neo2/neo2-frame'
import { describeNeo2Status, isNeo2StatusOk, Neo2StatusError } from '../../../../src-main/device/neo2/neo2-status'
import {
  describeNeo2TransactionError,
  describeRfState,
  findNeo2ErrorRecord,
  Neo2TransactionError,
  parseNeo2ErrorRecord,
} from '../../../../src-main/device/neo2/neo2-transaction-error'
import { parseTransactionData } from '../../../../src-main/device/neo2/neo2-responses'
import { decodeTlv, findTlv } from '../../../../src-main/device/card-data/tlv'
import { FRAME_VECTORS } from './neo2-vectors'

describe('Protocol-2 status byte (docs/neo2-protocol.md §9.1)', () => {
  it.each([
    ['00', 'ok', 'ok'],
    ['23', 'requestOnlineAuthorization', 'ok'],
    ['63', 'okNextCommand', 'ok'],
    ['0E', 'userInterfaceEvent', 'event'],
    ['04', 'crcError', 'error'],
    ['08', 'timeout', 'error'],
    ['0A', 'failed', 'error'],
    ['1D', 'tamperOccurred', 'error'],
    ['91', 'dukptKeyExhausted', 'error'],
  ])('status %s is %s (%s)', (byte, code, kind) => {
    const status = Number.parseInt(byte, 16)
    expect(describeNeo2Status(status)).toMatchObject({ status, code, kind })
  })

  it('names every status the note lists by value, each with advice that fits its kind', () => {
    // §9.1 item by item: 00-08, 0A-0E, 10-1D, 20-25 (IDG p.28), then the SDK's RETURN_CODE_NEO_* names
    // (S2 IDTCommon.h): 26-2A, 41-4F, 50, 51, 60-68, 80, 81, 90, 91; then the C SDK's IDG_P2_STATUS_CODE
    // names (S11 IDTDef.h): 1E, 2B-2D, 70, A0, A3, F0.
    const documented = [
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
      0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x41,
      0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x60, 0x61, 0x62, 0x63, 0x64, 0x65,
      0x66, 0x67, 0x68, 0x70, 0x80, 0x81, 0x90, 0x91, 0xa0, 0xa3, 0xf0,
    ]
    const listed = Array.from({ length: 256 }, (_, s) => describeNeo2Status(s)).filter((info) => info.code !== 'unknownStatus')
    expect(listed.map((info) => info.status)).toEqual(documented)
    expect(new Set(listed.map((info) => info.code)).size).toBe(documented.length)
    for (const info of listed) {
      expect(CASHIER_ACTIONS).toContain(info.action)
      if (info.kind === 'error') expect(info.message).toMatch(/^[A-Z][^_]*\.$/)
      else expect(info.action).toBe('none')
    }
  })

  // 41-4F are the IDG's own "EMV Key Manager Status Codes – Protocol 2" too (IDG p.247), 4E excepted.
  it.each([
    ['26', 'versionInformationMismatch', 'Version Information Mismatch (ILM)'],
    ['2A', 'otherLanguageNotSupported', 'Other language not supported (ILM)'],
    ['41', 'samUnknownError', 'Unknown error from SAM'],
    ['4C', 'cryptoNotResponding', 'Crypto not responding'],
    ['4E', 'keyManagerError', 'Module-specific error for Key Manager'],
    ['64', 'kernelAbsent', 'Kernel is absent'],
    ['68', 'plugInChargingCable', 'Plug in charging cable'],
  ])('status %s has the SDK name %s (S2 IDTCommon.h, RETURN_CODE_*)', (byte, code, description) => {
    const status = Number.parseInt(byte, 16)
    expect(describeNeo2Status(status)).toMatchObject({ code, description, kind: 'error' })
  })

  // The C SDK's own status table, enum IDG_P2_STATUS_CODE in ID TECH's Universal SDK header IDTDef.h
  // (docs/neo2-protocol.md S11, libIDTechSDK 1.0.35.030; §9.1 lists the names: CARD_NOT_REMOVE = 0x1E, ...,
  // POWER_OFF = 0xF0).
  it.each([
    ['1E', 'cardNotRemoved', 'Card not removed', 'tryAgain', 'take it out'],
    ['2B', 'deviceNotReady', 'Device not ready', 'waitAndRetry', 'busy'],
    ['2C', 'cancelledByCommand', 'Operation cancelled by a command', 'tryAgain', 'Try again'],
    ['2D', 'cancelledOnKeypad', 'Operation cancelled by a key press', 'tryAgain', 'pressed Cancel'],
    ['70', 'antennaError', 'Antenna error', 'callSupport', 'Call support'],
    ['A0', 'consumerDeviceVerification', 'CDCVM: verify on the consumer device', 'presentCardAgain', 'unlock their phone'],
    ['A3', 'cardInserted', 'Card inserted', 'insertCard', 'Leave it in the reader'],
    ['F0', 'powerOff', 'Power off', 'waitAndRetry', 'switching off'],
  ])('status %s has the C SDK name %s (S11 IDTDef.h, IDG_P2_STATUS_CODE)', (byte, code, description, action, words) => {
    const status = Number.parseInt(byte, 16)
    const info = describeNeo2Status(status)
    expect(info).toMatchObject({ code, description, action, kind: 'error' })
    expect(info.message).toContain(words)
    expect(new Neo2StatusError(status, 0x02).message).toBe(
      `NEO 2 status 0x${status.toString(16).toUpperCase()} ${description} (command 0x02)`,
    )
  })

  // No public table names these as status bytes: not the IDG's (p.28, p.484, p.247), not S2's RETURN_CODE_NEO_*,
  // not S11's IDG_P2_STATUS_CODE. (S11's RETURN_CODE_EMV_PIN = 0x31 is a return value of the SDK's own
  // functions, not a byte a reader sends; 57 names a failure-record error code, "Cardholder Verification
  // Failed", below.) They keep the safe advice for a byte nobody documents.
  it.each(['31', '57'])('status %s stays unknown: an error for support, never OK', (byte) => {
    expect(describeNeo2Status(Number.parseInt(byte, 16))).toMatchObject({
      code: 'unknownStatus',
      kind: 'error',
      action: 'callSupport',
      retryable: false,
    })
  })

  // S2 IDTCommon.h: 0xEE80 "Cannot start Contact EMV transaction", 0xEE81 "CTLS/MSR cancelled due to card
  // insertion"; S11 IDTDef.h reads 80 and 81 as USE_ANOTHER_CARD and INSERT_OR_SWIPE_CARD, and names A3
  // CARD_INSERTED. Outcomes, not progress: another card, or the chip of the card just inserted (D2.1).
  it('reads 80, 81 and A3 as final outcomes with the next step for the cashier', () => {
    expect(describeNeo2Status(0x80)).toMatchObject({ kind: 'error', action: 'useAnotherCard', retryable: false })
    expect(describeNeo2Status(0x80).message).toContain('Use another card')
    expect(describeNeo2Status(0x81)).toMatchObject({ kind: 'error', action: 'insertCard', retryable: true })
    expect(describeNeo2Status(0x81).message).toContain('Leave it in the reader')
    expect(describeNeo2Status(0xa3)).toMatchObject({ kind: 'error', action: 'insertCard', retryable: true })
    const statuses = Array.from({ length: 256 }, (_, s) => describeNeo2Status(s))
    expect(statuses.filter((info) => info.kind === 'event').map((info) => info.status)).toEqual([0x0e])
  })

  it('treats bytes missing from the table as errors that need support, never as OK', () => {
    const info = describeNeo2Status(0x99)
    expect(info).toMatchObject({ code: 'unknownStatus', kind: 'error', action: 'callSupport', retryable: false })
    expect(isNeo2StatusOk(0x99)).toBe(false)
  })

  it('a CRC error is retryable link trouble; tamper is not retryable and says stop', () => {
    const crc = new Neo2StatusError(0x04, 0x18)
    expect(crc).toMatchObject({ code: 'crcError', retryable: true, action: 'tryAgain', status: 4, command: 0x18 })
    expect(crc.message).toBe('NEO 2 status 0x04 CRC Error in Frame (command 0x18)')
    const tamper = new Neo2StatusError(0x1d)
    expect(tamper.retryable).toBe(false)
    expect(tamper.cashierMessage).toMatch(/Stop using it/)
  })

  it('reads the status of the golden response frames', () => {
    const statuses = FRAME_VECTORS.filter((v) => v.kind === 'response').map((v) => decodeNeo2Frame(Buffer.from(v.hex, 'hex'), 'response'))
    const codes = statuses.map((frame) => (frame.kind === 'response' ? describeNeo2Status(frame.status).code : ''))
    expect(new Set(codes)).toEqual(
      new Set(['ok', 'timeout', 'requestOnlineAuthorization', 'failed', 'cannotStartContactEmv', 'cancelledByCardInsertion']),
    )
  })
})

describe('transaction error codes (docs/neo2-protocol.md §9.2)', () => {
  it.each([
    ['24', 'cardCommunicationError', 'presentCardAgain', 'Insert the card again'],
    ['02', 'goToContact', 'insertCard', 'Insert the card'],
    ['21', 'collision', 'presentCardAgain', 'only one card'],
    ['27', 'unsupportedCard', 'useAnotherCard', 'Use another card'],
    ['42', 'cardGeneratedAac', 'cardDeclined', 'Declined'],
    ['50', 'caPublicKeyMissing', 'callSupport', 'Call support'],
  ])('error %s is %s → %s', (byte, code, action, message) => {
    const errorCode = Number.parseInt(byte, 16)
    const info = describeNeo2TransactionError(errorCode)
    expect(info).toMatchObject({ code, action })
    expect(info.message).toContain(message)
  })

  it.each([
    ['04', 'goToOtherInterface', 'insertCard'],
    ['05', 'goToNearbyContact', 'insertCard'],
    ['06', 'goToMagstripe', 'insertCard'],
    ['55', 'processingRestrictionsFailed', 'useAnotherCard'],
    ['56', 'terminalRiskManagementFailed', 'useAnotherCard'],
    ['57', 'cardholderVerificationFailed', 'useAnotherCard'],
    ['58', 'terminalActionAnalysisFailed', 'useAnotherCard'],
    ['61', 'sdMemoryError', 'callSupport'],
    ['70', 'contactEmvError', 'insertCard'],
  ])('error %s has the SDK name %s → %s (S2 IDTCommon.h, TRANS_ERROR_CODE)', (byte, code, action) => {
    const errorCode = Number.parseInt(byte, 16)
    expect(describeNeo2TransactionError(errorCode)).toMatchObject({ code, action })
  })

  it('every named error code has a cashier line and a name of its own', () => {
    const named = Array.from({ length: 256 }, (_, c) => describeNeo2TransactionError(c)).filter((i) => i.code !== 'unknownTransactionError')
    expect(named.length).toBeGreaterThanOrEqual(40)
    expect(new Set(named.map((i) => i.code)).size).toBe(named.length)
    for (const info of named) if (info.action !== 'none') expect(info.message).toMatch(/^[A-Z].*\.$/)
  })

  it('names the RF state for the log (S2 IDTCommon.h RF_STATE), unknown ones as such', () => {
    expect(describeRfState(0x03)).toBe('GET PROCESSING OPTIONS')
    expect(describeRfState(0x26)).toBe('completion')
    expect(describeRfState(0x77)).toBe('unknown')
  })

  it('gives an unknown code a safe "present again" advice and keeps the raw code', () => {
    expect(describeNeo2TransactionError(0x99)).toMatchObject({
      errorCode: 0x99,
      code: 'unknownTransactionError',
      action: 'presentCardAgain',
    })
  })

  it('decodes the illustrative failed 02-40 frame down to a cashier message (§3.2)', () => {
    const vector = FRAME_VECTORS.find((v) => v.name === '02-40 response 0A illustrative')
    const frame = decodeNeo2Frame(Buffer.from(vector?.hex ?? '', 'hex'), 'response')
    expect(frame.kind === 'response' && frame.status).toBe(0x0a)
    expect(frame.data[0]).toBe(0x01) // attribution: CTLS EMV, no encryption
    const record = parseNeo2ErrorRecord(
      findTlv(decodeTlv(frame.data.subarray(1), { padding: 'zeroOnly' }), 'FFEE1F')?.value ?? Buffer.alloc(0),
    )
    expect(record).toEqual({ errorCode: 0x27, sw1: 0, sw2: 0, rfState: 0 })
    const error = new Neo2TransactionError(record ?? { errorCode: 0, sw1: 0, sw2: 0, rfState: 0 })
    expect(error).toMatchObject({ code: 'unsupportedCard', retryable: false })
    expect(error.cashierMessage).toBe('Card not supported. Use another card.')
    expect(error.message).toBe('NEO 2 transaction error 0x27 Unsupported Card (SW 0000, RF state 0x00 not available)')
  })

  it('refuses an error record shorter than its 4 documented bytes', () => {
    expect(parseNeo2ErrorRecord(Buffer.from([0x27, 0, 0]))).toBeUndefined()
  })
})

/*
 * ID TECH's QA script for a failed tap reads the record of the 02-40 answer (status 0A) from tag DFEE02:
 * `DF EE 02 04 20 90 00 03` = error 20 "Card Returned Error Status", SW 9000, RF state 03 (docs/neo2-protocol.md
 * §3.2, source S10); the IDG's table names the item FFEE1F (p.232). All three layouts read the same (D2.9).
 */
describe('failure record wherever the firmware puts it (docs/neo2-protocol.md §3.2)', () => {
  const QA_RECORD = { errorCode: 0x20, sw1: 0x90, sw2: 0x00, rfState: 0x03 }
  const recordOf = (name: string) => {
    const frame = decodeNeo2Frame(Buffer.from(FRAME_VECTORS.find((v) => v.name === name)?.hex ?? '', 'hex'), 'response')
    if (frame.kind !== 'response') throw new Error('not a response')
    return findNeo2ErrorRecord(parseTransactionData(frame.data).tlvs)
  }

  it.each([
    '02-40 response 0A, DFEE02 record, contactless',
    '02-40 response 0A, DFEE02 record, contact',
    '02-40 response 0A, DFEE02 inside FFEE1F, contact',
  ])('%s: error 20, SW 9000, RF state 03', (name) => {
    expect(recordOf(name)).toEqual(QA_RECORD)
  })

  it('still reads the raw FFEE1F bytes of the IDG layout', () => {
    expect(recordOf('02-40 response 0A illustrative')).toEqual({ errorCode: 0x27, sw1: 0, sw2: 0, rfState: 0 })
  })

  it('the QA record becomes a cashier line and a log line with SW and RF state', () => {
    const error = new Neo2TransactionError(QA_RECORD)
    expect(error).toMatchObject({ code: 'cardReturnedErrorStatus', action: 'presentCardAgain', retryable: true })
    expect(error.message).toBe('NEO 2 transaction error 0x20 Card Returned Error Status (SW 9000, RF state 0x03 GET PROCESSING OPTIONS)')
  })

  it('has no record when neither tag is there, or when the one there is short', () => {
    expect(findNeo2ErrorRecord(decodeTlv(Buffer.from('9F390105', 'hex')))).toBeUndefined()
    expect(findNeo2ErrorRecord(decodeTlv(Buffer.from('DFEE0203209000', 'hex')))).toBeUndefined()
  })
})
