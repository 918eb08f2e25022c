/**
 * Child process of the forwarding kill test: an engine whose queue holds a backlog of stored payments.
 * argv: <dataDir> <hostUrl> <caFile> <keychainService> <mode: fill|forward|settle> [count].
 * `fill` stores `count` payments offline with the forwarder stopped and exits; `forward` sends the
 * backlog with a window of 16 and prints a line per answer journaled, until it is killed; `settle`
 * drains what is left and exits 0 when nothing is left to send.
 */
import { readFileSync } from 'node:fs'
import pino from 'pino'
import { composeEngine } from '../../src-main/app/compose'
import { UndiciHostClient } from '../../src-main/gateway/gateway-client'
import { KeytarSecretStore } from '../../src-main/keychain'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { AID, KEY, testSettings } from './engine-harness'

const [dataDir, hostUrl, caFile, service, mode, count] = process.argv.slice(2)
if (!dataDir || !hostUrl || !caFile || !service)
  throw new Error('usage: forward-kill-worker <dataDir> <hostUrl> <caFile> <service> <fill|forward|settle> [count]')

const reader = new ScriptedCardReader()
const host = new UndiciHostClient(
  {
    offlineBaseUrl: hostUrl,
    baseUrl: hostUrl,
    aid: AID,
    signType: 'HMAC-SHA256',
    extraCaPem: readFileSync(caFile, 'utf8'),
    connectTimeoutMs: 1_000,
    responseTimeoutMs: 2_000,
  },
  { signingKey: KEY },
)
const base = testSettings(dataDir)
const engine = await composeEngine(
  {
    ...base,
    duplicateWindowMs: 0,
    forwarderConcurrency: 16,
    offline: { ...base.offline, totalStoredMinor: { USD: 1e12 }, maxStoredCount: 1e6, perTransactionMinor: { USD: 1e6 }, allowSwipe: true },
    retry: {
      baseDelayMs: 10,
      maxDelayMs: 50,
      maxAttempts: 10_000,
      maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
    },
  },
  { reader, host, secrets: await KeytarSecretStore.open(service), logger: pino({ level: 'warn' }, pino.destination(2)) },
)

async function finish(code: number): Promise<never> {
  await engine.close()
  await host.close()
  process.exit(code)
}

if (mode === 'fill') {
  await engine.forwarder.stop()
  for (let n = 0; n < Number(count ?? 100); n++) {
    reader.present({ card: TEST_CARDS.swipeMastercard() })
    const sale = engine.txn.sales.start({ amountMinor: 1_000 + n * 10, currency: 'USD', offlinePolicy: 'forceOffline' })
    const done = await engine.txn.waitForOutcome(sale.id)
    if (done.state !== 'storedOffline') throw new Error(`sale ${done.id} ended ${done.state}`)
  }
  console.log('filled')
  await finish(0)
} else if (mode === 'settle') {
  for (let i = 0; i < 600 && engine.forwarder.status().count > 0; i++) {
    await engine.forwarder.drainOnce()
    await new Promise((r) => setTimeout(r, 50))
  }
  const left = engine.forwarder.status().count
  console.log(`settled ${left}`)
  await finish(left === 0 ? 0 : 3)
} else {
  // compose started the forwarder: it recovered what was in flight and drains until killed
  engine.forwarder.on('forwarded', (item) => console.log(`forwarded ${item.seq}`))
  console.log(`ready: ${engine.forwarder.status().count} owed, ${engine.journal.outbox.lockedCount()} waiting for their key`)
}
