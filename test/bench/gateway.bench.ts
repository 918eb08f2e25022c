/**
 * bench:gateway: signed request → verified response round trips per second against the training
 * host over keep-alive, as a ratio to a bare undici client posting the same kind of bytes (pre-signed,
 * no validation, no verification) in the same run. Target: ratio ≥ 0.8.
 * Rounds alternate between the two clients so machine noise hits both alike.
 */
import { rootCertificates } from 'node:tls'
import { Agent, request } from 'undici'
import { UndiciHostClient } from '../../src-main/gateway/gateway-client'
import { formatDateTime, newMsgId } from '../../src-main/gateway/headers'
import { operationPath } from '../../src-main/gateway/operations'
import { sign } from '../../src-main/gateway/signer'
import { samplePayment } from '../support/sample-bodies'
import { median, report, startHostProcess, throughput } from './support/bench-kit'

const AID = 'BENCH-ACQ'
const KEY = 'bench-signing-key-0123456789abcd'
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 1_500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CONCURRENCY = 8

const host = await startHostProcess(AID, KEY)
const path = operationPath('payment', AID)
let serial = 0
const body = () =>
  samplePayment({ merchantTransInfo: { merchantTransID: `B${process.pid}-${++serial}`, merchantTransTime: '2026-11-21T10:00:00+01:00' } })

const agentClient = new UndiciHostClient(
  {
    offlineBaseUrl: host.url,
    baseUrl: host.url,
    aid: AID,
    signType: 'HMAC-SHA256',
    extraCaPem: host.caPem,
    connectTimeoutMs: 5_000,
    responseTimeoutMs: 30_000,
  },
  { signingKey: KEY },
)
const bare = new Agent({ connect: { ca: [...rootCertificates, host.caPem] }, keepAliveTimeout: 4_000 })

async function bareRound(): Promise<number> {
  // Bytes and headers prepared outside the timed loop: the bare client only posts and reads.
  const prepared = Array.from({ length: PER_ROUND }, () => {
    const bytes = Buffer.from(JSON.stringify(body()))
    const dateTime = formatDateTime(new Date())
    const msgId = newMsgId()
    return {
      bytes,
      headers: {
        'content-type': 'application/json',
        datetime: dateTime,
        msgid: msgId,
        signtype: 'HMAC-SHA256',
        authorization: sign({ method: 'POST', path, dateTime, msgId, body: bytes }, 'HMAC-SHA256', KEY),
      },
    }
  })
  return throughput(PER_ROUND, CONCURRENCY, async (i) => {
    const { bytes, headers } = prepared[i]!
    const response = await request(`${host.url}${path}`, { method: 'POST', headers, body: bytes, dispatcher: bare })
    await response.body.arrayBuffer()
    if (response.statusCode !== 200) throw new Error(`bare client got HTTP ${response.statusCode}`)
  })
}

async function agentRound(): Promise<number> {
  const bodies = Array.from({ length: PER_ROUND }, body)
  return throughput(PER_ROUND, CONCURRENCY, async (i) => {
    const outcome = await agentClient.send('payment', bodies[i] as never)
    if (outcome.kind !== 'approved') throw new Error(`agent client got ${outcome.kind}`)
  })
}

try {
  await bareRound() // warm-up: connections, JIT, host caches
  await agentRound()
  const bareRates: number[] = []
  const agentRates: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    bareRates.push(await bareRound())
    agentRates.push(await agentRound())
    console.error(`round ${round + 1}: agent ${agentRates.at(-1)!.toFixed(0)}/s, bare ${bareRates.at(-1)!.toFixed(0)}/s`)
  }
  // The ratio is the median of paired rounds: each pair ran back to back under the same noise.
  const ratio = median(agentRates.map((rate, i) => rate / bareRates[i]!))
  report({
    bench: 'gateway',
    perSecond: Math.round(median(agentRates)),
    baselinePerSecond: Math.round(median(bareRates)),
    ratio: Number(ratio.toFixed(3)),
    target: 0.8,
    requestsPerRound: PER_ROUND,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
  })
} finally {
  await agentClient.close()
  await bare.close()
  await host.stop()
}
