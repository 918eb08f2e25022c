/**
 * Property: whatever garbage the device sends between frames and however its frames are split, the
 * driver neither crashes nor invents anything, and a sale still comes out exactly right. The emulator
 * answers; a mangling wire sits between it and the driver.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { NEO2_HEADER, Neo2CardReader } from '../../../../src-main/device/neo2'
import type { DeviceEvent } from '../../../../src-main/device'
import type { ReaderTransport, TransportClosed } from '../../../../src-main/device/neo2'
import { Neo2Emulator } from '../../../../src-main/training/pinpad'
import { FAST_READER, sale } from './reader-harness'

/** An in-memory port: the driver's writes reach the emulator; its answers come back mangled. */
class ManglingWire implements ReaderTransport {
  readonly path = 'mangled'
  isOpen = false
  private readonly data = new Set<(chunk: Buffer) => void>()
  private delivery: Promise<void> = Promise.resolve()
  private answers = 0

  constructor(
    private readonly emulator: Neo2Emulator,
    private readonly garbage: Uint8Array[],
    private readonly cuts: number[],
  ) {}

  async open(): Promise<void> {
    this.isOpen = true
    this.emulator.attach((frame) => this.deliver(frame))
  }

  async close(): Promise<void> {
    this.isOpen = false
    this.emulator.detach()
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.emulator.receive(Buffer.from(bytes))
  }

  onData(listener: (chunk: Buffer) => void): () => void {
    this.data.add(listener)
    return () => this.data.delete(listener)
  }

  onClose(_listener: (event: TransportClosed) => void): () => void {
    return () => undefined
  }

  /** Garbage before each answer, then the bytes cut at arbitrary points, each piece on its own tick. */
  inject(bytes: Uint8Array): void {
    this.deliver(Buffer.from(bytes), false)
  }

  private deliver(frame: Buffer, withGarbage = true): void {
    const n = this.answers++
    const junk = withGarbage && this.garbage.length > 0 ? Buffer.from(this.garbage[n % this.garbage.length] ?? []) : Buffer.alloc(0)
    const wire = Buffer.concat([junk, frame])
    const points = [...new Set(this.cuts.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b)
    const pieces: Buffer[] = []
    let at = 0
    for (const point of [...points, wire.length]) {
      if (point > at) pieces.push(wire.subarray(at, point))
      at = Math.max(at, point)
    }
    for (const piece of pieces) {
      this.delivery = this.delivery.then(
        () =>
          new Promise<void>((resolve) =>
            setImmediate(() => {
              if (this.isOpen) for (const listener of this.data) listener(piece)
              resolve()
            }),
          ),
      )
    }
  }
}

/** Random bytes that never contain a whole frame header (a real frame inside garbage is not garbage). */
const garbage = fc.uint8Array({ maxLength: 40 }).filter((bytes) => !Buffer.from(bytes).includes(NEO2_HEADER))

async function rig(junk: Uint8Array[], cuts: number[]) {
  const emulator = new Neo2Emulator({ cardReadMs: 1, pinEntryMs: 1 })
  const wire = new ManglingWire(emulator, junk, cuts)
  const events: DeviceEvent[] = []
  const errors: unknown[] = []
  const reader = new Neo2CardReader({ ...FAST_READER, transport: wire, framer: { interByteTimeoutMs: 20 } })
  reader.onEvent((event) => events.push(event))
  await reader.start()
  await reader.whenConnected(2_000)
  return { emulator, wire, reader, events, errors }
}

describe('Neo2CardReader under arbitrary garbage and splits (property)', () => {
  it('completes a chip sale with PIN exactly as on a clean line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { maxLength: 6 }), fc.array(fc.nat({ max: 200 }), { maxLength: 12 }), async (junk, cuts) => {
        const r = await rig(junk, cuts)
        try {
          r.emulator.present('pin-tdes')
          const result = await r.reader.readCard(sale())
          expect(result.kind).toBe('card')
          if (result.kind !== 'card') return
          expect(result.card).toMatchObject({ method: 'chip', pan: '4012345678909', pin: { encryptedPin: '1B9C1845EB993A7A' } })
          expect((await r.reader.completeCard({ result: 'approved', authorizationResponseCode: '00' })).decision).toBe('approved')
          expect(r.events.filter((e) => e.type === 'error' || e.type === 'interrupted')).toEqual([])
        } finally {
          await r.reader.close()
        }
      }),
      { numRuns: 40 },
    )
  })

  it('survives pure junk, header-led fragments included, and still sells afterwards', async () => {
    const junk = fc.array(
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        fc.uint8Array({ maxLength: 40 }).map((tail) => Uint8Array.from([...NEO2_HEADER, ...tail])),
      ),
      { maxLength: 12 },
    )
    await fc.assert(
      fc.asyncProperty(junk, async (chunks) => {
        const r = await rig([], [])
        try {
          for (const chunk of chunks) r.wire.inject(chunk)
          await new Promise((resolve) => setTimeout(resolve, 40)) // past the framer's inter-byte timeout
          expect(r.events.filter((e) => e.type === 'cardRead' || e.type === 'interrupted')).toEqual([])
          r.emulator.present('swipe-magstripe')
          const result = await r.reader.readCard(sale())
          expect(result).toMatchObject({ kind: 'card', card: { pan: '4111111111111111' } })
        } finally {
          await r.reader.close()
        }
      }),
      { numRuns: 40 },
    )
  })
})
