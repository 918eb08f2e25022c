/**
 * `npm run bench:zvt`: a payment end to end through the ZVT terminal side (a register on one kept TCP
 * connection: Authorization `06 01`, the terminal's `04 FF`, `04 0F` and `06 0F` each acknowledged)
 * against the same payment through the local API (POST startSale, then the sale's final event on the
 * event stream), in the same run, on one training agent whose simulated customer is made fast so that
 * the agent's own time shows. The two kinds take turns, so that the machine's noise falls on both.
 * `ratio` is the ZVT payment's p99 over the local API's (the bar is 1.1). Ends with one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLocalServer } from '../../src-main/api'
import { openRuntime, readerFactory, startAgent, startZvtEndpoint } from '../../src-main/app'
import { apdu, ApduReader, controlOf, encodeAmount, encodeApdu, encodeBcd, encodeBmps, type Apdu } from '../../src-main/zvt'
import { percentile, report } from './support/bench-kit'
import { openLocalApiPayer } from './support/local-api-payer'

const PAYMENTS = Number(process.env.BENCH_ZVT_PAYMENTS ?? 1_000)
const WARM_UP = 5

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-zvt-'))
const runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
runtime.logger.level = process.env.BENCH_LOG ?? 'warn'
const agent = await startAgent(runtime, readerFactory({ autoPresentMs: 5, cardReadMs: 0, pinEntryMs: 0 }))
const token = agent.apiToken.token
const local = await startLocalServer({
  port: 0,
  rendererRoot: dir,
  service: agent.service,
  tokens: agent.tokenCheck,
  health: () => ({ ok: true }),
})
const zvt = await startZvtEndpoint(runtime, agent, { port: 0 })

// The baseline POS, shared with bench:nexo (support/local-api-payer.ts).
const localApi = await openLocalApiPayer(local.url, token)
const nextAmount = localApi.nextAmount
const viaLocalApi = localApi.pay

/** The register: one TCP connection for the run, acknowledging what the terminal sends. */
const socket = await new Promise<ReturnType<typeof connect>>((resolve, reject) => {
  const s = connect({ host: '127.0.0.1', port: zvt.port }, () => resolve(s))
  s.once('error', reject)
})
socket.setNoDelay(true)
const reader = new ApduReader()
let ended: ((last: Apdu[]) => void) | undefined
let got: Apdu[] = []
socket.on('data', (chunk) => {
  for (const message of reader.push(chunk)) {
    got.push(message)
    const control = controlOf(message)
    if ([0x04ff, 0x040f, 0x060f, 0x061e].includes(control)) socket.write(encodeApdu(apdu(0x80, 0x00)))
    if (control === 0x060f || control === 0x061e || message.cls === 0x84) ended?.(got)
  }
})
const USD = encodeBcd(840, 2)

async function viaZvt(): Promise<number> {
  const amountMinor = nextAmount()
  const started = performance.now()
  got = []
  const done = new Promise<Apdu[]>((resolve) => (ended = resolve))
  socket.write(
    encodeApdu(
      apdu(
        0x06,
        0x01,
        encodeBmps([
          { bmp: 0x04, value: encodeAmount(amountMinor) },
          { bmp: 0x49, value: USD },
        ]),
      ),
    ),
  )
  const answer = await done
  if (controlOf(answer.at(-1)!) !== 0x060f)
    throw new Error(`ZVT payment ended ${answer.map((m) => Buffer.from(encodeApdu(m)).toString('hex')).join(' ')}`)
  return performance.now() - started
}

try {
  const kinds = [viaLocalApi, viaZvt]
  for (let i = 0; i < WARM_UP; i++) for (const kind of kinds) await kind()
  const times = new Map<(typeof kinds)[number], number[]>(kinds.map((kind) => [kind, []]))
  for (let i = 0; i < PAYMENTS; i++) {
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(i + k) % kinds.length]!
      times.get(kind)!.push(await kind())
    }
  }
  const p = (kind: (typeof kinds)[number], at: number): number =>
    round(
      percentile(
        [...times.get(kind)!].sort((a, b) => a - b),
        at,
      ),
    )
  const figures = {
    bench: 'zvt',
    payments: PAYMENTS,
    localApiMsP50: p(viaLocalApi, 50),
    localApiMsP99: p(viaLocalApi, 99),
    zvtMsP50: p(viaZvt, 50),
    zvtMsP99: p(viaZvt, 99),
    ratio: round(p(viaZvt, 99) / p(viaLocalApi, 99)),
  }
  console.log(`local API payment: p50 ${figures.localApiMsP50} ms, p99 ${figures.localApiMsP99} ms`)
  console.log(`ZVT payment:       p50 ${figures.zvtMsP50} ms, p99 ${figures.zvtMsP99} ms (ratio at p99 ${figures.ratio}, bar 1.1)`)
  report(figures)
} finally {
  socket.destroy()
  await zvt.close()
  await local.close()
  await agent.close()
  if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true })
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
