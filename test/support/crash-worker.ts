/**
 * Child process of the crash test: an engine that runs sales and forwards its queue until it is
 * killed. argv: <dataDir> <hostUrl> <caFile> <keychainService> <mode: run|settle>.
 * `settle` recovers, drains the queue with no new sales, and exits 0 when nothing is left to send.
 */
import { readFileSync } from 'node:fs'
import pino from 'pino'
import { composeEngine } from '../../src-main/app/compose'
import { UndiciHostClient } from '../../src-main/gateway/gateway-client'
import { KeytarSecretStore } from '../../src-main/keychain'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { AID, KEY, testSettings } from './engine-harness'

const [dataDir, hostUrl, caFile, service, mode] = process.argv.slice(2)
if (!dataDir || !hostUrl || !caFile || !service) throw new Error('usage: crash-worker <dataDir> <hostUrl> <caFile> <service> <run|settle>')

const reader = new ScriptedCardReader()
const host = new UndiciHostClient(
  {
    offlineBaseUrl: hostUrl,
    baseUrl: hostUrl,
    aid: AID,
    signType: 'HMAC-SHA256',
    extraCaPem: readFileSync(caFile, 'utf8'),
    connectTimeoutMs: 1_000,
    responseTimeoutMs: 700,
  },
  { signingKey: KEY },
)
const engine = await composeEngine(
  {
    ...testSettings(dataDir),
    duplicateWindowMs: 0,
    retry: {
      baseDelayMs: 30,
      maxDelayMs: 200,
      maxAttempts: 10_000,
      maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
    },
  },
  { reader, host, secrets: await KeytarSecretStore.open(service), logger: pino({ level: 'silent' }) },
)
console.log('ready')

if (mode === 'settle') {
  engine.forwarder.wake()
  for (let i = 0; i < 600; i++) {
    await engine.forwarder.drainOnce()
    const status = engine.forwarder.status()
    if (status.count === 0) break
    await new Promise((r) => setTimeout(r, 50))
  }
  const left = engine.forwarder.status().count
  await engine.close()
  await host.close()
  console.log(`settled ${left}`)
  process.exit(left === 0 ? 0 : 3)
}

// run: sales one after the other, with alternating cards and amounts, until killed
for (let n = 0; ; n++) {
  reader.present({
    card: n % 3 === 2 ? TEST_CARDS.swipeMastercard() : TEST_CARDS.chipVisa(),
    ...(n % 7 === 6 ? { decision: 'declined' as const } : {}),
  })
  const amount = 1_000 + ((n * 37) % 5_000) * 1
  const sale = engine.txn.sales.start({ amountMinor: amount % 100 === 51 || amount % 100 === 5 ? amount + 1 : amount, currency: 'USD' })
  const done = await engine.txn.waitForOutcome(sale.id)
  console.log(`sale ${done.id} ${done.state}`)
}
