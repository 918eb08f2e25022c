import { describe, expect, it } from 'vitest'
import { encodeNeo2Frame } from '../../../../src-main/device/neo2/neo2-frame'
import { DEFAULT_MAX_DATA_LENGTH } from '../../../../src-main/device/neo2/neo2-framer'
import { FramerHarness, settle } from './framer-harness'

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex')
const PING_RSP = hex('56 69 56 4F 74 65 63 68 32 00 18 00 00 00 FA 83')
const POLL_RSP = hex('56 69 56 4F 74 65 63 68 32 00 01 00 00 00 12 53')
const NO_CARD = hex('56 69 56 4F 74 65 63 68 32 00 03 00 00 03 00 00 00 8D D0')
const response = (command: number, status: number, data: Buffer): Buffer => encodeNeo2Frame({ kind: 'response', command, status, data })

describe('Neo2Framer: framing', () => {
  it('emits one typed frame per valid response, with data copied out of its buffer', async () => {
    const h = new FramerHarness()
    await h.write(Buffer.concat([PING_RSP, NO_CARD]))
    expect(h.frames).toEqual([
      { kind: 'response', command: 0x18, status: 0, data: Buffer.alloc(0), crcByteOrder: 'msbFirst' },
      { kind: 'response', command: 0x03, status: 0, data: hex('000000'), crcByteOrder: 'msbFirst' },
    ])
    expect(h.bad).toEqual([])
  })

  it('reassembles a frame delivered one byte at a time, without arming a timeout at the end', async () => {
    const h = new FramerHarness()
    for (const byte of NO_CARD) await h.write(Buffer.from([byte]))
    expect(h.frames.map((f) => f.command)).toEqual([0x03])
    expect(h.timers.armedMs).toBeUndefined()
  })

  it('skips garbage and boot text before a frame and reports it as noise', async () => {
    const h = new FramerHarness()
    await h.write(Buffer.from('NEO 2.0 v1.00\r\n', 'latin1'), hex('56 69 56'), PING_RSP)
    expect(h.frames.map((f) => f.command)).toEqual([0x18])
    expect(h.bad).toEqual([
      { reason: 'noise', length: 15 },
      { reason: 'noise', length: 3 },
    ])
  })

  it('keeps a header that is split across chunks', async () => {
    const h = new FramerHarness()
    await h.write(Buffer.from('xx', 'latin1'), PING_RSP.subarray(0, 9))
    expect(h.frames).toEqual([])
    await h.write(PING_RSP.subarray(9))
    expect(h.frames).toHaveLength(1)
    expect(h.bad).toEqual([{ reason: 'noise', length: 2 }])
  })

  it('reports a corrupted frame and still delivers the valid frame right behind it', async () => {
    const h = new FramerHarness()
    const corrupted = Buffer.from(NO_CARD)
    corrupted[15] = (corrupted[15] ?? 0) ^ 0x01
    await h.write(Buffer.concat([corrupted, PING_RSP]))
    expect(h.frames.map((f) => f.command)).toEqual([0x18])
    expect(h.bad[0]).toEqual({ reason: 'badCrc', length: 19, command: 0x03, code: 0x00 })
  })

  it('finds a valid frame inside a truncated one whose length field swallows it', async () => {
    const h = new FramerHarness()
    const truncated = response(0x02, 0x23, Buffer.alloc(20, 0x41)).subarray(0, 20) // declares 20 data bytes, 6 sent
    await h.write(truncated, POLL_RSP, PING_RSP) // the 36-byte candidate completes with a wrong CRC
    expect(h.frames.map((f) => f.command)).toEqual([0x01, 0x18])
    expect(h.reasons()[0]).toBe('badCrc')
  })

  it('rejects a length above the cap and resyncs to the next frame; accepts the cap itself', async () => {
    const h = new FramerHarness()
    const huge = hex(`56 69 56 4F 74 65 63 68 32 00 02 00 ${(DEFAULT_MAX_DATA_LENGTH + 1).toString(16).padStart(4, '0')}`)
    await h.write(huge, PING_RSP, response(0x02, 0x00, Buffer.alloc(DEFAULT_MAX_DATA_LENGTH, 7)))
    expect(h.frames.map((f) => f.data.length)).toEqual([0, DEFAULT_MAX_DATA_LENGTH])
    expect(h.bad[0]).toEqual({ reason: 'tooLarge', length: DEFAULT_MAX_DATA_LENGTH + 17, command: 0x02, code: 0x00 })
  })

  it('takes a large chunk of many frames in one write', async () => {
    const h = new FramerHarness({ maxDataLength: 64 })
    const frames = Array.from({ length: 500 }, (_, i) => response(i % 256, 0, Buffer.alloc(i % 60, i)))
    await h.write(Buffer.concat(frames))
    expect(h.frames.map((f) => f.command)).toEqual(frames.map((_, i) => i % 256))
  })
})

