/**
 * NEO 2 "Protocol 2" frames (docs/card-reader.md §1.2; docs/neo2-protocol.md §0.1, §1, §11):
 *
 *   bytes 0-9   "ViVOtech2\0"  header tag + protocol version
 *   byte  10    command
 *   byte  11    sub-command (command frame) | status (response frame)
 *   bytes 12-13 data length, MSB first
 *   bytes 14..  data
 *   last 2      CRC-16/CCITT-FALSE over bytes 0..13+n
 *
 * CRC byte order differs by direction: command frames LSB first, response frames MSB first
 * (IDG §3.4; every printed example agrees, e.g. ping `… B3 CD` / `… FA 83`, docs/neo2-protocol.md §11).
 * Per-command tables in the IDG print the opposite order; docs/device-protocol.md §1 records why we
 * trust §3.4. Pass-Through (2C-xx) frames are big-endian both ways and are out of scope (§0.1).
 */
import { crc16 } from './crc16'

/** "ViVOtech2\0" (docs/card-reader.md §1.2). */
export const NEO2_HEADER: Buffer = Buffer.from('ViVOtech2\0', 'latin1')
export const NEO2_HEADER_LENGTH = 10
/** Header + command + sub-command/status + 2 length bytes. */
export const NEO2_PREFIX_LENGTH = 14
/** Prefix + 2 CRC bytes: a frame with no data is 16 bytes long. */
export const NEO2_FRAME_OVERHEAD = 16
/** The length field is 2 bytes (docs/card-reader.md §1.2). */
export const NEO2_MAX_DATA_LENGTH = 0xffff

export const CRC_BYTE_ORDERS = ['msbFirst', 'lsbFirst'] as const
export type CrcByteOrder = (typeof CRC_BYTE_ORDERS)[number]

export const FRAME_KINDS = ['command', 'response'] as const
export type Neo2FrameKind = (typeof FRAME_KINDS)[number]

export interface Neo2CommandFrame {
  kind: 'command'
  command: number
  subCommand: number
  data: Buffer
}

export interface Neo2ResponseFrame {
  kind: 'response'
  command: number
  /** Protocol-2 status byte (docs/neo2-protocol.md §9.1); see `neo2-status.ts`. */
  status: number
  data: Buffer
}

export type Neo2Frame = Neo2CommandFrame | Neo2ResponseFrame

/** A frame accepted from the wire, with the CRC byte order that matched (see `decodeNeo2Frame`). */
export type Neo2ReceivedFrame = Neo2Frame & { crcByteOrder: CrcByteOrder }

export const NEO2_FRAME_ERROR_CODES = ['badHeader', 'truncated', 'lengthMismatch', 'badCrc', 'tooLarge', 'badField'] as const
export type Neo2FrameErrorCode = (typeof NEO2_FRAME_ERROR_CODES)[number]

