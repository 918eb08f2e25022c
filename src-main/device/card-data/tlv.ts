/**
 * BER-TLV as profiled by EMV Book 3 Annex B (docs/card-reader.md §2.1):
 * - tag: b6 of the first byte = constructed; b5..b1 = 11111 = more tag bytes follow, each later byte
 *   with b8 = 1 has another after it. At most 3 tag bytes (ISO/IEC 7816-4; EMV and ID TECH tags such
 *   as 9F26, DF8101, DFEE12, FFEE1F all fit).
 * - length: 00-7F short form, 81 xx, 82 xx xx; 80 (indefinite) and 83+ are rejected (EMV limits the
 *   length field to 3 bytes).
 * - padding: '00' (and, unless told otherwise, 'FF') bytes before, between or after objects are skipped
 *   (ISO/IEC 7816-4 Annex D). ID TECH reader output uses private-class tags that START with FF
 *   (FFEE01, FFEE1F, FF8105, docs/neo2-protocol.md §3), so reader output must be decoded with
 *   `padding: 'zeroOnly'` (docs/device-protocol.md §3).
 * Constructed values are decoded recursively. Every defect is a `TlvError` with a code and offset.
 */

export const TLV_ERROR_CODES = [
  'truncatedTag',
  'tagTooLong',
  'truncatedLength',
  'indefiniteLength',
  'lengthTooLong',
  'truncatedValue',
  'tooDeep',
  'badTag',
  'valueTooLong',
] as const
export type TlvErrorCode = (typeof TLV_ERROR_CODES)[number]

export class TlvError extends Error {
  override readonly name = 'TlvError'
  constructor(
    readonly code: TlvErrorCode,
    message: string,
    /** Byte offset in the outermost input where decoding failed (decode errors only). */
    readonly offset?: number,
  ) {
    super(offset === undefined ? message : `${message} at offset ${offset}`)
  }
}

export interface Tlv {
  /** Upper-case hex, e.g. "9F26". */
  tag: string
  /** The value bytes as received, a view into the decoded input (for a constructed object: its encoded children). */
  value: Buffer
  /** Present exactly when the tag is constructed. */
  children?: Tlv[]
}

export interface TlvInput {
  tag: string
  /** Primitive value, or the pre-encoded content of a constructed object when `children` is absent. */
  value?: Uint8Array
  children?: readonly TlvInput[]
}

export const TLV_PADDINGS = ['zeroAndFf', 'zeroOnly'] as const
export type TlvPadding = (typeof TLV_PADDINGS)[number]

export interface TlvDecodeOptions {
  /** Default 'zeroAndFf' (card records); use 'zeroOnly' for ID TECH reader output. */
  padding?: TlvPadding
  /** Nesting limit, so hostile input cannot exhaust the stack. Default 8. */
  maxDepth?: number
  /**
   * Tags that are constructed by their first byte but carry raw bytes, read as primitive. ID TECH's
   * FFEE1F error record (error code, SW1, SW2, RF state) is one: decoded as a template it fails on
   * most SW values (docs/device-protocol.md D3.9).
   */
  opaqueTags?: readonly string[]
}

const MAX_TAG_BYTES = 3
const MAX_LENGTH = 0xffff

export function decodeTlv(bytes: Uint8Array, options: TlvDecodeOptions = {}): Tlv[] {
  const skipFf = (options.padding ?? 'zeroAndFf') === 'zeroAndFf'
  const opaque = new Set((options.opaqueTags ?? []).map((tag) => tag.toUpperCase()))
  return decodeLevel(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, { skipFf, opaque }, options.maxDepth ?? 8, 0)
}

interface LevelOptions {
  skipFf: boolean
  opaque: ReadonlySet<string>
}

