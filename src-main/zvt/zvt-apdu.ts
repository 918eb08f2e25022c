/**
 * The ZVT APDU (PA00P015 §2.1; PA00P016 for TCP): a control field (class byte, instruction byte), a
 * length, the data. The length is one byte `00`–`FE`, or `FF` followed by two bytes **low byte
 * first** (`04 0F FF 00 01` announces 256 bytes): the byte order the terminals, Wireshark's dissector
 * (`tvb_get_letohs`) and the ECR libraries that talk to real terminals use. A big-endian reading works
 * for every message under 255 bytes and breaks the first long receipt or TLV-heavy status.
 * Over TCP APDUs follow each other with no other framing: `apduLength` says where one ends.
 */
import { decoded, failed, type Decoded } from './zvt-decode-error'

export interface Apdu {
  /** CCRC / class byte (`06` commands, `04` status, `80` positive and `84` negative acknowledgements). */
  cls: number
  /** APRC / instruction byte. */
  ins: number
  data: Uint8Array
  /** The length was sent as `FF lo hi` though it fits one byte (allowed; some terminals do). */
  longLength?: true
}

/** The most data one APDU carries (two length bytes). */
export const APDU_MAX_DATA = 0xffff

/** The 16-bit control field, e.g. 0x0601 for Authorization. */
export const controlOf = (apdu: Pick<Apdu, 'cls' | 'ins'>): number => (apdu.cls << 8) | apdu.ins

export function apdu(cls: number, ins: number, data: Uint8Array | readonly number[] = []): Apdu {
  return { cls, ins, data: data instanceof Uint8Array ? data : Uint8Array.from(data) }
}

export function encodeApdu(message: Apdu): Uint8Array {
  const length = message.data.length
  if (length > APDU_MAX_DATA) throw new RangeError(`an APDU carries at most ${APDU_MAX_DATA} bytes, not ${length}`)
  const header =
    length < 0xff && !message.longLength ? [message.cls, message.ins, length] : [message.cls, message.ins, 0xff, length & 0xff, length >> 8]
  const out = new Uint8Array(header.length + length)
  out.set(header, 0)
  out.set(message.data, header.length)
  return out
}

/**
 * The whole APDU's size in bytes once its header is in `buffer` (from `offset`), or undefined while
 * the header is incomplete: what a stream reader needs to cut APDUs out of TCP.
 */
export function apduLength(buffer: Uint8Array, offset = 0): number | undefined {
  const available = buffer.length - offset
  if (available < 3) return undefined
  const short = buffer[offset + 2]!
  if (short !== 0xff) return 3 + short
  if (available < 5) return undefined
  return 5 + (buffer[offset + 3]! | (buffer[offset + 4]! << 8))
}

/** Exactly one APDU in `bytes`: a short or long message is an error, never a guess. */
export function decodeApdu(bytes: Uint8Array): Decoded<Apdu> {
  const total = apduLength(bytes)
  if (total === undefined) return failed({ kind: 'truncated', what: 'APDU header', need: bytes[2] === 0xff ? 5 : 3, have: bytes.length })
  if (bytes.length < total) return failed({ kind: 'truncated', what: 'APDU data', need: total, have: bytes.length })
  if (bytes.length > total)
    return failed({ kind: 'malformed', what: 'APDU', detail: `${bytes.length - total} bytes after its announced end` })
  const long = bytes[2] === 0xff
  const data = bytes.slice(long ? 5 : 3, total)
  // A sender may use the long form for a short length; kept so the message re-encodes byte for byte.
  return decoded({ cls: bytes[0]!, ins: bytes[1]!, data, ...(long && data.length < 0xff ? { longLength: true as const } : {}) })
}

/**
 * Cuts APDUs out of a byte stream as they arrive (TCP delivers them split or joined). Its buffer
 * never holds more than one APDU plus what came after it.
 */
export class ApduReader {
  private buffer: Uint8Array = new Uint8Array(0)

  /** The complete APDUs now available, in order; a partial one waits for more bytes. */
  push(chunk: Uint8Array): Apdu[] {
    this.buffer = this.buffer.length === 0 ? chunk.slice() : concat(this.buffer, chunk)
    const out: Apdu[] = []
    for (;;) {
      const total = apduLength(this.buffer)
      if (total === undefined || this.buffer.length < total) break
      const one = decodeApdu(this.buffer.subarray(0, total))
      // Cannot fail: exactly `total` bytes with a header that announced them.
      if (one.ok) out.push(one.value)
      this.buffer = this.buffer.slice(total)
    }
    return out
  }

  /** Bytes of an APDU not yet complete (a register that stops mid-message). */
  get pending(): number {
    return this.buffer.length
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
