import { describe, expect, it } from 'vitest'
import { encodeTlv } from '../../../../src-main/device/card-data'
import { ReaderError } from '../../../../src-main/device/reader-error'
import { cardBrandOf } from '../../../../src-main/device/card-data/card-brand'
import { parsePinAnswer } from '../../../../src-main/device/neo2/neo2-pin'
import {
  captureKindOf,
  cardDecisionOf,
  cardWantsOnlinePin,
  isEncrypted,
  parseContactResult,
  parseTransactionData,
  readMethodOf,
  uiEventOf,
} from '../../../../src-main/device/neo2/neo2-responses'

const data = (attribution: number, items: { tag: string; value: string }[]): Buffer =>
  Buffer.concat([Buffer.from([attribution]), encodeTlv(items.map((i) => ({ tag: i.tag, value: Buffer.from(i.value, 'hex') })))])

describe('02-40 answer data: Attribution + TLVs (D7.3)', () => {
  it('reads the capture type from attribution bits 4/3/0 (IDG p.232)', () => {
    expect(captureKindOf(0x00)).toBe('contact')
    expect(captureKindOf(0x01)).toBe('contactlessEmv')
    expect(captureKindOf(0x11)).toBe('contactlessMsd')
    expect(captureKindOf(0x08)).toBe('magstripe')
    expect(captureKindOf(0x09)).toBe('magstripe')
    expect(captureKindOf(0x10)).toBe('unknown')
  })

  it('prefers 9F39 over the attribution, and treats an empty field as unknown', () => {
    expect(readMethodOf(parseTransactionData(data(0x00, [{ tag: '9F39', value: '80' }])))).toBe('fallbackSwipe')
    expect(readMethodOf(parseTransactionData(data(0x01, [{ tag: '57', value: '4111111111111111D49121010' }])))).toBe('contactlessChip')
    expect(readMethodOf(parseTransactionData(Buffer.alloc(0)))).toBeUndefined()
  })

  it('keeps FFEE1F raw even when its bytes would not parse as a template (SW 6985)', () => {
    const parsed = parseTransactionData(Buffer.from('01FFEE1F04306985' + '05', 'hex'))
    expect(parsed.tlvs[0]).toMatchObject({ tag: 'FFEE1F' })
    expect(parsed.tlvs[0]?.value.toString('hex')).toBe('30698505')
  })

  it('flags encrypted output: attribution bits 7/6 or a DFEE12 KSN (D7.5)', () => {
    expect(isEncrypted(parseTransactionData(data(0x40, [])))).toBe(true)
    expect(isEncrypted(parseTransactionData(data(0x08, [{ tag: 'DFEE12', value: 'FFFF9876543210E00001' }])))).toBe(true)
    expect(isEncrypted(parseTransactionData(data(0x08, [])))).toBe(false)
  })

  it('turns undecodable TLVs into unreadableCardData without quoting them', () => {
    const error = (() => {
      try {
        parseTransactionData(Buffer.from('0057104111111111111111', 'hex'))
      } catch (e) {
        return e as ReaderError
      }
    })()
    expect(error).toBeInstanceOf(ReaderError)
    expect(error?.code).toBe('unreadableCardData')
    expect(error?.message).not.toContain('4111')
  })
})

describe('60-11 / 60-12 answers: Result code + Attribution + TLVs (D7.7, D7.9)', () => {
  it('reads the result code big-endian', () => {
    expect(parseContactResult(Buffer.from('000400', 'hex')).resultCode).toBe(4)
    expect(() => parseContactResult(Buffer.from('00', 'hex'))).toThrow(ReaderError)
  })

  it('decides by 9F27 first (40 TC, 00 AAC), else by the result code', () => {
    const result = (code: string, cid?: string) =>
      parseContactResult(
        Buffer.concat([
          Buffer.from(code + '00', 'hex'),
          cid ? encodeTlv([{ tag: '9F27', value: Buffer.from(cid, 'hex') }]) : Buffer.alloc(0),
        ]),
      )
    expect(cardDecisionOf(result('0003', '40'))).toBe('approved')
    expect(cardDecisionOf(result('0002', '00'))).toBe('declined')
    expect(cardDecisionOf(result('0002'))).toBe('approved')
    expect(cardDecisionOf(result('0000'))).toBe('approved')
    expect(cardDecisionOf(result('0003'))).toBe('declined')
    expect(cardDecisionOf(result('0008'))).toBe('declined')
  })

  it('sees online PIN in 9F34 CVM code 02 (with or without the continue bit)', () => {
    const tlvs = (cvm: string) => parseTransactionData(data(0, [{ tag: '9F34', value: cvm }])).tlvs
    expect(cardWantsOnlinePin(tlvs('420300'))).toBe(true)
    expect(cardWantsOnlinePin(tlvs('020000'))).toBe(true)
    expect(cardWantsOnlinePin(tlvs('1F0002'))).toBe(false)
    expect(cardWantsOnlinePin(tlvs('410302'))).toBe(false)
  })
})

describe('62-01 second response (IDG p.350)', () => {
  const answer = (state: number, text = '') => Buffer.concat([Buffer.from([state]), Buffer.from(text, 'latin1')])

  it('splits TDES (20 + 16) and AES (24 + 32) hex, upper-cased, with the PIN block format', () => {
    expect(parsePinAnswer(answer(0, 'ffff9876543210e00001' + '1b9c1845eb993a7a'))).toEqual({
      kind: 'pin',
      pin: { keySerialNumber: 'FFFF9876543210E00001', encryptedPin: '1B9C1845EB993A7A', pinEncryptMethod: 'DUKPT-TDES-ISO0' },
    })
    const aes = parsePinAnswer(answer(0, '123456789012345600000001' + 'E4BE5B623AF7E006AC319E5B93544564'))
    expect(aes).toMatchObject({ kind: 'pin', pin: { pinEncryptMethod: 'DUKPT-AES-ISO4', keySerialNumber: '123456789012345600000001' } })
  })

  it('reports who cancelled, and fails other states and layouts with pinEntryFailed', () => {
    expect(parsePinAnswer(answer(1))).toEqual({ kind: 'cancelled', by: 'customer' })
    expect(parsePinAnswer(answer(2))).toEqual({ kind: 'cancelled', by: 'host' })
    expect(() => parsePinAnswer(answer(5))).toThrow(/pinKeyAbsent/)
    expect(() => parsePinAnswer(answer(0, 'FFFF9876543210E00001' + '1B9C'))).toThrow(ReaderError)
    expect(() => parsePinAnswer(Buffer.alloc(0))).toThrow(/missing/)
  })
})

describe('UI events (status 0E) and brands', () => {
  it('maps the event byte to a cashier prompt; unknown bytes are only logged', () => {
    expect(uiEventOf(Buffer.from([0x01]))).toEqual({ type: 'processing' })
    expect(uiEventOf(Buffer.from([0x03]))).toEqual({ type: 'removeCard' })
    expect(uiEventOf(Buffer.from([0x04]))?.type).toBe('insertChip')
    expect(uiEventOf(Buffer.from([0x99]))).toBeUndefined()
    expect(uiEventOf(Buffer.alloc(0))).toBeUndefined()
  })

  it.each([
    ['4761739001010010', 'VISA'],
    ['5413330089010434', 'MASTERCARD'],
    ['2223000048410010', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['6221260000000000', 'DISCOVER'],
    ['6212345678901232', 'UNIONPAY'],
    ['3530111333300000', 'JCB'],
    ['9999999999999995', 'UNKNOWN'],
  ])('brand of %s is %s', (pan, brand) => {
    expect(cardBrandOf(pan)).toBe(brand)
  })
})
