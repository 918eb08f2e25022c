/**
 * bench:store, two figures on loopback against a real nats-server (docs/store.md):
 * 1. an offline approval with the store's acknowledgement of its sealed copy (requireReplica) against
 *    the same approval on a lane without a store, alternating in one run: p99 of each, the difference
 *    and the ratio. Target: at most 3 ms more at p99.
 * 2. the rescue: stored payments sent from their copies to the training host and erased, per
 *    second. Target ≥ 500 items/s.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { composeEngine, type Engine } from '../../src-main/app/compose'
import { rescueSender } from '../../src-main/cli/commands/store-commands'
import { MemorySecretStore } from '../../src-main/keychain'
import { CopyOpener, makeRecoveryKeyPair, openRecoveryPrivateKey, rescueTerminal, StoreConnection } from '../../src-main/store'
import { startTrainingHost } from '../../src-main/training/host'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { AID, KEY, testSettings } from '../support/engine-harness'
import { startNatsServer } from '../support/nats-server'
import { hostClient, startLane } from '../support/store-lane'
import { percentile, report } from './support/bench-kit'

const SALES = Number(process.env.BENCH_SALES ?? 400)
const RESCUE = Number(process.env.BENCH_RESCUE ?? 1_000)
const PASSPHRASE = 'bench recovery passphrase'

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-store-'))
const nats = await startNatsServer()
const host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
const keys = makeRecoveryKeyPair(PASSPHRASE)
// Room for every sale of the run in the queue: the limits are not what is measured.
const offline = {
  enabled: true,
  perTransactionMinor: { USD: 1_000_000 },
  totalStoredMinor: { USD: 1_000_000_000 },
  maxStoredCount: 1_000_000,
  maxOldestAgeHours: 24,
  allowSwipe: false,
  allowOnlinePinCards: false,
}
const chipCards = (n: number) => Array.from({ length: n }, () => ({ card: TEST_CARDS.chipVisa() }))

try {
  host.setFault('*', 'http-503')
  const replicated = await startLane({
    dir: join(dir, 'with-store'),
    hostUrl: host.url,
    caPem: host.caPem,
    natsUrl: nats.url,
    terminalId: 'T-BENCH',
    reader: new ScriptedCardReader().present(...chipCards(SALES + RESCUE)),
    secrets: new MemorySecretStore(),
    recoveryPublicKey: keys.publicKey,
    ackTimeoutMs: 2_000,
    settings: { offline, duplicateWindowMs: 0 },
  })
  const bareClient = hostClient(host.url, host.caPem)
  const bare: Engine = await composeEngine(
    { ...testSettings(join(dir, 'bare'), { offline, duplicateWindowMs: 0 }) },
    {
      reader: new ScriptedCardReader().present(...chipCards(SALES)),
      host: bareClient,
      secrets: new MemorySecretStore(),
      logger: pino({ level: 'silent' }),
    },
  )
  const approve = async (engine: Engine): Promise<number> => {
    const started = performance.now()
    const sale = await engine.txn.waitForOutcome(engine.txn.startSale({ amountMinor: 1_000, currency: 'USD' }).id)
    if (sale.state !== 'storedOffline') throw new Error(`sale ended ${sale.state}: ${sale.reason}`)
    return performance.now() - started
  }
  for (let i = 0; i < 20; i++) await approve(i % 2 === 0 ? bare : replicated.engine)
  const withStore: number[] = []
  const without: number[] = []
  for (let i = 0; i < SALES - 10; i++) {
    without.push(await approve(bare))
    withStore.push(await approve(replicated.engine))
  }
  withStore.sort((a, b) => a - b)
  without.sort((a, b) => a - b)
  const p99With = percentile(withStore, 99)
  const p99Without = percentile(without, 99)

  // The rescue: a backlog of stored payments on the lane, its copies at the store, sent and erased.
  for (let i = 0; i < RESCUE - (SALES - 10 + 10); i++) await approve(replicated.engine)
  await replicated.wiring.link.replica.syncNow()
  const items = replicated.engine.forwarder.status().storedCount
  await replicated.close()
  await bare.close()
  await bareClient.close()
  host.clearFaults()
  const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'bench rescue', maxAgeMs: 96 * 3_600_000 })
  const client = hostClient(host.url, host.caPem)
  const started = performance.now()
  const rescued = await rescueTerminal({
    connection,
    storeId: 'S1',
    terminalId: 'T-BENCH',
    opener: new CopyOpener(openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk),
    sender: rescueSender(client),
    by: 'bench',
    rescueId: 'bench',
    timeoutMs: 5_000,
    now: () => new Date(),
  })
  const seconds = (performance.now() - started) / 1000
  await connection.close()
  await client.close()
  if (rescued.left !== 0 || rescued.lines.length !== items) throw new Error(`rescue left ${rescued.left} of ${items}`)
  report({
    bench: 'store',
    sales: withStore.length,
    offlineApprovalP99MsWithReplica: round(p99With),
    offlineApprovalP99MsWithout: round(p99Without),
    p99AddedMs: round(p99With - p99Without),
    p99Ratio: round(p99With / p99Without),
    p50MsWithReplica: round(percentile(withStore, 50)),
    p50MsWithout: round(percentile(without, 50)),
    rescueItems: items,
    rescueItemsPerSecond: Math.round(items / seconds),
    targets: { p99AddedMs: 3, rescueItemsPerSecond: 500 },
  })
} finally {
  await host.close()
  await nats.close()
  rmSync(dir, { recursive: true, force: true })
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}
