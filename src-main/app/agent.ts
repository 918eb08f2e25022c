/**
 * Starting the whole agent from a runtime: host connection (the embedded training host in training
 * mode), card reader, journal and engine, and the operations every door (Electron IPC, local API)
 * dispatches to. `serve` and the Electron shell both start here.
 */
import type { CardReader } from '../device'
import { AgentService, IntegratorTokens, loadOrCreateApiToken, TokenCheck } from '../service'
import { AgentMetrics, MeasuredHostClient } from '../metrics'
import { minorUnitDigits } from '../../src-shared/money'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../txn'
import { composeEngine, type Engine, type EngineAlarm, type EngineSettings } from './compose'
import { followCounterSale } from './training-card-follow'
import { packageVersion, type AgentConfig } from '../config'
import { openHostClient, type HostConnection } from './host-connection'
import type { Runtime } from './runtime'
import { openReceiptDesk } from './receipt-desk-factory'
import { receiptMerchantOf } from '../../src-shared/receipt'
import type { TrainingCardView } from '../../src-shared/contract'
import { openStoreWiring } from './store-wiring'

/** The card reader for a runtime, with the training controls when it is the simulated PIN pad. */
export interface ReaderHandle {
  reader: CardReader
  trainingCards: TrainingCardView[]
  presentTestCard?: (name: string) => void
  /** Whether the simulated customer presents the default card by itself at the next card requests. */
  autoPresentTestCard?: (on: boolean) => void
  close(): Promise<void>
}

export type ReaderFactory = (runtime: Runtime, config: AgentConfig) => Promise<ReaderHandle>

export interface RunningAgent {
  config: AgentConfig
  engine: Engine
  connection: HostConnection
  readerHandle: ReaderHandle
  /** The application layer every door calls (src-main/service). */
  service: AgentService
  /** Integrator tokens a manager created: they open the local API and the nexo endpoint. */
  tokens: IntegratorTokens
  /** The installation token (`<data folder>/api-token`) and its file. */
  apiToken: { token: string; file: string }
  /** Which token a door was shown: the installation token or an integrator token, with its scopes. */
  tokenCheck: TokenCheck
  /** Prometheus metrics of this agent, for the local server's /metrics (docs/monitoring.md). */
  metrics: AgentMetrics
  close(): Promise<void>
}

/** The engine's alarm codes (compose.ts), each reported by the metrics whether raised or not. */
const ENGINE_ALARM_CODES: ReadonlyArray<EngineAlarm['code']> = [
  'DATA_KEY_MISSING',
  'QUEUE_RESCUED',
  'QUEUE_COPY_MISSING',
  'STORE_NOT_ENROLLED',
  'STORE_COPY_BUFFERED',
  'JOURNAL_DAMAGED',
  'AUDIT_BROKEN',
]

export function engineSettings(config: AgentConfig, dataDir: string): EngineSettings {
  const unit = 10 ** minorUnitDigits(config.currency)
  return {
    dataDir,
    merchant: {
      storeId: config.merchant.storeId,
      terminalId: config.merchant.terminalId,
      merchantId: config.merchant.merchantId,
      storeName: config.merchant.storeName,
      pspInfo: config.merchant.pspInfo,
    },
    currency: config.currency,
    limits: {
      maxSaleMinor: Math.round(config.limits.maxSaleAmount * unit),
      confirmAboveMinor: Math.round(config.limits.confirmAbove * unit),
      unreferencedReturnMaxMinor: Math.round(config.limits.unreferencedReturnMax * unit),
      unreferencedReturnPerCardDayMinor: Math.round(config.limits.unreferencedReturnPerCardDay * unit),
      unreferencedReturnPerDayMinor: Math.round(config.limits.unreferencedReturnPerDay * unit),
    },
    restaurantMode: config.restaurantMode,
    cardReadTimeoutSeconds: config.device.cardReadTimeoutSeconds,
    duplicateWindowMs: config.duplicateWindowMinutes * 60_000,
    offline: {
      enabled: config.offline.enabled,
      perTransactionMinor: { [config.currency]: Math.round(config.offline.perTransaction * unit) },
      totalStoredMinor: { [config.currency]: Math.round(config.offline.totalStored * unit) },
      maxStoredCount: config.offline.maxStoredCount,
      maxOldestAgeHours: config.offline.maxOldestAgeHours,
      allowSwipe: config.offline.allowSwipe,
      allowOnlinePinCards: config.offline.allowOnlinePinCards,
    },
    tips: { tolerancePercent: config.tips.tolerancePercent },
    retry: retryPolicy(config),
  }
}

