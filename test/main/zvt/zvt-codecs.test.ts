/**
 * The ZVT codecs against the specification's own examples (PA00P015/PA00P016 as the terminals and
 * Wireshark read them) and under generated input: encode→decode gives back what went in, and no
 * sequence of bytes makes a parser throw (a register's garbage is a negative acknowledgement).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { apdu, ApduReader, apduLength, decodeApdu, encodeApdu } from '../../../src-main/zvt/zvt-apdu'
import { decodeBcd, encodeAmount, encodeMaskedPan } from '../../../src-main/zvt/zvt-bcd'
import { BMP_LENGTHS, decodeBmps, encodeBmps, type Bmp } from '../../../src-main/zvt/zvt-bmp'
import { decodeBody, encodeBody } from '../../../src-main/zvt/zvt-body'
import { ACK, frameApdu, NAK, SerialFrameReader, unframe, zvtCrc } from '../../../src-main/zvt/zvt-serial-framing'
import { decodeTlvList, encodeTlvList, type TlvNode } from '../../../src-main/zvt/zvt-tlv'

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'))
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

describe('APDU length', () => {
  it('reads the long form low byte first: FF 00 01 is 256 bytes, FF 01 00 is 1', () => {
    expect(apduLength(hex('040fff0001'))).toBe(5 + 256)
    expect(apduLength(hex('040fff0100'))).toBe(5 + 1)
    expect(apduLength(hex('040f016c'))).toBe(4)
  })

  it('writes the long form from 255 bytes on, low byte first', () => {
    const long = encodeApdu(apdu(0x04, 0x0f, new Uint8Array(300)))
    expect(toHex(long.subarray(0, 5))).toBe('040fff2c01')
    expect(toHex(encodeApdu(apdu(0x04, 0x0f, new Uint8Array(254))).subarray(0, 3))).toBe('040ffe')
    expect(toHex(encodeApdu(apdu(0x04, 0x0f, new Uint8Array(255))).subarray(0, 5))).toBe('040fffff00')
  })

  it('refuses a message shorter or longer than its length says, as data', () => {
    expect(decodeApdu(hex('040f05 2700'))).toMatchObject({ ok: false, error: { kind: 'truncated' } })
    expect(decodeApdu(hex('040f01 27 00'))).toMatchObject({ ok: false, error: { kind: 'malformed' } })
    expect(decodeApdu(hex('04'))).toMatchObject({ ok: false, error: { kind: 'truncated' } })
  })

  it('cuts APDUs out of a stream split and joined anywhere', () => {
    const stream = hex('8000 00 040f 02 2700 060f00')
    const reader = new ApduReader()
    const got = [...reader.push(stream.subarray(0, 4)), ...reader.push(stream.subarray(4, 7)), ...reader.push(stream.subarray(7))]
    expect(got.map((one) => toHex(encodeApdu(one)))).toEqual(['800000', '040f022700', '060f00'])
    expect(reader.pending).toBe(0)
  })
})

describe('BCD and BMPs', () => {
  it('writes an amount as 12 digits of minor units (3.80 = 00 00 00 00 03 80)', () => {
    expect(toHex(encodeAmount(380))).toBe('000000000380')
    expect(decodeBcd(hex('000000000380'), 'amount')).toEqual({ ok: true, value: '000000000380' })
    expect(decodeBcd(hex('0a'), 'amount')).toMatchObject({ ok: false, error: { kind: 'badBcd' } })
  })

  it('masks a PAN with E and pads an odd length with F', () => {
    expect(toHex(encodeMaskedPan('512345******1234'))).toBe('512345eeeeee1234')
    expect(toHex(encodeMaskedPan('47******123'))).toBe('47eeeeee123f')
  })

  it('reads LL-var and LLL-var lengths from their Fx digits (F0 F8 = 8, F0 F1 F9 = 19)', () => {
    const pan = decodeBmps(hex('22 f0f8 eeeeeeeeeeee4771'))
    expect(pan).toMatchObject({ ok: true })
    if (pan.ok) expect(pan.value[0]!.value.length).toBe(8)
    const text = decodeBmps(hex(`3c f0f1f9 ${'41'.repeat(19)}`))
    expect(text.ok && text.value[0]!.value.length).toBe(19)
  })

  it('refuses a length digit outside F0–F9 and a truncated value', () => {
    expect(decodeBmps(hex('22 f0a8 00'))).toMatchObject({ ok: false, error: { kind: 'badLength' } })
    expect(decodeBmps(hex('04 0000'))).toMatchObject({ ok: false, error: { kind: 'truncated' } })
    expect(decodeBmps(hex('ff 00'))).toMatchObject({ ok: false, error: { kind: 'unknownBmp', bmp: 0xff } })
  })

  it('steps over BMPs it has no use for, by the table', () => {
    const fields = decodeBmps(hex('2a 313030343631373633202020202020 27 00'))
    expect(fields.ok && fields.value.map((field) => field.bmp)).toEqual([0x2a, 0x27])
  })
})

describe('TLV container', () => {
  it('reads two-byte tags, 81/82 lengths and constructed tags', () => {
    const nodes = decodeTlvList(hex(`1f1001ff 26 04 0a020601 07 81 80 ${'20'.repeat(128)}`))
    expect(nodes.ok).toBe(true)
    if (!nodes.ok) return
    expect(nodes.value.map((node) => node.tag)).toEqual([0x1f10, 0x26, 0x07])
    expect(nodes.value[1]!.children?.map((child) => toHex(child.value))).toEqual(['0601'])
    expect(nodes.value[2]!.value.length).toBe(128)
  })

  it('refuses a length form ZVT does not use and a value past the end', () => {
    expect(decodeTlvList(hex('07 83 000001 20'))).toMatchObject({ ok: false, error: { kind: 'badLength' } })
    expect(decodeTlvList(hex('07 05 2020'))).toMatchObject({ ok: false, error: { kind: 'truncated' } })
  })
})

describe('serial framing (PA00P016)', () => {
  it('uses the reflected CCITT CRC from 0 over the APDU and ETX, low byte first', () => {
    // CRC-16/KERMIT's check value over "123456789" is 0x2189; here the ETX is part of the data checked.
    let crc = 0
    for (const byte of Buffer.from('123456789')) {
      crc ^= byte
      for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1
    }
    expect(crc).toBe(0x2189)
    const frame = frameApdu(hex('800000'))
    const check = zvtCrc(hex('800000'))
    expect(toHex(frame)).toBe(
      `1002800000 1003 ${(check & 0xff).toString(16).padStart(2, '0')}${(check >> 8).toString(16).padStart(2, '0')}`.replace(/\s/g, ''),
    )
  })

  it('doubles DLE inside the APDU and undoes it', () => {
    const message = hex('06 01 07 04 000000001010')
    const frame = frameApdu(message)
    expect(toHex(frame)).toContain('0000000010101010')
    expect(unframe(frame)).toEqual({ ok: true, value: message })
  })

  it('reports a frame with a wrong CRC so it is answered NAK, and reads lone ACK and NAK', () => {
    const frame = frameApdu(hex('060f00'))
    frame[frame.length - 1]! ^= 0xff
    const reader = new SerialFrameReader()
    const events = reader.push(Uint8Array.from([ACK, ...frame, NAK, ...frameApdu(hex('800000'))]))
    expect(events.map((event) => event.kind)).toEqual(['ack', 'badFrame', 'nak', 'apdu'])
  })
})

// ---- generated ---------------------------------------------------------------------------------

const fixedTags = [...BMP_LENGTHS].filter(([tag, rule]) => typeof rule === 'number' && tag !== 0x06) as [number, number][]
const varTags = [...BMP_LENGTHS].filter(([, rule]) => rule === 'LL' || rule === 'LLL') as [number, 'LL' | 'LLL'][]

const tlvNode: fc.Arbitrary<TlvNode> = fc.letrec<{ node: TlvNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .record({ tag: fc.constantFrom(0x07, 0x12, 0x1f10, 0x1f11, 0x1f12, 0x41, 0x1f4c), value: fc.uint8Array({ maxLength: 300 }) })
      .map(({ tag, value }) => ({ tag, value })),
    fc
      .record({ tag: fc.constantFrom(0x26, 0x25, 0x24, 0x2f, 0x60), children: fc.array(tie('node'), { maxLength: 3 }) })
      .map(({ tag, children }) => ({ tag, value: encodeTlvList(children), children })),
  ),
})).node

const bmpField: fc.Arbitrary<Bmp> = fc.oneof(
  fc
    .constantFrom(...fixedTags)
    .chain(([tag, length]) => fc.uint8Array({ minLength: length, maxLength: length }).map((value) => ({ bmp: tag, value }))),
  fc
    .constantFrom(...varTags)
    .chain(([tag, rule]) => fc.uint8Array({ maxLength: rule === 'LL' ? 99 : 400 }).map((value) => ({ bmp: tag, value }))),
  fc.array(tlvNode, { maxLength: 4 }).map((nodes) => ({ bmp: 0x06, value: encodeTlvList(nodes), tlv: nodes })),
)

describe('generated messages', () => {
  it('encode→decode gives back every APDU, of any length up to 64 KiB', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.uint8Array({ maxLength: 70_000 }),
        (cls, ins, data) => {
          const sized = data.subarray(0, 0xffff)
          const decodedApdu = decodeApdu(encodeApdu(apdu(cls, ins, sized)))
          expect(decodedApdu.ok && toHex(decodedApdu.value.data)).toBe(toHex(sized))
        },
      ),
      { numRuns: 60 },
    )
  })

  it('encode→decode gives back every BMP sequence, TLV containers included', () => {
    fc.assert(
      fc.property(fc.array(bmpField, { maxLength: 8 }), (fields) => {
        const bytes = encodeBmps(fields)
        const back = decodeBmps(bytes)
        expect(back.ok).toBe(true)
        if (back.ok) expect(toHex(encodeBmps(back.value))).toBe(toHex(bytes))
      }),
      { numRuns: 300 },
    )
  })

  it('a serial frame of any APDU unframes to it, through the line reader split anywhere', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 3, maxLength: 600 }), fc.integer({ min: 1, max: 50 }), (bytes, split) => {
        const frame = frameApdu(bytes)
        const reader = new SerialFrameReader()
        const events = [...reader.push(frame.subarray(0, split)), ...reader.push(frame.subarray(split))]
        expect(events).toEqual([{ kind: 'apdu', apdu: bytes }])
      }),
      { numRuns: 300 },
    )
  })

  it('no bytes make a parser throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        decodeApdu(bytes)
        decodeBmps(bytes)
        decodeTlvList(bytes)
        unframe(bytes)
        new SerialFrameReader().push(bytes)
        new ApduReader().push(bytes)
        for (const cls of [0x04, 0x05, 0x06, 0x80, 0x84])
          for (const ins of [0x00, 0x01, 0x0f, 0x1e, 0xff, 0x30, 0x50]) decodeBody(apdu(cls, ins, bytes))
      }),
      { numRuns: 2000 },
    )
  })

  it('a decoded body re-encodes to the same bytes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0x0600, 0x0601, 0x0630, 0x040f, 0x061e, 0x0501),
        fc.array(bmpField, { maxLength: 5 }),
        (control, fields) => {
          const prefix =
            control === 0x0600
              ? hex('000000 0a 0978')
              : control === 0x0630 || control === 0x0501
                ? hex('123456')
                : control === 0x061e
                  ? hex('6c')
                  : new Uint8Array(0)
          const data = encodeBody({ prefix, fields })
          const body = decodeBody(apdu(control >> 8, control & 0xff, data))
          expect(body.ok).toBe(true)
          if (body.ok) expect(toHex(encodeBody(body.value))).toBe(toHex(data))
        },
      ),
      { numRuns: 300 },
    )
  })
})
