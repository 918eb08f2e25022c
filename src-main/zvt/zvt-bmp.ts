/**
 * BMPs, the fields of a ZVT message (PA00P015 §12): one tag byte, then a value whose length the tag
 * fixes, or an LL-var / LLL-var value whose length comes first as two or three bytes `Fx` (the decimal
 * digit in the low nibble: `F0 F8` = 8 bytes, `F0 F1 F9` = 19), or BMP 06's TLV container with a BER
 * length. A reader must know every tag's length to step over the ones it does not use, so the table
 * below has every BMP of the specification's list (PA00P015 §12; the same lengths as Wireshark's
 * packet-zvt.c and the ECR libraries); a tag outside it ends the parse with an error, as nothing after
 * it could be read.
 */
import { decodeBerLength, berLength, decodeTlvList, encodeTlvList, type TlvNode } from './zvt-tlv'
import { decoded, failed, type Decoded } from './zvt-decode-error'

type BmpLength = number | 'LL' | 'LLL' | 'TLV'

/** Every BMP's length (PA00P015 §12). */
export const BMP_LENGTHS: ReadonlyMap<number, BmpLength> = new Map<number, BmpLength>([
  [0x01, 1], // timeout
  [0x02, 1], // max. status infos
  [0x03, 1], // service byte
  [0x04, 6], // amount, BCD
  [0x05, 1], // pump number
  [0x06, 'TLV'], // TLV container
  [0x0b, 3], // trace number
  [0x0c, 3], // time HHMMSS
  [0x0d, 2], // date MMDD
  [0x0e, 2], // expiry YYMM
  [0x17, 2], // card sequence number
  [0x19, 1], // payment type / status byte
  [0x22, 'LL'], // PAN, masked with E
  [0x23, 'LL'], // track 2
  [0x24, 'LLL'], // track 3
  [0x27, 1], // result code
  [0x29, 4], // terminal id
  [0x2a, 15], // VU (merchant contract) number, ASCII
  [0x2d, 'LL'], // track 1
  [0x2e, 'LL'], // synchronous chip data
  [0x37, 3], // trace number of the original transaction
  [0x3a, 2], // CVV/CVC
  [0x3b, 8], // AID authorisation attribute
  [0x3c, 'LLL'], // additional data / text
  [0x3d, 3], // password
  [0x49, 2], // currency code
  [0x60, 'LLL'], // individual totals
  [0x70, 4], // display image
  [0x71, 4],
  [0x72, 1],
  [0x73, 1],
  [0x74, 1],
  [0x75, 1],
  [0x87, 2], // receipt number
  [0x88, 3], // turnover record number
  [0x8a, 1], // card type (ZVT)
  [0x8b, 'LL'], // card name
  [0x8c, 1], // card type id of the network operator
  [0x92, 'LLL'], // additional text for ec-cash
  [0x9a, 'LLL'], // Geldkarte records
  [0xa0, 1], // result code AS
  [0xa7, 'LL'], // chip data, EF_ID
  [0xaa, 3], // date YYMMDD
  [0xaf, 'LLL'], // EF_Info
  [0xba, 5], // AID parameter
  [0xd0, 1], // algorithm key
  [0xd1, 'LL'], // card offset / PIN data
  [0xd2, 1], // card output direction
  [0xd3, 1], // DUKPT key id
  [0xe0, 1], // min. input length
  ...[0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8].map((t): [number, BmpLength] => [t, 'LL']), // text 2 lines
  [0xe9, 1],
  [0xea, 1],
  [0xeb, 8],
  [0xf0, 1],
  ...[0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8].map((t): [number, BmpLength] => [t, 'LL']), // text 1 lines
  [0xf9, 1],
  [0xfa, 1],
  [0xfb, 1],
  [0xfc, 1],
  [0xfd, 1],
])

export interface Bmp {
  bmp: number
  /** The value without its length (for BMP 06, the TLV data objects' bytes). */
  value: Uint8Array
  /** BMP 06's data objects, decoded. */
  tlv?: TlvNode[]
  /** BMP 06: the number of length bytes the sender used, when more than needed. */
  lengthBytes?: number
}