function retryPolicy(config: AgentConfig): RetryPolicy {
  // A stored payment needs a manager once it is older than the offline age limit.
  return { ...DEFAULT_RETRY_POLICY, maxAgeHours: { ...DEFAULT_RETRY_POLICY.maxAgeHours, payment: config.offline.maxOldestAgeHours } }
}

export async function startAgent(runtime: Runtime, readerFactory: ReaderFactory): Promise<RunningAgent> {
  const connection = await openHostClient(runtime)
  const config = runtime.loaded?.config ?? connection.trainingConfig!
  const closers: Array<() => Promise<void>> = [() => connection.close()]
  try {
    const readerHandle = await readerFactory(runtime, config)
    closers.unshift(() => readerHandle.close())
    const settings: EngineSettings = {
      ...engineSettings(config, runtime.dataDir),
      // Training without an OS keychain: its keys die with the process, every restart (compose.ts openSealer).
      ...(runtime.mode === 'training' && runtime.secrets.kind === 'process-memory' ? { keysDieWithProcess: true } : {}),
    }
    const metrics = new AgentMetrics({
      info: { terminalId: config.merchant.terminalId, mode: runtime.mode, currency: config.currency },
      alarmCodes: ENGINE_ALARM_CODES,
    })
    closers.unshift(async () => metrics.close())
    // The store's server, when configured (docs/store.md): its fence is read before the engine starts.
    const store = await openStoreWiring(config, runtime.secrets, runtime.logger, packageVersion(), runtime.dataDir, runtime.clock)
    const closeLink = async (): Promise<void> => store?.link.close()
    closers.unshift(closeLink)
    const engine = await composeEngine(settings, {
      reader: readerHandle.reader,
      host: new MeasuredHostClient(connection.client, (outcome) => metrics.observeHostCall(outcome)),
      secrets: runtime.secrets,
      logger: runtime.logger,
      store: store?.engineStore,
      now: () => new Date(runtime.clock.now()),
    })
    closers.unshift(() => engine.close())
    if (readerHandle.autoPresentTestCard) followCounterSale(engine.txn, readerHandle.autoPresentTestCard)
    // The replica reads the journal on its timer: the link closes before the journal, never after.
    closers.splice(closers.indexOf(closeLink), 1)
    closers.unshift(closeLink)
    store?.start(engine, readerHandle.reader)
    metrics.watch({
      txn: engine.txn,
      forwarder: engine.forwarder,
      journal: engine.journal,
      reader: readerHandle.reader,
      alarms: () => engine.alarms,
    })
    const tokens = new IntegratorTokens(runtime.dataDir)
    const info = {
      mode: runtime.mode,
      currency: config.currency,
      terminalId: config.merchant.terminalId,
      merchantId: config.merchant.merchantId,
      storeAddress: config.merchant.storeAddress,
      restaurantMode: config.restaurantMode,
      tipTolerancePercent: config.tips.tolerancePercent,
      saleLimits: settings.limits,
      trainingCards: readerHandle.trainingCards,
      ...(config.merchant.storeName ? { storeName: config.merchant.storeName } : {}),
    }
    const receipts = await openReceiptDesk(runtime, config, receiptMerchantOf(info))
    closers.unshift(() => receipts.close())
    metrics.watchPrinter(() => receipts.desk.lastPrinterState())
    if (store) metrics.watchStoreCopy(() => store.link.durability()?.durability)
    const apiToken = loadOrCreateApiToken(runtime.dataDir)
    const service = new AgentService({
      engine,
      tokens,
      reader: readerHandle.reader,
      secrets: runtime.secrets,
      retry: retryPolicy(config),
      info,
      receipts: receipts.desk,
      settings: {
        offlineBaseUrl: config.host.offlineBaseUrl,
        aid: config.host.aid,
        storeId: config.merchant.storeId,
        terminalId: config.merchant.terminalId,
        merchantId: config.merchant.merchantId,
      },
      ...(readerHandle.presentTestCard ? { presentTestCard: readerHandle.presentTestCard } : {}),
      metrics,
      idleSignOutMinutes: config.operators.idleSignOutMinutes,
      voidWithoutManagerMinutes: config.operators.voidWithoutManagerMinutes,
      logger: runtime.logger,
    })
    return {
      config,
      engine,
      connection,
      readerHandle,
      service,
      metrics,
      tokens,
      apiToken,
      tokenCheck: new TokenCheck(apiToken.token, tokens),
      close: async () => {
        service.close()
        for (const close of closers) await close()
      },
    }
  } catch (error) {
    for (const close of closers) await close().catch(() => undefined)
    throw error
  }
}
