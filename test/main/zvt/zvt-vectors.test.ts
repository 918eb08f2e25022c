/**
 * Messages captured from real terminals and registers by others (test/fixtures/zvt/captured-vectors.json,
 * each citing its repository, file and commit): every one is read by the agent's codecs, down to its
 * BMPs and TLV data objects, and written back byte for byte. Nothing here was produced by this code.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { apdu, controlOf, decodeApdu, encodeApdu } from '../../../src-main/zvt/zvt-apdu'
import { bmp, encodeBmps, findBmp } from '../../../src-main/zvt/zvt-bmp'
import { decodeBody, encodeBody } from '../../../src-main/zvt/zvt-body'
import { describeDecodeError } from '../../../src-main/zvt/zvt-decode-error'
import { findTlv } from '../../../src-main/zvt/zvt-tlv'
import { writeTcpPcap } from './support/pcap-writer'
import { dissect, tsharkPresent } from './support/tshark'

interface Vector {
  name: string
  source: string
  direction: string
  hex: string
}

const { vectors } = JSON.parse(readFileSync(new URL('../../fixtures/zvt/captured-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[]
}
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

/** Vectors whose data is not PA00P015's layout: checked as APDUs only, each for the reason given. */
const APDU_ONLY: Readonly<Record<string, string>> = {
  // The length tests' one data byte (6C) stands for any data, not a BMP.
  'portalum/ApduHelperTest/GetApduInfo_DefaultLengthField_Successful': 'a length test, its data byte is no BMP',
  'portalum/ApduHelperTest/GetApduInfo_ExtendedLengthField1_Successful': 'a length test, its data byte is no BMP',
  // The Completion answering Feig's own 0F A1 request (the vector before it) carries that maker's text.
  'everest/1680761818.768770000_pt_ecr': "a manufacturer's reply to its own command",
}

describe('captured ZVT messages', () => {
  it('come from both public sources, with long messages among them', () => {
    expect(vectors.filter((v) => v.source.includes('EVerest/zvt')).length).toBeGreaterThanOrEqual(20)
    expect(vectors.filter((v) => v.source.includes('Portalum/Portalum.Zvt')).length).toBeGreaterThanOrEqual(20)
    // Receipts over 255 bytes: the long length form, low byte first, from real terminals.
    expect(vectors.filter((v) => v.hex.length / 2 > 300 && v.hex.slice(4, 6) === 'ff').length).toBeGreaterThanOrEqual(4)
  })

  it.each(vectors.map((v) => [v.name, v] as const))('%s decodes and re-encodes byte for byte', (_name, vector) => {
    const bytes = Uint8Array.from(Buffer.from(vector.hex, 'hex'))
    const message = decodeApdu(bytes)
    if (!message.ok) throw new Error(describeDecodeError(message.error))
    expect(toHex(encodeApdu(message.value))).toBe(vector.hex)
    if (APDU_ONLY[vector.name]) return
    const body = decodeBody(message.value)
    if (!body.ok) throw new Error(`${vector.name}: ${describeDecodeError(body.error)}`)
    expect(toHex(encodeBody(body.value))).toBe(toHex(message.value.data))
  })

  it('reads a real approval: 20.40 EUR, Debit Mastercard, terminal 28004869, receipt 0470', () => {
    const vector = vectors.find((v) => v.name.endsWith('Parse_PaymentGood1_Successful'))!
    const message = decodeApdu(Uint8Array.from(Buffer.from(vector.hex, 'hex')))
    if (!message.ok) throw new Error('not an APDU')
    expect(controlOf(message.value)).toBe(0x040f)
    const body = decodeBody(message.value)
    if (!body.ok) throw new Error('no body')
    const field = (tag: number): string => toHex(findBmp(body.value.fields, tag)!.value)
    expect(field(0x27)).toBe('00')
    expect(field(0x04)).toBe('000000002040')
    expect(field(0x29)).toBe('28004869')
    expect(field(0x87)).toBe('0470')
    expect(field(0x49)).toBe('0978')
    expect(Buffer.from(findBmp(body.value.fields, 0x8b)!.value).toString('latin1')).toBe('Debit Mastercard\u0000')
  })

  it('reads the TLV of a real reversal: cardholder authentication (1F10) and card type (1F12)', () => {
    const vector = vectors.find((v) => v.name.endsWith('Parse_ReversalGood1_Successful'))!
    const message = decodeApdu(Uint8Array.from(Buffer.from(vector.hex, 'hex')))
    const body = message.ok ? decodeBody(message.value) : undefined
    if (!body?.ok) throw new Error('no body')
    const container = findBmp(body.value.fields, 0x06)!
    expect(toHex(findTlv(container.tlv, 0x1f10)!.value)).toBe('ff')
    expect(toHex(findTlv(container.tlv, 0x1f12)!.value)).toBe('02')
  })

  it('reads a 1126-byte print text block (06 D3 FF 61 04) as 1121 bytes of TLV', () => {
    const vector = vectors.find((v) => v.name === 'everest/1680728215.585561000_pt_ecr')!
    const message = decodeApdu(Uint8Array.from(Buffer.from(vector.hex, 'hex')))
    expect(message.ok && message.value.data.length).toBe(0x0461)
  })
})

describe('a status information over 300 bytes (the three-byte length)', () => {
  // A real approval (Portalum's Parse_PaymentGood1) with a long additional text (BMP 3C, as terminals
  // send for receipts): the fields are captured, only the text's length is ours.
  const approval = vectors.find((v) => v.name.endsWith('Parse_PaymentGood1_Successful'))!
  const captured = decodeApdu(Uint8Array.from(Buffer.from(approval.hex, 'hex')))
  const body = captured.ok ? decodeBody(captured.value) : undefined
  if (!body?.ok) throw new Error('the captured approval does not decode')
  const text = bmp(0x3c, new TextEncoder().encode('GEN.NR.:611804 '.repeat(16)))
  const long = encodeApdu(apdu(0x04, 0x0f, encodeBmps([...body.value.fields, text])))

  it('is written FF, low byte, high byte, and reads back to the same fields', () => {
    const length = long.length - 5
    expect(length).toBeGreaterThanOrEqual(300)
    expect([...long.subarray(0, 5)]).toEqual([0x04, 0x0f, 0xff, length & 0xff, length >> 8])
    const back = decodeApdu(long)
    const fields = back.ok ? decodeBody(back.value) : undefined
    expect(fields?.ok && toHex(encodeBody(fields.value))).toBe(toHex(long.subarray(5)))
  })

  it("is read by Wireshark's dissector, with every captured message, without a fault", (context) => {
    if (!tsharkPresent()) return context.skip()
    const dir = mkdtempSync(join(tmpdir(), 'pos-agent-zvt-vectors-'))
    try {
      const messages = [
        ...vectors.map((v) => ({
          from: v.direction === 'ecr-pt' ? ('register' as const) : ('terminal' as const),
          bytes: Uint8Array.from(Buffer.from(v.hex, 'hex')),
        })),
        { from: 'terminal' as const, bytes: long },
      ]
      const file = join(dir, 'vectors.pcap')
      writeTcpPcap(file, messages, { register: 40_000, terminal: 20_007 })
      const dissection = dissect(file, 20_007)
      expect([...dissection.problems, ...dissection.registerProblems]).toEqual([])
      const read = dissection.apdus.find((one) => one.control === '0x040f' && one.length === long.length - 5)
      expect(read?.fields['zvt.amount']).toBe('2040')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