describe('Neo2Framer: CRC byte order (docs/neo2-protocol.md §13)', () => {
  const swappedPing = hex('56 69 56 4F 74 65 63 68 32 00 18 00 00 00 83 FA')

  it('accepts a response whose CRC came LSB first and says so', async () => {
    const h = new FramerHarness()
    await h.write(swappedPing)
    expect(h.frames.map((f) => f.crcByteOrder)).toEqual(['lsbFirst'])
  })

  it('rejects it when strict', async () => {
    const h = new FramerHarness({ acceptSwappedCrc: false })
    await h.write(swappedPing)
    expect(h.frames).toEqual([])
    expect(h.reasons()).toContain('badCrc')
  })

  it('reads command frames (the simulated reader side), strict by default', async () => {
    const h = new FramerHarness({ reads: 'command' })
    await h.write(hex('56 69 56 4F 74 65 63 68 32 00 18 01 00 00 B3 CD'), hex('56 69 56 4F 74 65 63 68 32 00 18 01 00 00 CD B3'))
    expect(h.frames).toEqual([{ kind: 'command', command: 0x18, subCommand: 0x01, data: Buffer.alloc(0), crcByteOrder: 'lsbFirst' }])
  })
})

describe('Neo2Framer: inter-byte timeout', () => {
  it('abandons a half frame after the silence and then reads the next frame normally', async () => {
    const h = new FramerHarness({ interByteTimeoutMs: 250 })
    await h.write(NO_CARD.subarray(0, 12))
    expect(h.timers.armedMs).toBe(250)
    h.timers.fire()
    await settle()
    expect(h.bad).toEqual([
      { reason: 'timeout', length: 12, command: 0x03, code: 0x00 },
      { reason: 'noise', length: 11 },
    ])
    await h.write(PING_RSP)
    expect(h.frames.map((f) => f.command)).toEqual([0x18])
  })

  it('delivers a complete frame that was waiting behind a stale half frame when the timer fires', async () => {
    const h = new FramerHarness()
    const stale = response(0x02, 0x23, Buffer.alloc(200)).subarray(0, 30)
    await h.write(stale, PING_RSP)
    expect(h.frames).toEqual([])
    h.timers.fire()
    await settle()
    expect(h.frames.map((f) => f.command)).toEqual([0x18])
    expect(h.timers.armedMs).toBeUndefined()
  })

  it('re-arms on every chunk, so a slow but steady frame is not cut', async () => {
    const h = new FramerHarness()
    await h.write(NO_CARD.subarray(0, 5))
    const first = h.timers.armedMs
    await h.write(NO_CARD.subarray(5, 17))
    await h.write(NO_CARD.subarray(17))
    expect(first).toBe(500)
    expect(h.frames).toHaveLength(1)
    expect(h.bad).toEqual([])
  })

  it('flushes at end of stream: pending bytes are reported and hidden frames delivered', async () => {
    const h = new FramerHarness({ interByteTimeoutMs: 0 })
    await h.write(response(0x02, 0x23, Buffer.alloc(100)).subarray(0, 40), POLL_RSP, PING_RSP.subarray(0, 5))
    expect(h.timers.armedMs).toBeUndefined()
    await h.end()
    expect(h.frames.map((f) => f.command)).toEqual([0x01])
    expect(h.reasons()).toEqual(['timeout', 'noise', 'noise'])
  })
})
