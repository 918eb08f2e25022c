/**
 * The agent's Prometheus metrics (prom-client), for the monitoring a fleet already runs
 * (docs/monitoring.md). A scrape reads memory only, never the journal: the queue figures are kept
 * from the forwarder's own status reports and refreshed after journaled changes (at most once per
 * `refreshMs`, off the sale's path), sales are counted as they leave the counter, host calls as they
 * are answered.
 * The reader and the alarms are read when scraped: both are in memory already.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { AlarmView } from '../../src-shared/contract'
import { PRINTER_STATES, type PrinterState } from '../../src-shared/receipt'
import { COUNTER_BUSY, FINAL, SALE_STATES, type SaleKind, type SaleState } from '../../src-shared/sale'
import type { CardReader } from '../device'
import type { GatewayOutcome } from '../gateway'
import type { JournalStore } from '../journal'
import type { Forwarder, QueueStatus, TxnService } from '../txn'

/** What the metrics watch of a running engine (src-main/app builds it). */
export interface MetricsSources {
  txn: Pick<TxnService, 'on' | 'off'>
  forwarder: Pick<Forwarder, 'on' | 'off' | 'status'>
  journal: Pick<JournalStore, 'openSales'>
  reader: Pick<CardReader, 'status'>
  alarms: () => readonly AlarmView[]
}

export interface AgentMetricsOptions {
  /** Labels of `pos_agent_info`: which terminal this is, for fleet dashboards. */
  info: { terminalId: string; mode: string; currency: string }
  /** Every alarm code the engine can raise, reported 0 while it is not raised. */
  alarmCodes: readonly string[]
  /**
   * Shortest time between two refreshes of the queue figures, in ms (5 s by default: well inside a
   * scrape interval, and a refresh reads the queue's totals, which grow with the journal).
   */
  refreshMs?: number
  now?: () => number
}

/** The counter states of a purchase; a void's card read holds the counter too, but is no new sale. */
const PURCHASE_AT_COUNTER: ReadonlySet<SaleState> = new Set([...COUNTER_BUSY].filter((state) => state !== 'voidReadingCard'))

/** How a return ends: the bank credited it, refused it, or it ended before anything was sent. */
const RETURN_OUTCOMES = [...FINAL] as const

/** Host answers take up to the gateway's 45 s response timeout (docs/gateway.md §2). */
const HOST_LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 45]

export class AgentMetrics {
  readonly registry = new Registry()
  private readonly now: () => number
  private readonly sales: Counter<'outcome'>
  private readonly returns: Counter<'outcome'>
  private readonly hostLatency: Histogram<'operation' | 'outcome'>
  private queue: QueueStatus | undefined
  private reversalsPending = 0
  private readonly atCounter = new Set<string>()
  private sources: MetricsSources | undefined
  private printerState: (() => PrinterState) | undefined
  private storeCopy: (() => 'synced' | 'buffered' | undefined) | undefined
  private readonly unwatch: Array<() => void> = []
  private refreshTimer: NodeJS.Timeout | undefined
  private lastRefreshAt = Number.NEGATIVE_INFINITY

