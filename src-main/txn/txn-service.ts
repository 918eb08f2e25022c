/**
 * The engine's public operations, wired from its parts: the step engine (step-engine.ts) and the
 * flows that are peers over it, the sale (sale-flow.ts, read it first), the return (return-flow.ts)
 * and what happens after a sale (after-sale.ts); the write-ahead step (write-ahead.ts), the card
 * vault, the counter lock and the queue items. This file puts the flows' effects in the engine's one
 * map, routes calls, and tells listeners what the journal now says.
 */
import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import type { CardReader } from '../device'
import type { HostClient } from '../gateway'
import type { JournalStore, SaleRecord, SaleSearch } from '../journal'
import type { QueueReplica } from '../store'
import { COUNTER_BUSY, type SaleState } from '../../src-shared/sale'
import { PosError } from '../../src-shared/pos-error'
import type { BatchSummaryView } from '../../src-shared/contract'
import { AfterSale } from './after-sale'
import { batchSummaryView, type DayReport } from './close-of-day'
import { CardVault } from './card-vault'
import { CounterLock } from './counter-lock'
import { CounterReader } from './counter-reader'
import type { QueueAnswerSink, QueueEvent, QueueSettlement } from './forwarder'
import { QueueItems } from './queue-items'
import { ReturnFlow, type ReturnRequest } from './return-flow'
import { SaleFlow } from './sale-flow'
import { StepEngine, type CardReadHandlers } from './step-engine'
import type { SaleRequest, TxnSettings } from './sale-request'
import { toSaleView, type SaleView } from './sale-view'
import { transition } from './txn-machine'
import { toSale } from './sale-record'
import { WriteAhead } from './write-ahead'

export type { SaleRequest, TxnSettings } from './sale-request'
export type { ReturnRequest } from './return-flow'

export interface TxnServiceDeps {
  journal: JournalStore
  reader: CardReader
  host: HostClient
  settings: TxnSettings
  logger: Logger
  now?: () => Date
  /** Wakes the store-and-forward queue after something was enqueued. */
  onEnqueued?: () => void
  /** The store's copy of the queue (docs/store.md); absent when no store is configured. */
  replica?: QueueReplica | undefined
}

export type TxnServiceEvent = { type: 'sale'; sale: SaleView }

export class TxnService extends EventEmitter<{ update: [TxnServiceEvent] }> implements QueueAnswerSink {
  private readonly lock = new CounterLock()
  private readonly writeAhead: WriteAhead
  private readonly engine: StepEngine
  private readonly flow: SaleFlow
  private readonly afterSale: AfterSale
  private readonly returns: ReturnFlow
  private readonly waiters = new Map<string, Array<(sale: SaleView) => void>>()

  constructor(private readonly deps: TxnServiceDeps) {
    super()
    const now = deps.now ?? (() => new Date())
    const { journal, logger, settings } = deps
    const vault = new CardVault(journal, logger)
    const queueItems = new QueueItems({ journal, vault, merchant: settings.merchant, now })
    this.writeAhead = new WriteAhead({
      journal,
      vault,
      queueItems,
      logger,
      limits: settings.limits,
      currency: settings.currency,
      published: (record) => this.published(record),
      onEnqueued: deps.onEnqueued,
      replica: deps.replica,
    })
    const lock = this.lock
    const writeAhead = this.writeAhead
    const engine = (this.engine = new StepEngine({ writeAhead, lock, logger }))
    const counterReader = new CounterReader(deps.reader, settings.cardReadTimeoutSeconds, logger)
    const peers = { now, lock, writeAhead, engine, counterReader }
    this.flow = new SaleFlow({ ...deps, ...peers, vault })
    this.afterSale = new AfterSale({ journal, ...peers, tips: settings.tips, limits: settings.limits })
    this.returns = new ReturnFlow({ ...deps, ...peers })
    // The effect map: each effect to the flow that owns it; a card read to the flow it reads for.
    const reads: CardReadHandlers = {
      purchase: (id) => this.flow.readCard(id),
      void: (id) => this.afterSale.readCardForVoid(id),
      return: (id) => this.returns.readCard(id),
    }
    engine.serve({
      readCard: (id, effect) => reads[effect.purpose](id),
      sendPayment: (id) => this.flow.sendPayment(id),
      completeCard: (id, effect) => this.flow.completeCard(id, effect.result),
      cancelCardRead: (id) => counterReader.cancel(id),
    })
  }

  // ---- at the counter (sale-flow.ts) ----

