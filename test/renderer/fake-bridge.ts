/**
 * A scripted PosBridge for renderer tests: records every call, answers from per-operation handlers
 * (or holds an answer until the test releases it), and emits PosEvents to subscribers.
 */
import { failed, type ErrorCode } from '../../src-shared/errors'
import type {
  AppInfo,
  DayReportView,
  OperationName,
  OperationRequest,
  OperationResults,
  PosBridge,
  QueueItemView,
  PosErrorView,
  PosEvent,
  PosResult,
  QueueStatusView,
  SaleView,
  SettingsView,
} from '../../src-shared/contract'
import { TEST_CARDS, type TestCardName } from '../../src-main/training'

type Handler<K extends OperationName> = (
  request: OperationRequest<K>,
) => PosResult<OperationResults[K]> | Promise<PosResult<OperationResults[K]>>
type Handlers = { [K in OperationName]?: Handler<K> }

export interface RecordedCall {
  operation: OperationName
  request: unknown
}

export function ok<T>(value: T): PosResult<T> {
  return { ok: true, value }
}

/** A refusal as the agent sends it: the catalogue's retryable flag and words for the code. */
export function err(code: ErrorCode, message: string = code): { ok: false; error: PosErrorView } {
  return failed(code, message)
}

/** Test cards as a training agent lists them: the simulator's own words for each name. */
export function trainingCardsNamed(...names: TestCardName[]): AppInfo['trainingCards'] {
  return names.map((name) => ({ name, ...TEST_CARDS[name].trainee }))
}

export function makeAppInfo(overrides: Partial<AppInfo> = {}): AppInfo {
  return {
    mode: 'production',
    currency: 'USD',
    terminalId: 'T-0001',
    storeName: 'Corner Cafe',
    merchantId: 'M-CORNER',
    storeAddress: ['12 Main Street'],
    restaurantMode: true,
    tipTolerancePercent: 20,
    saleLimits: { maxSaleMinor: 1_000_000, confirmAboveMinor: 100_000 },
    receipts: { printer: false, email: false },
    trainingCards: [],
    alarms: [],
    ...overrides,
  }
}

export function makeSale(overrides: Partial<SaleView> = {}): SaleView {
  return {
    id: 'T-0001-00000001',
    state: 'readingCard',
    amountMinor: 1234,
    currency: 'USD',
    tipMinor: 0,
    tipState: 'none',
    autoCapture: false,
    offline: false,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    businessDay: '2026-01-15',
    ...overrides,
  }
}

export function makeQueue(overrides: Partial<QueueStatusView> = {}): QueueStatusView {
  return { count: 0, storedCount: 0, storedAmountMinor: {}, attentionCount: 0, lockedCount: 0, ...overrides }
}

export function makeQueueItem(overrides: Partial<QueueItemView> = {}): QueueItemView {
  return {
    seq: 1,
    saleId: 'T-0001-00000001',
    operation: 'payment',
    state: 'pending',
    attempts: 0,
    amountMinor: 1234,
    currency: 'USD',
    createdAt: 1_700_000_000_000,
    nextAttemptAt: 1_700_000_000_000,
    lastFailure: null,
    lastError: null,
    expiresInMs: 3_600_000,
    ...overrides,
  }
}

export function makeReport(overrides: Partial<DayReportView> = {}): DayReportView {
  return {
    batch: { number: 4 },
    businessDay: '2026-01-15',
    closable: true,
    overridable: false,
    counts: {
      approved: 0,
      declined: 0,
      offline: 0,
      stored: 0,
      reversed: 0,
      cancelled: 0,
      needsAttention: 0,
      abandoned: 0,
      notReceived: 0,
      returns: 0,
    },
    notReceivedMinor: {},
    storedMinor: {},
    confirmedNetMinor: {},
    totals: [],
    tipsMinor: {},
    returnsMinor: {},
    grandTotalMinor: {},
    byOperator: [],
    byShift: [],
    sales: [],
    ...overrides,
  }
}

export function makeSettings(overrides: Partial<SettingsView> = {}): SettingsView {
  return {
    offlineBaseUrl: 'https://offline.acquirer.example',
    aid: 'ACQ-0001',
    storeId: 'S-0001',
    terminalId: 'T-0001',
    merchantId: 'M-0001',
    signingKey: { present: false },
    ...overrides,
  }
}

interface Held {
  operation: OperationName
  resolve(result: PosResult<unknown>): void
}

export class FakeBridge implements PosBridge {
  readonly calls: RecordedCall[] = []
  private readonly handlers: Handlers = {}
  private readonly listeners = new Set<(event: PosEvent) => void>()
  private readonly reconnectListeners = new Set<() => void>()
  private readonly connectionListeners = new Set<(state: 'up' | 'down') => void>()
  private readonly holding = new Set<OperationName>()
  private readonly held: Held[] = []

  constructor(appInfo: AppInfo = makeAppInfo()) {
    this.on('appInfo', () => ok(appInfo))
    this.on('settings', () => ok(makeSettings()))
    this.on('deviceStatus', () => ok({ connected: true, port: '/dev/ttyACM0', busy: false }))
    this.on('queueStatus', () => ok(makeQueue()))
    this.on('queueItems', () => ok([]))
    this.on('listSales', () => ok([]))
    this.on('dayReport', () => ok(makeReport()))
  }

  /** Answers `operation` with `handler` from now on. */
  on<K extends OperationName>(operation: K, handler: Handler<K>): this {
    ;(this.handlers as Record<string, unknown>)[operation] = handler
    return this
  }

  /** Holds answers to `operation` until `release` (to test what happens while a call is in flight). */
  hold(operation: OperationName): void {
    this.holding.add(operation)
  }

  /** Answers the oldest held call of `operation` with `result`. */
  release<K extends OperationName>(operation: K, result: PosResult<OperationResults[K]>): void {
    const index = this.held.findIndex((h) => h.operation === operation)
    if (index < 0) throw new Error(`no held call of ${operation}`)
    const [entry] = this.held.splice(index, 1)
    this.holding.delete(operation)
    entry?.resolve(result)
  }

  async call<K extends OperationName>(operation: K, request: OperationRequest<K>): Promise<PosResult<OperationResults[K]>> {
    this.calls.push({ operation, request: structuredClone(request) })
    if (this.holding.has(operation)) {
      return new Promise((resolve) => this.held.push({ operation, resolve: resolve as (r: PosResult<unknown>) => void }))
    }
    const handler = this.handlers[operation]
    if (!handler) return err('INTERNAL', `fake bridge has no answer for ${operation}`)
    return handler(request)
  }

  subscribe(listener: (event: PosEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener)
    return () => this.reconnectListeners.delete(listener)
  }

  onConnection(listener: (state: 'up' | 'down') => void): () => void {
    this.connectionListeners.add(listener)
    return () => this.connectionListeners.delete(listener)
  }

  /** Reports the agent gone ('down') or answering again ('up'), as the HTTP bridge does. */
  connection(state: 'up' | 'down'): void {
    for (const listener of [...this.connectionListeners]) listener(state)
  }

  emit(event: PosEvent): void {
    for (const listener of [...this.listeners]) listener(event)
  }

  reconnect(): void {
    for (const listener of [...this.reconnectListeners]) listener()
  }

  get subscriberCount(): number {
    return this.listeners.size
  }

  callsOf<K extends OperationName>(operation: K): Array<OperationRequest<K>> {
    return this.calls.filter((c) => c.operation === operation).map((c) => c.request as OperationRequest<K>)
  }
}
