import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { crc16 } from '../../../../src-main/device/neo2/crc16'

/** Bit-by-bit reference: the recipe printed in docs/neo2-protocol.md §11. */
function referenceCrc(bytes: Uint8Array): number {
  let c = 0xffff
  for (const b of bytes) {
    c ^= b << 8
    for (let i = 0; i < 8; i++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff
  }
  return c
}

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex')

describe('CRC-16/CCITT-FALSE (docs/card-reader.md §1.2)', () => {
  it('has the check value 0x29B1 for "123456789"', () => {
    expect(crc16(Buffer.from('123456789', 'ascii'))).toBe(0x29b1)
  })

  it.each([
    ['ping command (CRC sent B3 CD)', '56 69 56 4F 74 65 63 68 32 00 18 01 00 00', 0xcdb3],
    ['ping response (CRC sent FA 83)', '56 69 56 4F 74 65 63 68 32 00 18 00 00 00', 0xfa83],
    ['Get Configuration 03-02', '56 69 56 4F 74 65 63 68 32 00 03 02 00 00', 0x915b],
    [
      'burst-mode MSR payload (IDG p.60)',
      `01 00 0A 25 42 36 32 37 39 32 35 37 37 34 39 31 33 32 33 34 33 5E 54 45 53 54 20 43 41 52 44 2F
       56 49 56 4F 54 45 43 48 5E 31 30 31 32 38 31 33 30 30 37 32 31 30 34 33 35 30 30 30 30 3F 3B 36
       32 37 39 32 35 37 37 34 39 31 33 32 33 34 33 3D 31 30 31 32 38 31 33 30 30 37 32 31 30 34 33 35
       30 30 30 30 3F`,
      0xb5dc,
    ],
    ['async UI event', '45 00 55 00 04 03 03 00 00', 0xe8dd],
  ])('matches the published CRC of the %s', (_name, bytes, crc) => {
    expect(crc16(hex(bytes))).toBe(crc)
  })

  it('agrees with the bit-by-bit recipe on any bytes, whole or continued piecewise', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), (bytes, cut) => {
        const at = bytes.length === 0 ? 0 : cut % (bytes.length + 1)
        expect(crc16(bytes)).toBe(referenceCrc(bytes))
        expect(crc16(bytes, at, bytes.length, crc16(bytes, 0, at))).toBe(referenceCrc(bytes))
      }),
    )
  })
})