  startSale(request: SaleRequest): SaleView {
    return this.flow.start(request)
  }

  // `by`, on the steps a person takes: the operator signed in at the counter, kept on the sale's event.

  cancelSale(id: string, by?: string): Promise<void> {
    return this.flow.cancel(id, by)
  }

  confirmDuplicate(id: string, charge: boolean, by?: string): Promise<void> {
    return this.flow.confirmDuplicate(id, charge, by)
  }

  /** Resolves when the sale reaches a state where the counter no longer waits on it. */
  waitForOutcome(id: string): Promise<SaleView> {
    const sale = this.deps.journal.get(id)
    if (sale && !COUNTER_BUSY.has(sale.state)) return Promise.resolve(toSaleView(sale))
    return new Promise((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]))
  }

  // ---- after the sale (after-sale.ts, return-flow.ts) ----

  /** A return: credits part or all of a sale (or, with a manager, none) to the card presented again. */
  startReturn(request: ReturnRequest): SaleView {
    return this.returns.start(request)
  }

  voidSale(id: string, by?: string): Promise<SaleView> {
    return this.afterSale.voidSale(id, by)
  }

  adjustTip(id: string, tipMinor: number, managerOverride = false, by?: string): Promise<SaleView> {
    return this.afterSale.adjustTip(id, tipMinor, managerOverride, by)
  }

  capture(id: string): Promise<SaleView> {
    return this.afterSale.capture(id)
  }

  managerRetry(id: string, by?: string): Promise<SaleView> {
    return this.afterSale.managerRetry(id, by)
  }

  /** The open batch's report, or closed batch `batch`'s with its totals as closed. */
  dayReport(batch?: number): DayReport {
    return this.afterSale.dayReport(batch)
  }

  /** Closes the open batch (`batch`: the one the caller means; a repeat returns it). */
  closeDay(batch?: number, managerOverride = false, by?: string): Promise<DayReport> {
    return this.afterSale.closeDay(batch, managerOverride, by)
  }

  /** Closed batches, newest first. */
  listBatches(): BatchSummaryView[] {
    return this.deps.journal.batches.list().map(batchSummaryView)
  }

  /**
   * The sales a search finds, oldest first (docs/local-api.md "Finding sales"): without a day or a
   * batch, those of the open batch. A batch number is a closed batch, or the open batch's own number.
   */
  searchSales(search: SaleSearch): SaleView[] {
    const { journal } = this.deps
    let batch = search.batch
    if (typeof batch === 'number') {
      const open = journal.batches.openNumber()
      if (batch === open) batch = 'open'
      else if (!journal.batches.get(batch))
        throw new PosError('NO_SUCH_BATCH', `there is no batch ${batch} on this terminal (the open batch is ${open})`)
    }
    if (batch === undefined && search.day === undefined) batch = 'open'
    return journal.searchSales({ ...search, batch }).map(toSaleView)
  }

  acknowledge(id: string, by?: string): Promise<SaleView> {
    return this.afterSale.acknowledge(id, by)
  }

  get(id: string): SaleView | undefined {
    const record = this.deps.journal.get(id)
    return record ? toSaleView(record) : undefined
  }

  // ---- the queue and the restart ----

  /** A forwarded item's answer, or the queue giving up on it (called by the forwarder in its batch). */
  applyQueueEvent(id: string, event: QueueEvent, settleOutbox: QueueSettlement): SaleState | undefined {
    const written = this.writeAhead.commit(id, event, { settleOutbox })
    return written.ok ? written.state : undefined
  }

  /** Settles, after a restart, every sale that was in flight (txn-machine `recovered`). */
  async recover(): Promise<number> {
    const { journal } = this.deps
    journal.outbox.recoverInflight()
    let recovered = 0
    for (const sale of journal.openSales()) {
      if (!transition(toSale(sale), { type: 'recovered' }).ok) continue
      await this.engine.step(sale.id, { type: 'recovered' })
      recovered++
    }
    return recovered
  }

  /** Every journaled change: the counter is free again once a sale leaves it; listeners learn the new state. */
  private published(record: SaleRecord): void {
    const view = toSaleView(record)
    if (!COUNTER_BUSY.has(view.state)) {
      this.lock.release(record.id)
      for (const resolve of this.waiters.get(record.id) ?? []) resolve(view)
      this.waiters.delete(record.id)
    }
    this.emit('update', { type: 'sale', sale: view })
  }
}

export { businessDay } from './business-day'