function decodeLevel(buf: Buffer, base: number, level: LevelOptions, depthLeft: number, depth: number): Tlv[] {
  const { skipFf } = level
  const out: Tlv[] = []
  let i = 0
  while (i < buf.length) {
    const first = buf[i] as number
    if (first === 0x00 || (skipFf && first === 0xff)) {
      i++
      continue
    }
    const tagStart = i++
    if ((first & 0x1f) === 0x1f) {
      for (;;) {
        if (i >= buf.length) throw new TlvError('truncatedTag', 'tag ends before its last byte', base + tagStart)
        const next = buf[i++] as number
        if (i - tagStart > MAX_TAG_BYTES) throw new TlvError('tagTooLong', `tag longer than ${MAX_TAG_BYTES} bytes`, base + tagStart)
        if ((next & 0x80) === 0) break
      }
    }
    const tag = buf.toString('hex', tagStart, i).toUpperCase()
    if (i >= buf.length) throw new TlvError('truncatedLength', `no length after tag ${tag}`, base + i)
    const lengthByte = buf[i++] as number
    let length = lengthByte
    if (lengthByte === 0x80) throw new TlvError('indefiniteLength', `indefinite length for tag ${tag}`, base + i - 1)
    if (lengthByte > 0x82)
      throw new TlvError(
        'lengthTooLong',
        `length form ${lengthByte.toString(16).toUpperCase()} for tag ${tag}: EMV allows 81 and 82 only`,
        base + i - 1,
      )
    if (lengthByte > 0x80) {
      const count = lengthByte - 0x80
      if (i + count > buf.length) throw new TlvError('truncatedLength', `length of tag ${tag} ends early`, base + i)
      length = count === 1 ? (buf[i] as number) : buf.readUInt16BE(i)
      i += count
    }
    if (i + length > buf.length)
      throw new TlvError('truncatedValue', `tag ${tag} needs ${length} value bytes, ${buf.length - i} left`, base + i)
    const value = buf.subarray(i, i + length)
    const tlv: Tlv = { tag, value }
    if ((first & 0x20) !== 0 && !level.opaque.has(tag)) {
      if (depthLeft <= 0) throw new TlvError('tooDeep', `templates nested deeper than ${depth}`, base + tagStart)
      tlv.children = decodeLevel(value, base + i, level, depthLeft - 1, depth + 1)
    }
    out.push(tlv)
    i += length
  }
  return out
}

/** Checks a tag's hex spelling and BER structure; returns its bytes. */
export function tagBytes(tag: string): Buffer {
  if (!/^([0-9A-Fa-f]{2}){1,3}$/.test(tag)) throw new TlvError('badTag', `tag "${tag}" is not 1-${MAX_TAG_BYTES} hex bytes`)
  const bytes = Buffer.from(tag, 'hex')
  const multi = ((bytes[0] as number) & 0x1f) === 0x1f
  const wellFormed = multi
    ? bytes.length > 1 && bytes.subarray(1).every((b, k, rest) => (k === rest.length - 1 ? (b & 0x80) === 0 : (b & 0x80) !== 0))
    : bytes.length === 1
  if (!wellFormed) throw new TlvError('badTag', `tag "${tag}" is not a well-formed BER tag`)
  // A first byte 00 would be read back as padding (ISO/IEC 7816-4 Annex D).
  if (bytes[0] === 0x00) throw new TlvError('badTag', `tag "${tag}" starts with 00, which decoders skip as padding`)
  return bytes
}

function lengthBytes(length: number, tag: string): Buffer {
  if (length > MAX_LENGTH) throw new TlvError('valueTooLong', `value of tag ${tag} is ${length} bytes; EMV lengths stop at ${MAX_LENGTH}`)
  if (length < 0x80) return Buffer.from([length])
  if (length <= 0xff) return Buffer.from([0x81, length])
  return Buffer.from([0x82, length >> 8, length & 0xff])
}

/** Encodes objects in the given order, minimal lengths, no padding (docs/card-reader.md §2.1: emit none). */
export function encodeTlv(items: readonly TlvInput[]): Buffer {
  const parts: Buffer[] = []
  for (const item of items) {
    const tag = tagBytes(item.tag)
    const constructed = ((tag[0] as number) & 0x20) !== 0
    if (item.children && !constructed) throw new TlvError('badTag', `tag ${item.tag} is primitive but has children`)
    const value = item.children ? encodeTlv(item.children) : Buffer.from(item.value ?? new Uint8Array(0))
    parts.push(tag, lengthBytes(value.length, item.tag), value)
  }
  return Buffer.concat(parts)
}

/** Every object, depth-first, templates before their children. */
export function* walkTlv(tlvs: readonly Tlv[]): Generator<Tlv> {
  for (const tlv of tlvs) {
    yield tlv
    if (tlv.children) yield* walkTlv(tlv.children)
  }
}

/** First object with this tag anywhere in the tree (case-insensitive tag). */
export function findTlv(tlvs: readonly Tlv[], tag: string): Tlv | undefined {
  const wanted = tag.toUpperCase()
  for (const tlv of walkTlv(tlvs)) if (tlv.tag === wanted) return tlv
  return undefined
}
