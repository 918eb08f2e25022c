/**
 * ZVT's serial transport (PA00P016): an APDU travels as `DLE STX`, the APDU with every `DLE` (10)
 * doubled, `DLE ETX`, then a CRC-16 of the APDU (undoubled) and the `ETX`, **low byte first** (the
 * reflected CCITT polynomial 0x8408 from 0, as Wireshark's dissector and the ECR libraries read it).
 * The receiver answers one byte: `ACK` (06) for a good frame, `NAK` (15) for a bad one, and the
 * sender repeats after a NAK. Pure: bytes in, frames and answers out; the port is the transport's.
 */
import { decoded, failed, type Decoded } from './zvt-decode-error'

export const DLE = 0x10
export const STX = 0x02
export const ETX = 0x03
export const ACK = 0x06
export const NAK = 0x15

/** The longest frame the reader holds before it gives up on a start it never saw the end of (a 64 KiB APDU, each byte doubled). */
const MAX_FRAME_BYTES = 2 * (0xffff + 5) + 8

const CRC_TABLE = (() => {
  const table = new Uint16Array(256)
  for (let i = 0; i < 256; i++) {
    let crc = i
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1
    table[i] = crc
  }
  return table
})()

/** The frame check: CRC-16 (reflected 0x8408, initial 0) over the APDU and the ETX that ends it. */
export function zvtCrc(apdu: Uint8Array): number {
  let crc = 0
  const step = (byte: number): void => {
    crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ byte) & 0xff]!
  }
  for (const byte of apdu) step(byte)
  step(ETX)
  return crc
}

export function frameApdu(apdu: Uint8Array): Uint8Array {
  const out: number[] = [DLE, STX]
  for (const byte of apdu) {
    out.push(byte)
    if (byte === DLE) out.push(DLE)
  }
  const crc = zvtCrc(apdu)
  out.push(DLE, ETX, crc & 0xff, crc >> 8)
  return Uint8Array.from(out)
}

/** What the line carried: a frame's APDU, a frame that failed its check (answer NAK), or the other side's ACK or NAK. */
export type SerialEvent = { kind: 'apdu'; apdu: Uint8Array } | { kind: 'badFrame'; reason: string } | { kind: 'ack' } | { kind: 'nak' }

/** One complete frame (DLE STX … DLE ETX crc crc) back to its APDU. */
export function unframe(frame: Uint8Array): Decoded<Uint8Array> {
  if (frame.length < 6 || frame[0] !== DLE || frame[1] !== STX)
    return failed({ kind: 'malformed', what: 'serial frame', detail: 'no DLE STX' })
  const apdu: number[] = []
  let at = 2
  for (;;) {
    if (at >= frame.length) return failed({ kind: 'truncated', what: 'serial frame', need: at + 1, have: frame.length })
    const byte = frame[at]!
    if (byte !== DLE) {
      apdu.push(byte)
      at++
      continue
    }
    const next = frame[at + 1]
    if (next === DLE) {
      apdu.push(DLE)
      at += 2
    } else if (next === ETX) break
    else return failed({ kind: 'malformed', what: 'serial frame', detail: 'a DLE neither doubled nor before ETX' })
  }
  at += 2
  if (frame.length !== at + 2) return failed({ kind: 'truncated', what: 'serial frame CRC', need: 2, have: frame.length - at })
  const data = Uint8Array.from(apdu)
  const crc = frame[at]! | (frame[at + 1]! << 8)
  if (crc !== zvtCrc(data)) return failed({ kind: 'malformed', what: 'serial frame', detail: 'CRC does not match' })
  return decoded(data)
}

/**
 * Reads the serial line byte by byte: between frames a lone `ACK` or `NAK` is the other side's answer;
 * `DLE STX` opens a frame that ends two bytes after its `DLE ETX`. Noise between frames is dropped.
 */
export class SerialFrameReader {
  private frame: number[] | undefined
  /** Inside a frame: the byte before was an undoubled DLE. */
  private escaped = false
  /** Bytes of CRC still to read after DLE ETX. */
  private crcLeft = 0
  private sawDle = false

  push(chunk: Uint8Array): SerialEvent[] {
    const events: SerialEvent[] = []
    for (const byte of chunk) {
      const event = this.byte(byte)
      if (event) events.push(event)
    }
    return events
  }

  private byte(byte: number): SerialEvent | undefined {
    const frame = this.frame
    if (frame === undefined) {
      if (this.sawDle && byte === STX) {
        this.frame = [DLE, STX]
        this.sawDle = false
        return undefined
      }
      this.sawDle = byte === DLE
      if (byte === ACK) return { kind: 'ack' }
      if (byte === NAK) return { kind: 'nak' }
      return undefined
    }
    frame.push(byte)
    if (this.crcLeft > 0) {
      this.crcLeft--
      if (this.crcLeft > 0) return undefined
      this.frame = undefined
      const apdu = unframe(Uint8Array.from(frame))
      return apdu.ok
        ? { kind: 'apdu', apdu: apdu.value }
        : { kind: 'badFrame', reason: apdu.error.kind === 'malformed' ? apdu.error.detail : apdu.error.kind }
    }
    if (this.escaped) {
      this.escaped = false
      if (byte === ETX) this.crcLeft = 2
      else if (byte !== DLE) {
        this.frame = undefined
        return { kind: 'badFrame', reason: 'a DLE neither doubled nor before ETX' }
      }
      return undefined
    }
    if (byte === DLE) this.escaped = true
    if (frame.length > MAX_FRAME_BYTES) {
      this.frame = undefined
      return { kind: 'badFrame', reason: 'longer than any APDU' }
    }
    return undefined
  }
}
