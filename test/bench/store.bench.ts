/**
 * bench:store, two figures on loopback against a real nats-server (docs/store.md):
 * 1. an offline approval (the POS's `forceOffline`, so no bank call is in the measure) on a lane whose
 *    store must acknowledge the payment's sealed copy first (requireReplica), against the same
 *    approval on a lane without a store, alternating in one run: p99 of each, the difference and the
 *    ratio. Target: at most 3 ms more at p99.
 * 2. the rescue: stored payments opened from their copies, sent to the training host (in its own
 *    process) and erased, per second. Target ≥ 500 items/s.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { composeEngine, type Engine } from '../../src-main/app/compose'
import { rescueSender } from '../../src-main/cli/commands/store-commands'
import { MemorySecretStore } from '../../src-main/keychain'
import { CopyOpener, makeRecoveryKeyPair, openRecoveryPrivateKey, rescueTerminal, StoreConnection } from '../../src-main/store'
import { DEFAULT_RETRY_POLICY } from '../../src-main/txn'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { AID, KEY, testSettings } from '../support/engine-harness'
import { startNatsServer } from '../support/nats-server'
import { hostClient, startLane, type LaneOptions } from '../support/store-lane'
import { percentile, report, startHostProcess } from './support/bench-kit'

const SALES = Number(process.env.BENCH_SALES ?? 400)
const RESCUE = Number(process.env.BENCH_RESCUE ?? 500)
const WARM_UP = 50
const PASSPHRASE = 'bench recovery passphrase'
/** A bank address nothing listens at (the discard port): every call is refused at once. */
const BANK_DOWN = 'https://127.0.0.1:9'

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-store-'))
const nats = await startNatsServer()
const host = await startHostProcess(AID, KEY)
const keys = makeRecoveryKeyPair(PASSPHRASE)
// Room for every sale of the run in the queue (the limits are not what is measured), and the
// production retry policy: the queue waits seconds between tries.
const offline = {
  enabled: true,
  perTransactionMinor: { USD: 1_000_000 },
  totalStoredMinor: { USD: 1_000_000_000 },
  maxStoredCount: 1_000_000,
  maxOldestAgeHours: 24,
  allowSwipe: false,
  allowOnlinePinCards: false,
}
const settings = { offline, duplicateWindowMs: 0, retry: DEFAULT_RETRY_POLICY }
const cards = (n: number) => new ScriptedCardReader().present(...Array.from({ length: n }, () => ({ card: TEST_CARDS.chipVisa() })))
const laneOptions = (name: string, hostUrl: string, n: number): LaneOptions => ({
  dir: join(dir, name),
  hostUrl,
  caPem: host.caPem,
  natsUrl: nats.url,
  terminalId: name,
  reader: cards(n + 100),
  secrets: new MemorySecretStore(),
  recoveryPublicKey: keys.publicKey,
  ackTimeoutMs: 2_000,
  heartbeatMs: 15_000,
  settings,
})

/** Sales the store did not acknowledge in time (each needed the bank): counted, and in the times. */
let notCopied = 0

async function approve(engine: Engine): Promise<number> {
  const started = performance.now()
  const sale = await engine.txn.waitForOutcome(
    engine.txn.startSale({ amountMinor: 1_000, currency: 'USD', offlinePolicy: 'forceOffline' }).id,
  )
  if (sale.state !== 'storedOffline') {
    if (!/store server did not answer/.test(sale.reason ?? '')) throw new Error(`sale ended ${sale.state}: ${sale.reason}`)
    notCopied++
  }
  return performance.now() - started
}

// How long this process's event loop was held at worst: a stall is not the store's doing.
const loopDelay = monitorEventLoopDelay({ resolution: 10 })

try {
  // 1. With and without the store's acknowledgement, alternating, while the bank cannot be reached
  //    (nothing listens at its address): the situation an offline approval is for.
  const replicated = await startLane(laneOptions('T-WITH', BANK_DOWN, SALES + WARM_UP))
  const bareClient = hostClient(BANK_DOWN, host.caPem)
  const bare = await composeEngine(testSettings(join(dir, 'bare'), settings), {
    reader: cards(SALES + WARM_UP),
    host: bareClient,
    secrets: new MemorySecretStore(),
    logger: pino({ level: 'silent' }),
  })
  loopDelay.enable()
  for (let i = 0; i < WARM_UP; i++) {
    await approve(bare)
    await approve(replicated.engine)
  }
  const withStore: number[] = []
  const without: number[] = []
  for (let i = 0; i < SALES; i++) {
    without.push(await approve(bare))
    withStore.push(await approve(replicated.engine))
  }
  withStore.sort((a, b) => a - b)
  without.sort((a, b) => a - b)
  loopDelay.disable()
  const measuredNotCopied = notCopied
  await replicated.close()
  await bare.close()
  await bareClient.close()

  // 2. The rescue of a lane whose bank never answered (nothing listens at its address).
  const dead = await startLane(laneOptions('T-DEAD', BANK_DOWN, RESCUE))
  while (dead.engine.forwarder.status().storedCount < RESCUE) await approve(dead.engine)
  await dead.wiring.link.replica.syncNow()
  await dead.close()
  const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'bench rescue', maxAgeMs: 96 * 3_600_000 })
  const client = hostClient(host.url, host.caPem)
  const started = performance.now()
  const rescued = await rescueTerminal({
    connection,
    storeId: 'S1',
    terminalId: 'T-DEAD',
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
  // Items the bank did not answer in time stay for another run: counted, not hidden.
  if (rescued.lines.length !== RESCUE) throw new Error(`the rescue found ${rescued.lines.length} of ${RESCUE} copies`)
  const p99With = percentile(withStore, 99)
  const p99Without = percentile(without, 99)
  report({
    bench: 'store',
    sales: SALES,
    offlineApprovalP99MsWithReplica: round(p99With),
    offlineApprovalP99MsWithout: round(p99Without),
    p99AddedMs: round(p99With - p99Without),
    p99Ratio: round(p99With / p99Without),
    p50MsWithReplica: round(percentile(withStore, 50)),
    p50MsWithout: round(percentile(without, 50)),
    notCopiedInTime: measuredNotCopied,
    eventLoopMaxDelayMs: round(loopDelay.max / 1e6),
    rescueItems: RESCUE,
    rescueLeftForAnotherRun: rescued.left,
    rescueItemsPerSecond: Math.round((RESCUE - rescued.left) / seconds),
    targets: { p99AddedMs: 3, rescueItemsPerSecond: 500 },
  })
} finally {
  await host.stop()
  await nats.close()
  rmSync(dir, { recursive: true, force: true })
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}
