/**
 * Receive side of NEO 2 Protocol-2 framing: a Transform from raw serial bytes to one
 * `Neo2ReceivedFrame` object per valid frame (docs/card-reader.md §1.4; docs/neo2-protocol.md §10, §13).
 * - Hunts for "ViVOtech2\0"; other bytes (boot strings, burst frames, line noise) are `noise`
 *   (docs/neo2-protocol.md §8: burst mode stays off).
 * - A candidate with a length above `maxDataLength` or a bad CRC is reported, then only its FIRST
 *   byte is dropped and the hunt resumes inside it: a valid frame behind a truncated or corrupted one
 *   is never lost.
 * - After `interByteTimeoutMs` of silence a half frame is reported as `timeout` and abandoned the same
 *   way; the reader never times out a partial frame itself (IDG p.40 §2.7.3), so the host must.
 * - Bad frames are `badFrame` events, never exceptions, and carry no raw bytes: a frame may hold card
 *   data (docs/card-reader.md §1.4 "Logging"). One reusable buffer: amortised O(n), no concat per chunk.
 */
import { Transform } from 'node:stream'
import type { TransformCallback } from 'node:stream'
import {
  matchCrc,
  NEO2_FRAME_OVERHEAD,
  NEO2_HEADER,
  NEO2_HEADER_LENGTH,
  NEO2_MAX_DATA_LENGTH,
  NEO2_PREFIX_LENGTH,
  Neo2FrameError,
  neo2FrameFrom,
} from './neo2-frame'
import type { Neo2FrameKind } from './neo2-frame'

export const BAD_FRAME_REASONS = ['noise', 'badCrc', 'tooLarge', 'timeout'] as const
export type BadFrameReason = (typeof BAD_FRAME_REASONS)[number]

export interface Neo2BadFrame {
  reason: BadFrameReason
  /** Bytes concerned: skipped noise, or the candidate frame (as far as received). */
  length: number
  /** Byte 10 and byte 11 of the candidate, when received: lets the driver tie a bad CRC to its request. */
  command?: number
  code?: number
}

