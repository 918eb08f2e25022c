import { describe, expect, it } from 'vitest'
import { CASHIER_ACTIONS } from '../../../../src-main/device/cashier-action'
import { decodeNeo2Frame } from '../../../../src-main/device/neo2/neo2-frame'
import { describeNeo2Status, isNeo2StatusOk, Neo2StatusError } from '../../../../src-main/device/neo2/neo2-status'
import {
  describeNeo2TransactionError,
  Neo2TransactionError,
  parseNeo2ErrorRecord,
} from '../../../../src-main/device/neo2/neo2-transaction-error'
import { decodeTlv, findTlv } from '../../../../src-main/device/card-data/tlv'
import { FRAME_VECTORS } from './neo2-vectors'

describe('Protocol-2 status byte (docs/neo2-protocol.md §9.1)', () => {
  it.each([
    [0x00, 'ok', 'ok'],
    [0x23, 'requestOnlineAuthorization', 'ok'],
    [0x63, 'okNextCommand', 'ok'],
    [0x0e, 'userInterfaceEvent', 'event'],
    [0x04, 'crcError', 'error'],
    [0x08, 'timeout', 'error'],
    [0x0a, 'failed', 'error'],
    [0x1d, 'tamperOccurred', 'error'],
    [0x91, 'dukptKeyExhausted', 'error'],
  ])('status 0x%s is %s (%s)', (status, code, kind) => {
    expect(describeNeo2Status(status)).toMatchObject({ status, code, kind })
  })

  it('names every status the note lists by value, each with advice that fits its kind', () => {
    // §9.1 item by item: 00-08, 0A-0E, 10-1D, 20-25, then the SDK-mapped 4B, 4F, 50, 51, 60-63, 80, 81, 90, 91.
    const documented = [
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
      0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x4b, 0x4f, 0x50, 0x51, 0x60, 0x61, 0x62, 0x63, 0x80, 0x81,
      0x90, 0x91,
    ]
    const listed = Array.from({ length: 256 }, (_, s) => describeNeo2Status(s)).filter((info) => info.code !== 'unknownStatus')
    expect(listed.map((info) => info.status)).toEqual(documented)
    expect(new Set(listed.map((info) => info.code)).size).toBe(documented.length)
    for (const info of listed) {
      expect(CASHIER_ACTIONS).toContain(info.action)
      if (info.kind === 'error') expect(info.message).toMatch(/\.$/)
      else expect(info.action).toBe('none')
    }
  })

  it('treats bytes missing from the table as errors that need support, never as OK', () => {
    const info = describeNeo2Status(0x27)
    expect(info).toMatchObject({ code: 'unknownStatus', kind: 'error', action: 'callSupport', retryable: false })
    expect(isNeo2StatusOk(0x27)).toBe(false)
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
    expect(new Set(codes)).toEqual(new Set(['ok', 'timeout', 'requestOnlineAuthorization', 'failed']))
  })
})

describe('transaction error codes (docs/neo2-protocol.md §9.2)', () => {
  it.each([
    [0x24, 'cardCommunicationError', 'presentCardAgain', 'Insert the card again'],
    [0x02, 'goToContact', 'insertCard', 'Insert the card'],
    [0x21, 'collision', 'presentCardAgain', 'only one card'],
    [0x27, 'unsupportedCard', 'useAnotherCard', 'Use another card'],
    [0x42, 'cardGeneratedAac', 'cardDeclined', 'Declined'],
    [0x50, 'caPublicKeyMissing', 'callSupport', 'Call support'],
  ])('0x%s is %s → %s', (errorCode, code, action, message) => {
    const info = describeNeo2TransactionError(errorCode)
    expect(info).toMatchObject({ code, action })
    expect(info.message).toContain(message)
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
    expect(error.message).toBe('NEO 2 transaction error 0x27 Unsupported Card (SW 0000, RF state 0x00)')
  })

  it('refuses an error record shorter than its 4 documented bytes', () => {
    expect(parseNeo2ErrorRecord(Buffer.from([0x27, 0, 0]))).toBeUndefined()
  })
})