  constructor(private readonly options: AgentMetricsOptions) {
    this.now = options.now ?? Date.now
    const registers = [this.registry]
    new Gauge({
      name: 'pos_agent_info',
      help: 'Always 1; its labels say which terminal this is.',
      labelNames: ['terminal_id', 'mode', 'currency'],
      registers,
    }).set({ terminal_id: options.info.terminalId, mode: options.info.mode, currency: options.info.currency }, 1)
    this.sales = new Counter({
      name: 'pos_agent_sales_total',
      help: 'Sales by the state they left the counter in (approved, declined, storedOffline, reversalPending, abandoned, ...).',
      labelNames: ['outcome'],
      registers,
    })
    // Every outcome from the start, so that rate() and increase() see the first sale of each.
    for (const state of SALE_STATES) if (!COUNTER_BUSY.has(state)) this.sales.inc({ outcome: state }, 0)
    this.returns = new Counter({
      name: 'pos_agent_returns_total',
      help: 'Returns by how they ended (credited, declined by the bank, abandoned before anything was sent); never counted as sales.',
      labelNames: ['outcome'],
      registers,
    })
    for (const state of RETURN_OUTCOMES) this.returns.inc({ outcome: state }, 0)
    this.hostLatency = new Histogram({
      name: 'pos_agent_host_request_duration_seconds',
      help: 'Time from sending a request to the host to its classified answer, by operation and outcome class (approved, declined, rejected, notDelivered, unknown).',
      labelNames: ['operation', 'outcome'],
      buckets: HOST_LATENCY_BUCKETS,
      registers,
    })
    this.queueGauges(registers)
    this.deviceGauges(registers)
  }

  /** A host call's answer (MeasuredHostClient calls this). */
  observeHostCall(outcome: GatewayOutcome): void {
    this.hostLatency.observe({ operation: outcome.operation, outcome: outcome.kind }, outcome.latencyMs / 1000)
  }

  /** Starts following an engine: its sales, its queue, its reader. */
  watch(sources: MetricsSources): void {
    this.sources = sources
    const onSale = ({ sale }: { sale: { id: string; state: SaleState; kind?: SaleKind | undefined } }) => {
      // A return is counted once, as a return, when it ends (a final state is reached once): never as a sale.
      if (sale.kind === 'return') {
        if (FINAL.has(sale.state)) this.returns.inc({ outcome: sale.state })
        if (!COUNTER_BUSY.has(sale.state)) this.scheduleRefresh()
        return
      }
      // A purchase at the counter enqueues nothing: only a change past it can move the queue figures.
      if (PURCHASE_AT_COUNTER.has(sale.state)) return void this.atCounter.add(sale.id)
      if (this.atCounter.delete(sale.id)) this.sales.inc({ outcome: sale.state })
      this.scheduleRefresh()
    }
    const onStatus = (status: QueueStatus) => {
      this.queue = status
      this.scheduleRefresh()
    }
    sources.txn.on('update', onSale)
    sources.forwarder.on('status', onStatus)
    this.unwatch.push(
      () => sources.txn.off('update', onSale),
      () => sources.forwarder.off('status', onStatus),
    )
    this.refresh()
  }

  /** Follows the receipt printer: the state it was last found in (asked in the background, never on a scrape). */
  watchPrinter(read: () => PrinterState): void {
    this.printerState = read
  }

  /** Follows how safe the store's copy is (the store link's last reading, in memory). */
  watchStoreCopy(read: () => 'synced' | 'buffered' | undefined): void {
    this.storeCopy = read
  }

  get contentType(): string {
    return this.registry.contentType
  }

  scrape(): Promise<string> {
    return this.registry.metrics()
  }

  close(): void {
    clearTimeout(this.refreshTimer)
    for (const off of this.unwatch.splice(0)) off()
  }

