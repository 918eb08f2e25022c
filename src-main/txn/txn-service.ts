/**
 * The engine, wired from its parts: the step engine (step-engine.ts) and the flows that are peers
 * over it, the sale (sale-flow.ts, read it first), the return (return-flow.ts), what happens after a
 * sale (after-sale-flow.ts) and the day (day-flow.ts), with the sales' reads (sale-reads.ts); the
 * write-ahead step (write-ahead.ts), the card vault, the counter lock and the queue items. This file
 * builds them, puts the flows' effects in the engine's one map and exposes the flows (callers call a
 * flow itself: nothing here only forwards), tells listeners what the journal now says, takes the
 * queue's answers and settles what was in flight at a restart.
 */
import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import type { CardReader } from '../device'
import type { HostClient } from '../gateway'
import type { JournalStore, SaleRecord } from '../journal'
import type { QueueReplica } from '../store'
import { COUNTER_BUSY, type SaleState } from '../../src-shared/sale'
import { AfterSaleFlow } from './after-sale-flow'
import { CardVault } from './card-vault'
import { CounterLock } from './counter-lock'
import { CounterReader } from './counter-reader'
import type { QueueAnswerSink, QueueEvent, QueueSettlement } from './forwarder'
import { QueueItems } from './queue-items'
import { DayFlow } from './day-flow'
import { ReturnFlow } from './return-flow'
import { SaleFlow } from './sale-flow'
import { SaleReads } from './sale-reads'
import { StepEngine, type CardReadHandlers } from './step-engine'
import type { TxnSettings } from './sale-request'
import { toSaleView, type SaleView } from './sale-view'
import { transition } from './txn-machine'
import { toSale } from './sale-record'
import { WriteAhead } from './write-ahead'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

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
  /** A sale at the counter: start, cancel, the duplicate question. */
  readonly sales: SaleFlow
  /** A return, referenced or not. */
  readonly returns: ReturnFlow
  /** A void, a tip, a capture, a manager's retry or acknowledgement. */
  readonly afterSale: AfterSaleFlow
  /** The day's report, its close, the closed batches, the search of a day's sales. */
  readonly day: DayFlow
  /** The sales as the journal has them now: by id, by reference, the one at the counter. */
  readonly reads: SaleReads
  private readonly lock = new CounterLock()
  private readonly writeAhead: WriteAhead
  private readonly engine: StepEngine
  private readonly waiters = new Map<string, Array<(sale: SaleView) => void>>()

  constructor(private readonly deps: TxnServiceDeps) {
    super()
    const now = deps.now ?? (() => new Date(SYSTEM_CLOCK.now()))
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
      clock: { now: () => now().getTime() },
    })
    const lock = this.lock
    const writeAhead = this.writeAhead
    const engine = (this.engine = new StepEngine({ writeAhead, lock, logger }))
    const counterReader = new CounterReader(deps.reader, settings.cardReadTimeoutSeconds, logger)
    const peers = { now, lock, writeAhead, engine, counterReader }
    this.sales = new SaleFlow({ ...deps, ...peers, vault })
    this.afterSale = new AfterSaleFlow({ journal, ...peers, tips: settings.tips, limits: settings.limits })
    this.returns = new ReturnFlow({ ...deps, ...peers })
    this.day = new DayFlow({ journal, engine, writeAhead, afterSale: this.afterSale, now })
    this.reads = new SaleReads(journal)
    // The effect map: each effect to the flow that owns it; a card read to the flow it reads for.
    const reads: CardReadHandlers = {
      purchase: (id) => this.sales.readCard(id),
      void: (id) => this.afterSale.readCardForVoid(id),
      return: (id) => this.returns.readCard(id),
    }
    engine.serve({
      readCard: (id, effect) => reads[effect.purpose](id),
      sendPayment: (id) => this.sales.sendPayment(id),
      completeCard: (id, effect) => this.sales.completeCard(id, effect.result),
      cancelCardRead: (id) => counterReader.cancel(id),
    })
  }

  /** Resolves when the sale reaches a state where the counter no longer waits on it. */
  waitForOutcome(id: string): Promise<SaleView> {
    const sale = this.deps.journal.get(id)
    if (sale && !COUNTER_BUSY.has(sale.state)) return Promise.resolve(toSaleView(sale))
    return new Promise((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]))
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
