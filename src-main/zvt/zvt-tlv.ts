/**
 * The TLV container (BMP 06, PA00P015 §9): BER-style data objects. A tag is one byte, or more when its
 * low five bits are all set (`1F 10`: each further byte with bit 8 set announces one more); bit 6
 * marks a constructed tag whose value is TLV again. A length is one byte below `80`, or `81 nn`,
 * `82 nn nn` (high byte first, as BER). Most of ZVT's evolution happens in here, so a reader keeps
 * tags it does not know and skips them, and a writer re-encodes them unchanged.
 */
import { decoded, failed, type Decoded } from './zvt-decode-error'

export interface TlvNode {
  /** The tag bytes as one number, e.g. 0x1f10. */
  tag: number
  /** The raw value (for a constructed tag, its children encoded). */
  value: Uint8Array
  /** A constructed tag's children, decoded. */
  children?: TlvNode[]
  /** The number of length bytes the sender used, when more than needed (kept to re-encode byte for byte). */
  lengthBytes?: number
}

/** Tags pos-agent writes and reads (PA00P015 §9; Wireshark's packet-zvt.c names the same). */
export const TLV = {
  textLines: 0x07,
  permittedCommand: 0x0a,
  charsPerLine: 0x12,
  receiptType: 0x1f07,
  printTexts: 0x25,
  permittedCommands: 0x26,
  cardholderAuthentication: 0x1f10,
  onlineFlag: 0x1f11,
  cardType: 0x1f12,
} as const

export const isConstructed = (tag: number): boolean => (firstTagByte(tag) & 0x20) !== 0

function firstTagByte(tag: number): number {
  let first = tag
  while (first > 0xff) first >>>= 8
  return first
}

export function tlv(tag: number, value: Uint8Array | readonly number[] | string | TlvNode[]): TlvNode {
  if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') {
    const children = value
    return { tag, value: encodeTlvList(children), children }
  }
  if (typeof value === 'string') return { tag, value: new TextEncoder().encode(value) }
  return { tag, value: value instanceof Uint8Array ? value : Uint8Array.from(value as readonly number[]) }
}

/** A list of data objects filling `bytes` exactly. */
export function decodeTlvList(bytes: Uint8Array, depth = 0): Decoded<TlvNode[]> {
  if (depth > 8) return failed({ kind: 'malformed', what: 'TLV', detail: 'nested more than 8 deep' })
  const nodes: TlvNode[] = []
  let at = 0
  while (at < bytes.length) {
    const tagStart = at
    let tag = bytes[at++]!
    if ((tag & 0x1f) === 0x1f) {
      let next: number
      do {
        if (at >= bytes.length) return failed({ kind: 'truncated', what: 'TLV tag', need: at + 1, have: bytes.length })
        if (at - tagStart >= 4) return failed({ kind: 'malformed', what: 'TLV tag', detail: 'longer than 4 bytes' })
        next = bytes[at++]!
        tag = tag * 256 + next
      } while (next & 0x80)
    }
    const length = decodeBerLength(bytes, at)
    if (!length.ok) return length
    at += length.value.bytes
    const end = at + length.value.length
    if (end > bytes.length)
      return failed({ kind: 'truncated', what: `TLV ${tag.toString(16)}`, need: length.value.length, have: bytes.length - at })
    const node: TlvNode = { tag, value: bytes.slice(at, end) }
    if (length.value.bytes !== berLengthSize(length.value.length)) node.lengthBytes = length.value.bytes
    if (isConstructed(tag)) {
      const children = decodeTlvList(node.value, depth + 1)
      if (!children.ok) return children
      node.children = children.value
    }
    nodes.push(node)
    at = end
  }
  return decoded(nodes)
}

export function encodeTlvList(nodes: readonly TlvNode[]): Uint8Array {
  const parts: number[] = []
  for (const node of nodes) {
    const value = node.children ? encodeTlvList(node.children) : node.value
    parts.push(...tagBytes(node.tag), ...berLength(value.length, node.lengthBytes), ...value)
  }
  return Uint8Array.from(parts)
}

/** The first node with `tag`, searched depth first. */
export function findTlv(nodes: readonly TlvNode[] | undefined, tag: number): TlvNode | undefined {
  for (const node of nodes ?? []) {
    if (node.tag === tag) return node
    const inner = findTlv(node.children, tag)
    if (inner) return inner
  }
  return undefined
}

export function decodeBerLength(bytes: Uint8Array, at: number): Decoded<{ length: number; bytes: number }> {
  if (at >= bytes.length) return failed({ kind: 'truncated', what: 'TLV length', need: 1, have: 0 })
  const first = bytes[at]!
  if (first < 0x80) return decoded({ length: first, bytes: 1 })
  const count = first & 0x7f
  if (count < 1 || count > 2)
    return failed({ kind: 'badLength', what: 'TLV length', detail: `form ${first.toString(16)} (ZVT uses 81 and 82)` })
  if (at + count >= bytes.length) return failed({ kind: 'truncated', what: 'TLV length', need: count + 1, have: bytes.length - at })
  const length = count === 1 ? bytes[at + 1]! : (bytes[at + 1]! << 8) | bytes[at + 2]!
  return decoded({ length, bytes: 1 + count })
}

export function berLength(length: number, bytes?: number): number[] {
  const size = Math.max(bytes ?? 0, berLengthSize(length))
  if (length > 0xffff) throw new RangeError(`a TLV value of ${length} bytes is longer than ZVT's 82 nn nn allows`)
  if (size === 1) return [length]
  if (size === 2) return [0x81, length]
  return [0x82, length >> 8, length & 0xff]
}

const berLengthSize = (length: number): number => (length < 0x80 ? 1 : length <= 0xff ? 2 : 3)

function tagBytes(tag: number): number[] {
  const out: number[] = []
  let rest = tag
  do {
    out.unshift(rest & 0xff)
    rest = Math.floor(rest / 256)
  } while (rest > 0)
  return out
}