/** Timer port, injectable so tests drive the inter-byte timeout without real time. */
export interface FramerTimers {
  set(callback: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export const systemTimers: FramerTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export interface Neo2FramerOptions {
  /** What arrives: 'response' on the agent (default), 'command' in a simulated reader. */
  reads?: Neo2FrameKind
  /** Accept the other CRC byte order too (docs/neo2-protocol.md §13). Default: true for responses, false for commands. */
  acceptSwappedCrc?: boolean
  /** Largest data field accepted; docs/neo2-protocol.md §13: 1500 (the USB-HID limit, IDG p.40). */
  maxDataLength?: number
  /** Silence after which a half frame is abandoned; docs/card-reader.md §1.4 suggests 100-500 ms. 0 disables. */
  interByteTimeoutMs?: number
  timers?: FramerTimers
}

export const DEFAULT_MAX_DATA_LENGTH = 1500
export const DEFAULT_INTER_BYTE_TIMEOUT_MS = 500

export class Neo2Framer extends Transform {
  private readonly reads: Neo2FrameKind
  private readonly acceptSwappedCrc: boolean
  private readonly maxDataLength: number
  private readonly timeoutMs: number
  private readonly timers: FramerTimers
  private buf: Buffer
  private head = 0
  private tail = 0
  private timer: unknown = undefined

  constructor(options: Neo2FramerOptions = {}) {
    super({ readableObjectMode: true })
    this.reads = options.reads ?? 'response'
    this.acceptSwappedCrc = options.acceptSwappedCrc ?? this.reads === 'response'
    this.maxDataLength = options.maxDataLength ?? DEFAULT_MAX_DATA_LENGTH
    this.timeoutMs = options.interByteTimeoutMs ?? DEFAULT_INTER_BYTE_TIMEOUT_MS
    this.timers = options.timers ?? systemTimers
    if (!Number.isInteger(this.maxDataLength) || this.maxDataLength < 0 || this.maxDataLength > NEO2_MAX_DATA_LENGTH) {
      throw new Neo2FrameError('badField', `maxDataLength must be 0-${NEO2_MAX_DATA_LENGTH}, got ${this.maxDataLength}`)
    }
    this.buf = Buffer.allocUnsafe(2 * (NEO2_FRAME_OVERHEAD + this.maxDataLength))
  }

  onBadFrame(listener: (bad: Neo2BadFrame) => void): this {
    return this.on('badFrame', listener)
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    // Slices of at most one maximal frame keep the buffer bounded whatever the chunk size.
    const slice = NEO2_FRAME_OVERHEAD + this.maxDataLength
    for (let offset = 0; offset < chunk.length; offset += slice) {
      this.append(chunk.subarray(offset, Math.min(chunk.length, offset + slice)))
      this.parse()
    }
    this.armTimer()
    callback()
  }

  override _flush(callback: TransformCallback): void {
    this.stopTimer()
    this.expire()
    callback()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.stopTimer()
    callback(error)
  }

  private append(bytes: Buffer): void {
    if (this.tail + bytes.length > this.buf.length) {
      const pending = this.tail - this.head
      const target = pending + bytes.length > this.buf.length ? Buffer.allocUnsafe(2 * (pending + bytes.length)) : this.buf
      this.buf.copy(target, 0, this.head, this.tail)
      this.buf = target
      this.head = 0
      this.tail = pending
    }
    bytes.copy(this.buf, this.tail)
    this.tail += bytes.length
  }

  /** Consumes every complete frame and all noise; stops at a half frame or a possible header start. */
  private parse(): void {
    // Reads `this.buf` afresh each time: a 'data' listener may write to this stream re-entrantly.
    while (this.head < this.tail) {
      const found = this.buf.subarray(this.head, this.tail).indexOf(NEO2_HEADER)
      if (found < 0) {
        const keep = this.headerPrefixAtEnd()
        this.skipNoise(this.tail - keep - this.head)
        break
      }
      this.skipNoise(found)
      const start = this.head
      if (this.tail - start < NEO2_PREFIX_LENGTH) break
      const length = this.buf.readUInt16BE(start + 12)
      if (length > this.maxDataLength) {
        this.report('tooLarge', NEO2_FRAME_OVERHEAD + length)
        this.head += 1
        continue
      }
      const total = NEO2_FRAME_OVERHEAD + length
      if (this.tail - start < total) break
      const crcAt = start + NEO2_PREFIX_LENGTH + length
      const order = matchCrc(this.buf, start, crcAt, this.reads, this.acceptSwappedCrc)
      if (order === undefined) {
        this.report('badCrc', total)
        this.head += 1
        continue
      }
      const frame = neo2FrameFrom(
        this.reads,
        this.buf[start + 10] ?? 0,
        this.buf[start + 11] ?? 0,
        this.buf.subarray(start + NEO2_PREFIX_LENGTH, crcAt),
        order,
      )
      this.head += total
      this.push(frame)
    }
    if (this.head === this.tail) this.head = this.tail = 0
  }

  /** Length of the longest tail of the pending bytes that could still grow into a header. */
  private headerPrefixAtEnd(): number {
    const pending = this.tail - this.head
    for (let k = Math.min(NEO2_HEADER_LENGTH - 1, pending); k > 0; k--) {
      if (this.buf.compare(NEO2_HEADER, 0, k, this.tail - k, this.tail) === 0) return k
    }
    return 0
  }

  private skipNoise(count: number): void {
    if (count <= 0) return
    this.emit('badFrame', { reason: 'noise', length: count } satisfies Neo2BadFrame)
    this.head += count
  }

  private report(reason: BadFrameReason, length: number): void {
    const bad: Neo2BadFrame = { reason, length }
    if (this.tail - this.head > 11) {
      bad.command = this.buf[this.head + 10] ?? 0
      bad.code = this.buf[this.head + 11] ?? 0
    }
    this.emit('badFrame', bad)
  }

  /** Abandons whatever is still pending (after a silence or at end of stream), keeping frames hidden inside it. */
  private expire(): void {
    while (this.head < this.tail) {
      const pending = this.tail - this.head
      if (
        pending >= NEO2_HEADER_LENGTH &&
        this.buf.compare(NEO2_HEADER, 0, NEO2_HEADER_LENGTH, this.head, this.head + NEO2_HEADER_LENGTH) === 0
      ) {
        this.report('timeout', pending)
        this.head += 1
        this.parse()
      } else {
        this.skipNoise(pending)
      }
    }
    this.head = this.tail = 0
  }

  private armTimer(): void {
    this.stopTimer()
    if (this.head === this.tail || this.timeoutMs <= 0) return
    this.timer = this.timers.set(() => {
      this.timer = undefined
      this.expire()
    }, this.timeoutMs)
  }

  private stopTimer(): void {
    if (this.timer === undefined) return
    this.timers.clear(this.timer)
    this.timer = undefined
  }
}
