/**
 * bench:store, two figures on loopback against real nats-servers (docs/store.md):
 * 1. an offline approval (the POS's `forceOffline`, so no bank call is in the measure) on a lane whose
 *    store must acknowledge the payment's sealed copy first (requireReplica), against the same
 *    approval on a lane without a store, alternating in one run, each lane in a worker thread and heap
 *    of its own (support/approval-lane.ts): p99 of each, the difference and the ratio; with one store
 *    server (R1) and with a three-server store whose stream keeps 3 replicas (R3, three nats-servers
 *    on this machine, test/main/store/three-servers.ts). Targets: at most 3 ms more at p99 with R1,
 *    5 ms with R3.
 * 2. the rescue: stored payments opened from their copies, sent to the training host (in its own
 *    process) and erased, per second from the manager's yes (`rescueTerminal`: fence, read, open and
 *    check each copy against the terminal's enrolled keys and rules, send, erase). Target ≥ 500
 *    items/s. Opening the recovery key (scrypt, once per run, before the listing the manager answers)
 *    is its own figure, `recoveryKeyOpenMs`: it does not grow with the queue.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Engine } from '../../src-main/app/compose'
import { rescueSender } from '../../src-main/cli/commands/store-commands'
import { MemorySecretStore } from '../../src-main/keychain'
import {
  CopyOpener,
  ENROL_BUCKET,
  FENCE_BUCKET,
  FLEET_BUCKET,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  rescueTerminal,
  StoreConnection,
} from '../../src-main/store'
import { DEFAULT_RETRY_POLICY } from '../../src-main/txn'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { AID, KEY } from '../support/engine-harness'
import { startNatsServer } from '../support/nats-server'
import { startThreeServers } from '../main/store/three-servers'
import { hostClient, startLane, type LaneOptions } from '../support/store-lane'
import type { ApprovalAnswer, ApprovalLaneData } from './support/approval-lane'
import { percentile, report, startHostProcess } from './support/bench-kit'

const SALES = Number(process.env.BENCH_SALES ?? 1_000)
const RESCUE = Number(process.env.BENCH_RESCUE ?? 500)
const WARM_UP = 50
const PASSPHRASE = 'bench recovery passphrase'
/** A bank address nothing listens at (the discard port): every call is refused at once. */
const BANK_DOWN = 'https://127.0.0.1:9'

const dir = mkdtempSync(join(tmpdir(), 'pos-bench-store-'))
const nats = await startNatsServer()
// The three-server store, and its lane's stream and buckets made with 3 replicas (store.replicas: 3)
// once the cluster has elected its leaders.
const cluster = await startThreeServers({ storeId: 'S1', terminals: ['T-WITH3'] })
{
  const setup = new StoreConnection({
    servers: cluster.urls,
    storeId: 'S1',
    terminalId: 'T-WITH3',
    nkeySeed: cluster.laneSeed('T-WITH3'),
    name: 'bench setup',
    maxAgeMs: 96 * 3_600_000,
    replicas: 3,
  })
  for (const until = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 500))) {
    try {
      await setup.ensureStream(3_000)
      for (const bucket of [FENCE_BUCKET, FLEET_BUCKET, ENROL_BUCKET] as const) await setup.ensureBucket(bucket, 3_000)
      break
    } catch (error) {
      if (Date.now() > until) throw error
    }
  }
  await setup.close()
}
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

/** An offline approval on a lane with no store: the rescue's backlog is built with these. */
async function approve(engine: Engine): Promise<void> {
  const sale = await engine.txn.waitForOutcome(
    engine.txn.sales.start({ amountMinor: 1_000, currency: 'USD', offlinePolicy: 'forceOffline' }).id,
  )
  if (sale.state !== 'storedOffline') throw new Error(`sale ended ${sale.state}: ${sale.reason}`)
}

/** Every lane's worker, stopped at the end whatever happened. */
const workers: Worker[] = []

/** A lane in its own worker thread and heap (support/approval-lane.ts says why). */
async function laneWorker(
  replicated: boolean,
  store: Pick<ApprovalLaneData, 'natsUrl' | 'terminalId' | 'nkeySeed'> = { natsUrl: nats.url },
): Promise<{ approve(): Promise<{ ms: number; copied: boolean }>; close(): Promise<number> }> {
  const module = new URL('./support/approval-lane.ts', import.meta.url).href
  const data: ApprovalLaneData = {
    module,
    replicated,
    dir,
    hostUrl: BANK_DOWN,
    caPem: host.caPem,
    recoveryPublicKey: keys.publicKey,
    approvals: SALES + WARM_UP,
    settings,
    ...store,
  }
  const worker = new Worker(new URL('./support/ts-worker.mjs', import.meta.url), { workerData: data })
  workers.push(worker)
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const failed = (error: Error) => reject(error)
      const exited = (code: number) => reject(new Error(`the lane's worker exited (${code}) before it answered`))
      worker.once('error', failed)
      worker.once('exit', exited)
      worker.once('message', (message: T) => {
        worker.off('error', failed)
        worker.off('exit', exited)
        resolve(message)
      })
    })
  await next<'ready'>()
  return {
    async approve() {
      const answer = next<ApprovalAnswer>()
      worker.postMessage('approve')
      const result = await answer
      if ('failed' in result) throw new Error(result.failed)
      return result
    },
    async close() {
      const closed = next<{ eventLoopMaxDelayMs: number }>()
      worker.postMessage('close')
      const { eventLoopMaxDelayMs } = await closed
      await worker.terminate()
      return eventLoopMaxDelayMs
    },
  }
}

