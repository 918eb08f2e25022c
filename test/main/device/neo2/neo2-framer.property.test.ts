import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { encodeNeo2Frame, NEO2_HEADER } from '../../../../src-main/device/neo2/neo2-frame'
import type { CrcByteOrder, Neo2FrameKind, Neo2ReceivedFrame } from '../../../../src-main/device/neo2/neo2-frame'
import { FramerHarness } from './framer-harness'

const MAX_DATA = 300

interface Expected {
  command: number
  status: number
  data: Buffer
  crcByteOrder: CrcByteOrder
}

type Piece = { t: 'frame'; bytes: Buffer; expected: Expected } | { t: 'noise'; bytes: Buffer }

const swapCrc = (frame: Buffer): Buffer => {
  const out = Buffer.from(frame)
  out[out.length - 2] = frame[frame.length - 1] ?? 0
  out[out.length - 1] = frame[frame.length - 2] ?? 0
  return out
}

const frameParts = fc.record({
  command: fc.integer({ min: 0, max: 255 }),
  status: fc.integer({ min: 0, max: 255 }),
  data: fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: MAX_DATA }) },
  ),
})

/**
 * Pieces whose rejection is certain, not probable: random noise, header prefixes, a frame with one bit
 * flipped where CRC-16 must catch it, a header with a length above the cap. (A truncated frame followed
 * by more bytes is caught only with probability 1 - 2^-16, so it is covered by example tests instead.)
 */
function pieces(strict: boolean): fc.Arbitrary<Piece[]> {
  const valid = fc.tuple(frameParts, fc.boolean()).map(([parts, swap]): Piece => {
    const bytes = encodeNeo2Frame({ kind: 'response', ...parts, data: Buffer.from(parts.data) })
    // A CRC whose two bytes are equal reads the same both ways; the framer then reports the native order.
    const swapped = swap && !strict && bytes[bytes.length - 1] !== bytes[bytes.length - 2]
    return {
      t: 'frame',
      bytes: swapped ? swapCrc(bytes) : bytes,
      expected: { ...parts, data: Buffer.from(parts.data), crcByteOrder: swapped ? 'lsbFirst' : 'msbFirst' },
    }
  })
  const garbage = fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes): Piece => ({ t: 'noise', bytes: Buffer.from(bytes) }))
  const prefix = fc.integer({ min: 1, max: 9 }).map((k): Piece => ({ t: 'noise', bytes: NEO2_HEADER.subarray(0, k) }))
  // Strict mode: any bit of command, status, data or CRC. Lenient mode accepts a swapped CRC, which a
  // data flip can match by chance, so only CRC bits are flipped there (a CRC flip never matches swapped).
  const flipped = fc.tuple(frameParts, fc.nat(), fc.integer({ min: 0, max: 7 })).map(([parts, at, bit]): Piece => {
    const bytes = encodeNeo2Frame({ kind: 'response', ...parts, data: Buffer.from(parts.data) })
    const positions = strict
      ? [10, 11, ...Array.from({ length: bytes.length - 14 }, (_, i) => 14 + i)]
      : [bytes.length - 2, bytes.length - 1]
    const index = positions[at % positions.length] ?? 10
    bytes[index] = (bytes[index] ?? 0) ^ (1 << bit)
    return { t: 'noise', bytes }
  })
  const oversized = fc
    .tuple(fc.integer({ min: MAX_DATA + 1, max: 0xffff }), fc.uint8Array({ maxLength: 30 }))
    .map(([length, tail]): Piece => {
      const head = Buffer.concat([NEO2_HEADER, Buffer.from([0x02, 0x00, length >> 8, length & 0xff])])
      return { t: 'noise', bytes: Buffer.concat([head, tail]) }
    })
  return fc.array(fc.oneof({ weight: 3, arbitrary: valid }, garbage, prefix, flipped, oversized), { maxLength: 25 })
}

function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks: Buffer[] = []
  let from = 0
  for (const point of [...points, bytes.length]) {
    if (point > from) chunks.push(bytes.subarray(from, point))
    from = Math.max(from, point)
  }
  return chunks
}

const plain = (frames: readonly Neo2ReceivedFrame[]): Expected[] =>
  frames.map((f) => ({ command: f.command, status: f.kind === 'response' ? f.status : -1, data: f.data, crcByteOrder: f.crcByteOrder }))

describe('Neo2Framer properties', () => {
  it.each([
    ['strict CRC order', true],
    ['either CRC order (agent default)', false],
  ])('yields exactly the valid frames, in order, whatever the chunking and interleaved garbage (%s)', async (_name, strict) => {
    await fc.assert(
      fc.asyncProperty(pieces(strict), fc.array(fc.nat(), { maxLength: 30 }), async (list, cuts) => {
        const h = new FramerHarness({ maxDataLength: MAX_DATA, acceptSwappedCrc: !strict })
        const wire = Buffer.concat(list.map((p) => p.bytes))
        await h.write(...split(wire, cuts))
        await h.end()
        expect(h.errors).toEqual([])
        expect(plain(h.frames)).toEqual(list.flatMap((p) => (p.t === 'frame' ? [p.expected] : [])))
      }),
      { numRuns: 300 },
    )
  })

  const junk = fc.array(
    fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      // header-led fragments reach the length, CRC and timeout paths that random bytes seldom reach
      fc.uint8Array({ maxLength: 40 }).map((tail) => Uint8Array.from([...NEO2_HEADER, ...tail])),
    ),
    { maxLength: 20 },
  )
  const options = fc.record({
    reads: fc.constantFrom<Neo2FrameKind>('response', 'command'),
    acceptSwappedCrc: fc.boolean(),
    maxDataLength: fc.integer({ min: 0, max: 64 }),
  })

  it('never throws, never invents a frame, and after a silence reads the next valid frame at once', async () => {
    await fc.assert(
      fc.asyncProperty(junk, options, async (chunks, opts) => {
        const h = new FramerHarness(opts)
        const input = Buffer.concat(chunks)
        await h.write(...chunks)
        for (const frame of h.frames) {
          const { crcByteOrder, ...parts } = frame
          const encoded = encodeNeo2Frame(parts)
          const native = frame.kind === 'command' ? 'lsbFirst' : 'msbFirst'
          expect(input.includes(crcByteOrder === native ? encoded : swapCrc(encoded))).toBe(true)
        }
        const before = h.frames.length
        h.timers.fire() // the link went quiet: whatever was pending is abandoned
        const next = encodeNeo2Frame(
          opts.reads === 'command'
            ? { kind: 'command', command: 0x18, subCommand: 0x01, data: Buffer.alloc(0) }
            : { kind: 'response', command: 0x18, status: 0x00, data: Buffer.alloc(0) },
        )
        await h.write(next)
        expect(h.frames.length).toBeGreaterThan(before)
        expect(h.frames.at(-1)).toMatchObject({ command: 0x18, data: Buffer.alloc(0) })
        await h.end()
        expect(h.errors).toEqual([])
      }),
      { numRuns: 300 },
    )
  })
})
