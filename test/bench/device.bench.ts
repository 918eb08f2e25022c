/**
 * bench:device: how fast the NEO 2 framer turns the bytes of a sale into frames, against a baseline of
 * bare Buffer concatenation of the same chunks in the same run, and against the serial link itself:
 * 115200 baud 8N1 carries 11,520 bytes/s (IDG p.39), so the framer must be orders of magnitude faster
 * than the wire, never the slower part.
 * The sale is what a reader sends for a chip sale with online PIN (docs/device-protocol.md §7): cancel
 * reply, card-detected event, 02-40, 60-11, 62 ACK, 62 PIN answer, 60-12 — cut into 32-byte reads.
 * Rounds alternate framer and baseline so machine noise hits both alike.
 */
import { encodeNeo2Frame, Neo2Framer } from '../../src-main/device/neo2'
import { SimPinEncryptor, TEST_CARDS } from '../../src-main/training/pinpad'
import { authenticateAnswer, completionAnswer, contactSelectAnswer } from '../../src-main/training/pinpad/sim-card-data'
import { median, report } from './support/bench-kit'

const SALES = Number(process.env.BENCH_SALES ?? 20_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const READ_BYTES = 32
/** 115200 baud, 10 bits per byte on the wire (start + 8 data + stop). */
const LINK_BYTES_PER_SECOND = 115_200 / 10

function saleBytes(): { chunks: Buffer[]; frames: number; bytes: number } {
  const card = TEST_CARDS['pin-tdes']
  const params = {
    timeoutSeconds: 30,
    interfaces: 7,
    fallback: true,
    amount: Buffer.from('000000001234', 'hex'),
    currency: Buffer.from('0978', 'hex'),
    transactionType: 0,
  }
  const pin = new SimPinEncryptor().encrypt('1234', card.pan, 'tdes')
  const frame = (command: number, status: number, data: Buffer = Buffer.alloc(0)) =>
    encodeNeo2Frame({ kind: 'response', command, status, data })
  const frames = [
    frame(0x05, 0x00),
    frame(0x02, 0x0e, Buffer.from([0x01])),
    frame(0x02, 0x00, contactSelectAnswer(card)),
    frame(0x60, 0x00, authenticateAnswer(card, params, 1, new Date(2026, 10, 21))),
    frame(0x62, 0x00),
    frame(0x62, 0x00, Buffer.concat([Buffer.from([0]), Buffer.from(pin.ksn + pin.epb, 'latin1')])),
    frame(0x60, 0x00, completionAnswer(card, true, Buffer.from('00', 'latin1'), 1)),
  ]
  const wire = Buffer.concat(frames)
  const chunks: Buffer[] = []
  for (let at = 0; at < wire.length; at += READ_BYTES) chunks.push(Buffer.from(wire.subarray(at, at + READ_BYTES)))
  return { chunks, frames: frames.length, bytes: wire.length }
}

const sale = saleBytes()

/** Frames per second through the framer; also returns the CPU time spent. */
async function framerRound(): Promise<{ perSecond: number; cpuMs: number }> {
  const framer = new Neo2Framer({ interByteTimeoutMs: 0 })
  let frames = 0
  framer.on('data', () => frames++)
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < SALES; i++) for (const chunk of sale.chunks) framer.write(chunk)
  await new Promise((resolve) => setImmediate(resolve))
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  if (frames !== SALES * sale.frames) throw new Error(`framer produced ${frames} frames, expected ${SALES * sale.frames}`)
  framer.destroy()
  return { perSecond: frames / seconds, cpuMs: (used.user + used.system) / 1000 }
}

/** The same chunks, only concatenated per sale: the least any receiver must do. */
async function baselineRound(): Promise<number> {
  let total = 0
  const started = performance.now()
  for (let i = 0; i < SALES; i++) {
    let acc = Buffer.alloc(0)
    for (const chunk of sale.chunks) acc = Buffer.concat([acc, chunk])
    total += acc.length
  }
  await new Promise((resolve) => setImmediate(resolve))
  const seconds = (performance.now() - started) / 1000
  if (total !== SALES * sale.bytes) throw new Error('baseline lost bytes')
  return (SALES * sale.frames) / seconds
}

await framerRound() // warm-up: JIT
await baselineRound()
const framerRates: number[] = []
const baselineRates: number[] = []
const cpuPerSale: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  const framed = await framerRound()
  framerRates.push(framed.perSecond)
  cpuPerSale.push(framed.cpuMs / SALES)
  baselineRates.push(await baselineRound())
  console.error(
    `round ${round + 1}: framer ${framerRates.at(-1)!.toFixed(0)} frames/s, baseline ${baselineRates.at(-1)!.toFixed(0)} frames/s`,
  )
}

const framesPerSecond = median(framerRates)
const framerBytesPerSecond = (framesPerSecond / sale.frames) * sale.bytes
console.error(
  `a sale is ${sale.frames} frames, ${sale.bytes} bytes: ${((sale.bytes / LINK_BYTES_PER_SECOND) * 1000).toFixed(1)} ms on a 115200-baud link`,
)
if (framerBytesPerSecond < 100 * LINK_BYTES_PER_SECOND) console.error('WARNING: the framer is less than 100x faster than the serial link')
report({
  bench: 'device',
  framesPerSecond: Math.round(framesPerSecond),
  baselineFramesPerSecond: Math.round(median(baselineRates)),
  ratio: Number(median(framerRates.map((rate, i) => rate / baselineRates[i]!)).toFixed(3)),
  cpuMsPerSale: Number(median(cpuPerSale).toFixed(4)),
  linkBytesPerSecond: LINK_BYTES_PER_SECOND,
  framerBytesPerSecond: Math.round(framerBytesPerSecond),
  bytesPerSale: sale.bytes,
  framesPerSale: sale.frames,
  sales: SALES,
  rounds: ROUNDS,
})