try {
  // 1. With and without the store's acknowledgement, alternating, while the bank cannot be reached
  //    (nothing listens at its address): the situation an offline approval is for.
  //    The three-server lane (R3) takes its turn in the same rounds.
  const [replicated, bare, three] = await Promise.all([
    laneWorker(true),
    laneWorker(false),
    laneWorker(true, { natsUrl: cluster.urls[0]!, terminalId: 'T-WITH3', nkeySeed: cluster.laneSeed('T-WITH3') }),
  ])
  for (let i = 0; i < WARM_UP; i++) {
    await bare.approve()
    await replicated.approve()
    await three.approve()
  }
  const withStore: number[] = []
  const withThree: number[] = []
  const without: number[] = []
  let notCopied = 0
  let notCopiedR3 = 0
  for (let i = 0; i < SALES; i++) {
    without.push((await bare.approve()).ms)
    const { ms, copied } = await replicated.approve()
    withStore.push(ms)
    if (!copied) notCopied++
    const r3 = await three.approve()
    withThree.push(r3.ms)
    if (!r3.copied) notCopiedR3++
  }
  withStore.sort((a, b) => a - b)
  withThree.sort((a, b) => a - b)
  without.sort((a, b) => a - b)
  const loopMaxMs = Math.max(await replicated.close(), await bare.close(), await three.close())

  // 2. The rescue of a lane whose bank never answered (nothing listens at its address).
  const deadKey = makeCopyKeyPair()
  const dead = await startLane({ ...laneOptions('T-DEAD', BANK_DOWN, RESCUE), copyKey: deadKey.privateJwk })
  while (dead.engine.forwarder.status().storedCount < RESCUE) await approve(dead.engine)
  await dead.wiring.link.replica.syncNow()
  await dead.close()
  const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'bench rescue', maxAgeMs: 96 * 3_600_000 })
  const client = hostClient(host.url, host.caPem)
  const keyOpening = performance.now()
  const recoveryKey = openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE)
  const recoveryKeyOpenMs = performance.now() - keyOpening
  const started = performance.now()
  const rescued = await rescueTerminal({
    connection,
    storeId: 'S1',
    terminalId: 'T-DEAD',
    opener: new CopyOpener(recoveryKey.jwk),
    senderPublicKeys: [deadKey.publicKey],
    // The bench's own limits (room for every sale of the run), as the lane that stored them had.
    rules: {
      currency: 'USD',
      storedPaymentMaxMinor: offline.perTransactionMinor.USD,
      unreferencedReturnMaxMinor: 0,
      unreferencedReturnPerCardDayMinor: 0,
      unreferencedReturnPerDayMinor: 0,
    },
    sender: rescueSender(client),
    by: 'bench',
    rescueId: 'bench',
    // The lane is closed before the rescue: no copy can land after the fence, and the figure is the rescue's own work.
    lateCopyMs: 0,
    timeoutMs: 5_000,
    now: () => new Date(),
  })
  const seconds = (performance.now() - started) / 1000
  await connection.close()
  await client.close()
  // Items the bank did not answer in time stay for another run: counted, not hidden.
  if (rescued.lines.length !== RESCUE) throw new Error(`the rescue found ${rescued.lines.length} of ${RESCUE} copies`)
  const p99With = percentile(withStore, 99)
  const p99WithR3 = percentile(withThree, 99)
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
    notCopiedInTime: notCopied,
    offlineApprovalP99MsWithR3: round(p99WithR3),
    p99AddedMsR3: round(p99WithR3 - p99Without),
    p50MsWithR3: round(percentile(withThree, 50)),
    notCopiedInTimeR3: notCopiedR3,
    eventLoopMaxDelayMs: round(loopMaxMs),
    rescueItems: RESCUE,
    rescueLeftForAnotherRun: rescued.left,
    rescueItemsPerSecond: Math.round((RESCUE - rescued.left) / seconds),
    recoveryKeyOpenMs: Math.round(recoveryKeyOpenMs),
    targets: { p99AddedMs: 3, p99AddedMsR3: 5, rescueItemsPerSecond: 500 },
  })
} finally {
  await Promise.all(workers.map((worker) => worker.terminate()))
  await host.stop()
  await nats.close()
  await cluster.close()
  rmSync(dir, { recursive: true, force: true })
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}