  /**
   * The queue figures from the journal, after a change: one read however many changes came in the
   * meantime, off the path of the sale that made them.
   */
  private scheduleRefresh(): void {
    if (this.refreshTimer) return
    const wait = Math.max(0, this.lastRefreshAt + (this.options.refreshMs ?? 5_000) - this.now())
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined
      this.refresh()
    }, wait)
    this.refreshTimer.unref()
  }

  private refresh(): void {
    const sources = this.sources
    if (!sources) return
    this.lastRefreshAt = this.now()
    this.queue = sources.forwarder.status()
    // Indexed: the open sales are read through the journal's partial index sale_open.
    this.reversalsPending = sources.journal.openSales().filter((sale) => sale.state === 'reversalPending').length
  }

  private queueGauges(registers: Registry[]): void {
    const fromQueue = (name: string, help: string, read: (queue: QueueStatus) => number) => {
      const gauge: Gauge = new Gauge({ name, help, registers, collect: () => void (this.queue && gauge.set(read(this.queue))) })
    }
    fromQueue('pos_agent_queue_items', 'Messages in the store-and-forward queue: waiting or in flight.', (q) => q.count)
    fromQueue('pos_agent_stored_payments', 'Payments approved offline, not yet acknowledged by the host.', (q) => q.storedCount)
    fromQueue(
      'pos_agent_needs_attention',
      'Sales that need a manager (a queued message past its limits, or refused).',
      (q) => q.attentionCount,
    )
    fromQueue('pos_agent_oldest_stored_payment_age_seconds', 'Age of the oldest stored payment; 0 when none waits.', (q) =>
      q.oldestStoredAt === undefined ? 0 : Math.max(0, (this.now() - q.oldestStoredAt) / 1000),
    )
    const stored: Gauge<'currency'> = new Gauge({
      name: 'pos_agent_stored_amount_minor',
      help: 'Amount of the stored payments, in minor units of each currency.',
      labelNames: ['currency'],
      registers,
      collect: () => {
        stored.reset()
        for (const [currency, amount] of Object.entries(this.queue?.storedAmountMinor ?? {})) stored.set({ currency }, amount)
      },
    })
    const reversals: Gauge = new Gauge({
      name: 'pos_agent_reversals_pending',
      help: 'Sales whose reversal the host has not acknowledged yet.',
      registers,
      collect: () => reversals.set(this.reversalsPending),
    })
    const reachable: Gauge = new Gauge({
      name: 'pos_agent_host_reachable',
      help: "1 when the latest call to the host (a sale's or the forwarder's) reached it, 0 when it did not; absent before the first call.",
      registers,
      collect: () => {
        reachable.reset()
        if (this.queue?.hostReachable !== undefined) reachable.set(this.queue.hostReachable ? 1 : 0)
      },
    })
  }

  private deviceGauges(registers: Registry[]): void {
    // One series per state, 1 for the state the printer is in: alert on paperOut or offline alike.
    const printer: Gauge<'state'> = new Gauge({
      name: 'pos_agent_printer_state',
      help: 'The receipt printer: 1 for the state it was last found in (ready, paperLow, paperOut, coverOpen, offline, notConfigured), 0 for the others.',
      labelNames: ['state'],
      registers,
      collect: () => {
        const now = this.printerState?.() ?? 'notConfigured'
        for (const state of PRINTER_STATES) printer.set({ state }, state === now ? 1 : 0)
      },
    })
    const connected: Gauge = new Gauge({
      name: 'pos_agent_reader_connected',
      help: '1 when the card reader is connected.',
      registers,
      collect: () => void (this.sources && connected.set(this.sources.reader.status().connected ? 1 : 0)),
    })
    // One series per class, 1 for the class the store's copy is in (docs/store.md "How safe the store's copy is").
    const storeCopy: Gauge<'durability'> = new Gauge({
      name: 'pos_agent_store_copy',
      help: "How safe the store server's copy of a queued item is: 1 for synced (on disk, or on three servers) or buffered (in one server's memory), 0 for the other; absent without a store, or before the store server answered.",
      labelNames: ['durability'],
      registers,
      collect: () => {
        storeCopy.reset()
        const now = this.storeCopy?.()
        if (now !== undefined)
          for (const durability of ['synced', 'buffered'] as const) storeCopy.set({ durability }, durability === now ? 1 : 0)
      },
    })
    const alarms: Gauge<'code'> = new Gauge({
      name: 'pos_agent_alarms',
      help: 'Alarms raised for a manager (appInfo alarms), by code.',
      labelNames: ['code'],
      registers,
      collect: () => {
        const raised = this.sources?.alarms() ?? []
        for (const code of new Set([...this.options.alarmCodes, ...raised.map((alarm) => alarm.code)]))
          alarms.set({ code }, raised.filter((alarm) => alarm.code === code).length)
      },
    })
  }
}