export class Neo2FrameError extends Error {
  override readonly name = 'Neo2FrameError'
  constructor(
    readonly code: Neo2FrameErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** The byte order the protocol prescribes for a frame travelling in this direction (IDG §3.4). */
export function crcByteOrderFor(kind: Neo2FrameKind): CrcByteOrder {
  return kind === 'command' ? 'lsbFirst' : 'msbFirst'
}

/** Reads the 2 CRC bytes at `offset` in the given order. */
export function readCrc(bytes: Uint8Array, offset: number, order: CrcByteOrder): number {
  const first = bytes[offset] ?? 0
  const second = bytes[offset + 1] ?? 0
  return order === 'msbFirst' ? (first << 8) | second : (second << 8) | first
}

function checkByte(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xff) {
    throw new Neo2FrameError('badField', `${name} must be a byte (0-255), got ${value}`)
  }
}

/** Builds the wire bytes of a command frame (to the reader) or a response frame (from a simulated reader). */
export function encodeNeo2Frame(frame: Neo2Frame): Buffer {
  const code = frame.kind === 'command' ? frame.subCommand : frame.status
  checkByte('command', frame.command)
  checkByte(frame.kind === 'command' ? 'sub-command' : 'status', code)
  if (frame.data.length > NEO2_MAX_DATA_LENGTH) {
    throw new Neo2FrameError('tooLarge', `data is ${frame.data.length} bytes; the length field holds at most ${NEO2_MAX_DATA_LENGTH}`)
  }
  const out = Buffer.allocUnsafe(NEO2_FRAME_OVERHEAD + frame.data.length)
  NEO2_HEADER.copy(out, 0)
  out[10] = frame.command
  out[11] = code
  out.writeUInt16BE(frame.data.length, 12)
  out.set(frame.data, NEO2_PREFIX_LENGTH)
  const crcAt = NEO2_PREFIX_LENGTH + frame.data.length
  const crc = crc16(out, 0, crcAt)
  if (crcByteOrderFor(frame.kind) === 'msbFirst') out.writeUInt16BE(crc, crcAt)
  else out.writeUInt16LE(crc, crcAt)
  return out
}

export interface DecodeOptions {
  /**
   * Also accept the CRC in the other byte order. docs/neo2-protocol.md §8 and §13: reader-initiated
   * frames (61-xx) are ambiguous in the IDG tables, so the host side accepts both and reports which
   * one matched. Default false: strict.
   */
  acceptSwappedCrc?: boolean
}

/** Builds the typed frame from validated parts; `data` is copied so it never aliases a receive buffer. */
export function neo2FrameFrom(
  kind: Neo2FrameKind,
  command: number,
  code: number,
  data: Uint8Array,
  crcByteOrder: CrcByteOrder,
): Neo2ReceivedFrame {
  const copy = Buffer.from(data)
  return kind === 'command'
    ? { kind, command, subCommand: code, data: copy, crcByteOrder }
    : { kind, command, status: code, data: copy, crcByteOrder }
}

/**
 * Matches the CRC stored at `crcAt` against the computed one: the prescribed order first, then
 * (if allowed) the swapped order. Returns the order that matched, or undefined.
 */
export function matchCrc(
  bytes: Uint8Array,
  start: number,
  crcAt: number,
  kind: Neo2FrameKind,
  acceptSwapped: boolean,
): CrcByteOrder | undefined {
  const computed = crc16(bytes, start, crcAt)
  const expected = crcByteOrderFor(kind)
  if (readCrc(bytes, crcAt, expected) === computed) return expected
  const swapped: CrcByteOrder = expected === 'msbFirst' ? 'lsbFirst' : 'msbFirst'
  if (acceptSwapped && readCrc(bytes, crcAt, swapped) === computed) return swapped
  return undefined
}

/** Decodes exactly one complete frame; throws `Neo2FrameError` on any defect. */
export function decodeNeo2Frame(bytes: Uint8Array, kind: Neo2FrameKind, options: DecodeOptions = {}): Neo2ReceivedFrame {
  if (bytes.length < NEO2_FRAME_OVERHEAD) {
    throw new Neo2FrameError('truncated', `a frame is at least ${NEO2_FRAME_OVERHEAD} bytes, got ${bytes.length}`)
  }
  if (NEO2_HEADER.compare(bytes, 0, NEO2_HEADER_LENGTH) !== 0) {
    throw new Neo2FrameError('badHeader', 'frame does not start with "ViVOtech2\\0"')
  }
  const length = ((bytes[12] ?? 0) << 8) | (bytes[13] ?? 0)
  if (bytes.length !== NEO2_FRAME_OVERHEAD + length) {
    throw new Neo2FrameError(
      'lengthMismatch',
      `length field says ${length} data bytes, frame carries ${bytes.length - NEO2_FRAME_OVERHEAD}`,
    )
  }
  const crcAt = NEO2_PREFIX_LENGTH + length
  const order = matchCrc(bytes, 0, crcAt, kind, options.acceptSwappedCrc ?? false)
  if (order === undefined) throw new Neo2FrameError('badCrc', 'CRC does not match the frame')
  return neo2FrameFrom(kind, bytes[10] ?? 0, bytes[11] ?? 0, bytes.subarray(NEO2_PREFIX_LENGTH, crcAt), order)
}
