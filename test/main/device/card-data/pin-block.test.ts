import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { aesPinKey } from '../../../../src-main/device/card-data/dukpt-aes'
import {
  decipherPinBlockIso4,
  decodePinBlock,
  encipherPinBlockIso4,
  encodePinBlockIso0,
  encodePinBlockIso2,
  encodePinBlockIso3,
  panFieldIso0,
  panFieldIso4,
  PinBlockError,
  pinFieldIso4,
} from '../../../../src-main/device/card-data/pin-block'
import { xorBytes } from '../../../../src-main/device/card-data/block-cipher'

const hex = (text: string): Buffer => Buffer.from(text, 'hex')
const up = (bytes: Buffer): string => bytes.toString('hex').toUpperCase()
/** A fixed "random" source for deterministic fills. */
const fixed =
  (bytes: Buffer) =>
  (size: number): Buffer =>
    bytes.subarray(0, size)

describe('ISO 9564-1 formats 0, 2, 3 (docs/card-reader.md §4.1)', () => {
  it.each([
    ['1234', '4012345678909', '041274EDCBA9876F'], // X9.24-1:2009 A.4 clear PIN block
    ['1234', '5544332211009966', '041277CDDEEFF669'], // psec encode_pinblock_iso_0
  ])('format 0: PIN %s, PAN %s → %s, and back', (pin, pan, block) => {
    expect(up(encodePinBlockIso0(pin, pan))).toBe(block)
    expect(decodePinBlock(hex(block), 0, pan)).toBe(pin)
  })

  it('format 2: PIN 1234 → 241234FFFFFFFFFF (psec)', () => {
    expect(up(encodePinBlockIso2('1234'))).toBe('241234FFFFFFFFFF')
    expect(decodePinBlock(hex('241234FFFFFFFFFF'), 2)).toBe('1234')
  })

  it('format 3: starts 341277 for PIN 1234, PAN 5544332211009966, and decodes the psec block', () => {
    expect(up(encodePinBlockIso3('1234', '5544332211009966')).slice(0, 6)).toBe('341277')
    expect(decodePinBlock(hex('341277EEEFCCB43C'), 3, '5544332211009966')).toBe('1234')
  })

  it('format 3 fill nibbles are always A-F, whatever the random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (random) => {
        let next = 0
        const source = (size: number): Buffer => Buffer.from(Array.from({ length: size }, () => random[next++ % random.length] ?? 0))
        // random bytes >= 252 are redrawn; a source of only those would never end, so keep one below
        if (random.every((b) => b >= 252)) return
        const field = up(xorBytes(encodePinBlockIso3('1234', '4012345678909', source), panFieldIso0('4012345678909')))
        expect(field.slice(0, 6)).toBe('341234')
        expect(field.slice(6)).toMatch(/^[A-F]{10}$/)
      }),
    )
  })

  it.each([
    ['a wrong PAN', () => decodePinBlock(hex('041274EDCBA9876F'), 0, '5544332211009966')],
    ['a format 0 block read as format 3', () => decodePinBlock(hex('041274EDCBA9876F'), 3, '4012345678909')],
    ['a 7-byte block', () => decodePinBlock(hex('041274EDCBA987'), 0, '4012345678909')],
    ['a 3-digit PIN', () => encodePinBlockIso0('123', '4012345678909')],
    ['a 13-digit PIN', () => encodePinBlockIso0('1234567890123', '4012345678909')],
    ['a PIN with a letter', () => encodePinBlockIso2('12a4')],
    ['a 7-digit PAN', () => encodePinBlockIso0('1234', '4012345')],
  ])('rejects %s with a PinBlockError', (_name, fn) => {
    expect(fn).toThrow(PinBlockError)
  })
})

describe('ISO 9564-1 format 4 (AES; docs/card-reader.md §4.1)', () => {
  it('PIN field starts 441234AAAAAAAAAA and ends with the 8 random bytes', () => {
    const random = hex('E63A8727CB39CB3A')
    expect(up(pinFieldIso4('1234', fixed(random)))).toBe('441234AAAAAAAAAAE63A8727CB39CB3A')
  })

  it.each([
    ['112233445566778899', '61122334455667788990000000000000'], // psec encode_pan_field_iso_4
    ['4111111111111111', '44111111111111111000000000000000'], // openemv/pinblock (X9.24-3 supplement)
    ['123456789', '00001234567890000000000000000000'], // openemv/pinblock, short PAN
  ])('PAN field of %s is %s', (pan, field) => {
    expect(up(panFieldIso4(pan))).toBe(field)
  })

  it('deciphers the psec vector to PIN 1234', () => {
    expect(decipherPinBlockIso4(hex('00112233445566778899AABBCCDDEEFF'), hex('E4BE5B623AF7E006AC319E5B93544564'), '1234567890123456')).toBe(
      '1234',
    )
  })

  it("enciphers to the psec block when given that vector's random fill", () => {
    const block = encipherPinBlockIso4(hex('00112233445566778899AABBCCDDEEFF'), '1234', '1234567890123456', fixed(hex('E63A8727CB39CB3A')))
    expect(up(block)).toBe('E4BE5B623AF7E006AC319E5B93544564')
  })

  it('round-trips any PIN and PAN under the AES DUKPT PIN key (counter 1)', () => {
    const key = aesPinKey(hex('1273671EA26AC29AFA4D1084127652A1'), hex('123456789012345600000001'))
    const pin = fc.stringMatching(/^\d{4,12}$/)
    const pan = fc.stringMatching(/^\d{8,19}$/)
    fc.assert(
      fc.property(pin, pan, (p, account) => {
        const block = encipherPinBlockIso4(key, p, account)
        expect(block).toHaveLength(16)
        expect(decipherPinBlockIso4(key, block, account)).toBe(p)
      }),
      { numRuns: 200 },
    )
  })

  it('rejects the psec block deciphered with another PAN', () => {
    const key = hex('00112233445566778899AABBCCDDEEFF')
    expect(() => decipherPinBlockIso4(key, hex('E4BE5B623AF7E006AC319E5B93544564'), '4111111111111111')).toThrow(PinBlockError)
  })
})
