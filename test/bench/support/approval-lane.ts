/**
 * One lane of bench:store in a worker thread of its own: a terminal runs one engine per process, so
 * each lane gets its own JavaScript heap and pays for its own garbage. Two engines sharing a heap
 * skew the comparison: V8 runs a scheduled scavenge at the next idle turn of the event loop, and the
 * only such turns in an alternating run are the replicated lane's waits for the store's
 * acknowledgement, so that lane absorbed both lanes' collections (measured: 98% of collection time
 * fell inside its slow approvals).
 *
 * Messages: 'approve' → { ms, copied } (an offline approval's time, and whether the store
 * acknowledged its copy in time); 'close' → { eventLoopMaxDelayMs }.
 */
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parentPort, workerData } from 'node:worker_threads'
import pino from 'pino'
import { composeEngine, type Engine } from '../../../src-main/app/compose'
import { MemorySecretStore } from '../../../src-main/keychain'
import type { EngineSettings } from '../../../src-main/app/compose'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { testSettings } from '../../support/engine-harness'
import { hostClient, startLane } from '../../support/store-lane'

export interface ApprovalLaneData {
  module: string
  /** With the store's acknowledgement (requireReplica) or without a store. */
  replicated: boolean
  dir: string
  hostUrl: string
  caPem: string
  natsUrl: string
  recoveryPublicKey: string
  /** The lane's terminal id ('T-WITH' by default) and its NKey seed, on a store server with one user per lane. */
  terminalId?: string
  nkeySeed?: string
  approvals: number
  settings: Partial<EngineSettings>
}

export type ApprovalAnswer = { ms: number; copied: boolean } | { failed: string }

const data = workerData as ApprovalLaneData
const reader = new ScriptedCardReader().present(...Array.from({ length: data.approvals + 100 }, () => ({ card: TEST_CARDS.chipVisa() })))
let engine: Engine
let close: () => Promise<void>
if (data.replicated) {
  const terminalId = data.terminalId ?? 'T-WITH'
  const lane = await startLane({
    dir: join(data.dir, terminalId),
    hostUrl: data.hostUrl,
    caPem: data.caPem,
    natsUrl: data.natsUrl,
    terminalId,
    ...(data.nkeySeed ? { nkeySeed: data.nkeySeed } : {}),
    reader,
    secrets: new MemorySecretStore(),
    recoveryPublicKey: data.recoveryPublicKey,
    ackTimeoutMs: 2_000,
    heartbeatMs: 15_000,
    settings: data.settings,
  })
  engine = lane.engine
  close = () => lane.close()
} else {
  const client = hostClient(data.hostUrl, data.caPem)
  engine = await composeEngine(testSettings(join(data.dir, 'bare'), data.settings), {
    reader,
    host: client,
    secrets: new MemorySecretStore(),
    logger: pino({ level: 'silent' }),
  })
  close = async () => {
    await engine.close()
    await client.close()
  }
}

// How long this lane's event loop was held at worst.
const loopDelay = monitorEventLoopDelay({ resolution: 10 })
loopDelay.enable()

async function approve(): Promise<ApprovalAnswer> {
  const started = performance.now()
  const sale = await engine.txn.waitForOutcome(
    engine.txn.sales.start({ amountMinor: 1_000, currency: 'USD', offlinePolicy: 'forceOffline' }).id,
  )
  const ms = performance.now() - started
  if (sale.state === 'storedOffline') return { ms, copied: true }
  // Not copied in time: the sale needed the bank, and said so. Counted, and in the times.
  if (/store server did not answer/.test(sale.reason ?? '')) return { ms, copied: false }
  return { failed: `sale ended ${sale.state}: ${sale.reason ?? ''}` }
}

parentPort!.on('message', (message: 'approve' | 'close') => {
  if (message === 'approve') {
    void approve().then(
      (answer) => parentPort!.postMessage(answer),
      (error: unknown) => parentPort!.postMessage({ failed: String(error) }),
    )
    return
  }
  loopDelay.disable()
  void close().then(() => parentPort!.postMessage({ eventLoopMaxDelayMs: loopDelay.max / 1e6 }))
})
parentPort!.postMessage('ready')