export function bmp(tag: number, value: Uint8Array | readonly number[]): Bmp {
  return { bmp: tag, value: value instanceof Uint8Array ? value : Uint8Array.from(value) }
}

export function tlvBmp(nodes: TlvNode[]): Bmp {
  return { bmp: 0x06, value: encodeTlvList(nodes), tlv: nodes }
}

/** A sequence of BMPs filling `bytes` exactly. */
export function decodeBmps(bytes: Uint8Array): Decoded<Bmp[]> {
  const out: Bmp[] = []
  let at = 0
  while (at < bytes.length) {
    const tag = bytes[at++]!
    const rule = BMP_LENGTHS.get(tag)
    if (rule === undefined) return failed({ kind: 'unknownBmp', bmp: tag })
    const what = `BMP ${tag.toString(16).padStart(2, '0')}`
    let length: number
    let lengthBytes = 0
    if (typeof rule === 'number') length = rule
    else if (rule === 'TLV') {
      const ber = decodeBerLength(bytes, at)
      if (!ber.ok) return ber
      length = ber.value.length
      lengthBytes = ber.value.bytes
    } else {
      const digits = rule === 'LL' ? 2 : 3
      const parsed = decodeVarLength(bytes, at, digits, what)
      if (!parsed.ok) return parsed
      length = parsed.value
      lengthBytes = digits
    }
    at += lengthBytes
    if (at + length > bytes.length) return failed({ kind: 'truncated', what, need: length, have: bytes.length - at })
    const field: Bmp = { bmp: tag, value: bytes.slice(at, at + length) }
    if (rule === 'TLV') {
      const nodes = decodeTlvList(field.value)
      if (!nodes.ok) return nodes
      field.tlv = nodes.value
      if (lengthBytes !== berLength(length).length) field.lengthBytes = lengthBytes
    }
    out.push(field)
    at += length
  }
  return decoded(out)
}

export function encodeBmps(fields: readonly Bmp[]): Uint8Array {
  const parts: number[] = []
  for (const field of fields) {
    const rule = BMP_LENGTHS.get(field.bmp)
    if (rule === undefined) throw new RangeError(`BMP ${field.bmp.toString(16)} is not in the table`)
    const value = field.bmp === 0x06 && field.tlv ? encodeTlvList(field.tlv) : field.value
    parts.push(field.bmp)
    if (typeof rule === 'number') {
      if (value.length !== rule) throw new RangeError(`BMP ${field.bmp.toString(16)} is ${rule} bytes, not ${value.length}`)
    } else if (rule === 'TLV') parts.push(...berLength(value.length, field.lengthBytes))
    else parts.push(...encodeVarLength(value.length, rule === 'LL' ? 2 : 3))
    parts.push(...value)
  }
  return Uint8Array.from(parts)
}

/** LL-var / LLL-var: `digits` bytes `F0`–`F9`, the decimal length high digit first. */
export function decodeVarLength(bytes: Uint8Array, at: number, digits: number, what: string): Decoded<number> {
  if (at + digits > bytes.length) return failed({ kind: 'truncated', what: `${what} length`, need: digits, have: bytes.length - at })
  let length = 0
  for (let i = 0; i < digits; i++) {
    const byte = bytes[at + i]!
    if (byte >> 4 !== 0x0f || (byte & 0x0f) > 9)
      return failed({ kind: 'badLength', what, detail: `length byte ${byte.toString(16).padStart(2, '0')} is not F0–F9` })
    length = length * 10 + (byte & 0x0f)
  }
  return decoded(length)
}

export function encodeVarLength(length: number, digits: number): number[] {
  if (length >= 10 ** digits) throw new RangeError(`${length} bytes do not fit a ${digits}-digit length`)
  return [...String(length).padStart(digits, '0')].map((d) => 0xf0 | Number(d))
}

/** The first field with `tag`. */
export const findBmp = (fields: readonly Bmp[], tag: number): Bmp | undefined => fields.find((field) => field.bmp === tag)
