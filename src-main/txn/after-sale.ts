/**
 * What happens to a payment after the customer left: a void (the card presented again, checked
 * against the sale's card, then a cancel queued; a stored payment still in the queue is withdrawn
 * instead), a tip, a restaurant capture, a manager's retry of a message that needed attention, and
 * close of day. Each is a step on the engine (step-engine.ts), a peer of the sale and the return.
 */
import { BatchClosedMeanwhileError, type JournalStore } from '../journal'
import { PosError } from '../../src-shared/pos-error'
import { STANDING_PAYMENT } from '../../src-shared/sale'
import { businessDay } from './business-day'
import { closedBatchReport, openBatchReport, summarise, type DayReport, type FrozenSummary } from './close-of-day'
import type { CounterLock } from './counter-lock'
import { readFailure, type CounterReader } from './counter-reader'
import type { SaleLimits } from './sale-request'
import { toSaleView, type SaleView } from './sale-view'
import type { StepEngine } from './step-engine'
import { checkTip, maxTotalMinor, type TipPolicy } from './tip-policy'
import type { WriteAhead } from './write-ahead'

export interface AfterSaleDeps {
  journal: JournalStore
  engine: StepEngine
  counterReader: CounterReader
  writeAhead: WriteAhead
  lock: CounterLock
  tips: TipPolicy
  limits: SaleLimits
  now: () => Date
}

export class AfterSale {
  constructor(private readonly deps: AfterSaleDeps) {}

  /**
   * A void holds the counter while the card is asked for again. A stored payment still waiting in
   * the queue is withdrawn, once the store (when there is one) has withdrawn its copy too; one being
   * forwarded right now is refused until its answer is in.
   */
  async voidSale(id: string, by?: string): Promise<SaleView> {
    const { engine, writeAhead, lock } = this.deps
    this.assertBatchOpen(id)
    await lock.during(
      id,
      'a void',
      async () => {
        if (this.storedPaymentQueue(id) !== 'neverSent')
          return engine.step(id, { type: 'voidRequested', paymentQueue: this.storedPaymentQueue(id) }, { by })
        // The store's answer takes a round trip (at most store.ackTimeoutMs), outside the commit; the
        // queue is read again after it: it may have claimed the payment meanwhile.
        await writeAhead.voidAtStore(id, (storeCopy) =>
          engine.step(id, { type: 'voidRequested', paymentQueue: this.storedPaymentQueue(id), storeCopy }, { by }),
        )
      },
      () => writeAhead.sale(id).state === 'voidReadingCard',
    )
    return toSaleView(writeAhead.sale(id))
  }

  /**
   * The effect readCard{purpose:'void'}: the customer presents the card again. Only the card the sale
   * was paid with (the journal's keyed fingerprint, never the number) may void it: another card ends
   * the void before anything is sent or kept, and the payment stands.
   */
  async readCardForVoid(id: string): Promise<void> {
    const { writeAhead, journal, engine } = this.deps
    const sale = writeAhead.sale(id)
    const result = await this.deps.counterReader.read(sale, 'void')
    if (result.kind !== 'card') return engine.step(id, { type: 'voidCardNotRead', reason: readFailure(result) })
    if (sale.cardFingerprint === undefined || sale.cardFingerprint !== journal.fingerprint(result.card.pan))
      return engine.step(id, { type: 'voidCardNotRead', reason: 'this is not the card the sale was paid with' })
    await engine.step(id, { type: 'voidCardRead' }, { card: result.card })
  }

  /**
   * Where a stored payment stands, for its void. "Never sent" must be provable: the item was never
   * claimed for sending (a claim counts an attempt, durably, before anything goes out) and the sale
   * never went to a manager (a manager's retry starts the count again).
   */
  private storedPaymentQueue(id: string): 'neverSent' | 'maybeSent' | 'inflight' | 'none' {
    const { journal } = this.deps
    const queued = journal.outbox
      .ofSale(id)
      .find((item) => item.operation === 'payment' && (item.state === 'pending' || item.state === 'inflight'))
    if (queued === undefined) return 'none'
    if (queued.state === 'inflight') return 'inflight'
    const retried = journal.events(id).some((event) => event.type === 'forwardGaveUp' || event.type === 'managerRetry')
    return queued.attempts === 0 && !retried ? 'neverSent' : 'maybeSent'
  }

  async adjustTip(id: string, tipMinor: number, managerOverride = false, by?: string): Promise<SaleView> {
    this.assertBatchOpen(id)
    const sale = this.deps.writeAhead.sale(id)
    const maxTotal = maxTotalMinor(this.deps.limits)
    const check = checkTip(this.deps.tips, sale.amountMinor, tipMinor, managerOverride, maxTotal, sale.currency)
    if (!check.ok) throw new PosError(check.needsOverride ? 'TIP_NEEDS_OVERRIDE' : 'TIP_INVALID', check.reason)
    await this.deps.engine.step(id, { type: 'tipRequested', tipMinor, maxTotalMinor: maxTotal }, { by })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  async capture(id: string, by?: string): Promise<SaleView> {
    await this.deps.engine.step(id, { type: 'captureRequested' }, { by })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  /** A manager takes note that a stored payment the bank declined will not be paid. */
  async acknowledge(id: string, by?: string): Promise<SaleView> {
    await this.deps.engine.step(id, { type: 'attentionAcknowledged' }, { by })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  async managerRetry(id: string, by?: string): Promise<SaleView> {
    await this.deps.engine.step(id, { type: 'managerRetry' }, { by })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  /** A batch's report (the open one by default); nothing changes. */
  dayReport(batch?: number): DayReport {
    const { journal } = this.deps
    const open = journal.batches.openNumber()
    if (batch === undefined || batch === open) {
      const reported = { batch: { number: open }, businessDay: businessDay(this.deps.now()) }
      return openBatchReport(reported, journal.salesOfOpenBatch().map(toSaleView), journal.shifts.ofOpenBatch())
    }
    const closed = journal.batches.get(batch)
    if (!closed) throw new PosError('NO_SUCH_BATCH', `there is no batch ${batch} on this terminal (the open batch is ${open})`)
    const reported = {
      batch: {
        number: closed.number,
        closedAt: closed.closedAt,
        ...(closed.managerOverride ? { managerOverride: true } : {}),
        ...(closed.closedBy !== undefined ? { closedBy: closed.closedBy } : {}),
      },
      businessDay: closed.businessDay,
    }
    return closedBatchReport(reported, JSON.parse(closed.summary) as FrozenSummary, journal.salesOfBatch(batch).map(toSaleView))
  }

  /**
   * Close of day closes the open batch: refused while reversals are pending; in restaurant mode
   * every authorised payment of the batch is captured for base plus tip (docs/gateway.md §D3
   * "Capture"), queued like the rest; a stored one's capture waits in the queue behind the payment
   * and follows its forward. The batch then takes exactly the sales it counted, with its totals as
   * they stand, in one commit; a sale started meanwhile goes to the next batch.
   *
   * `batch` names the batch the caller means: a repeat of a close that already happened returns that
   * batch and closes nothing else.
   */
  async closeDay(batch?: number, managerOverride = false, by?: string): Promise<DayReport> {
    const { journal, writeAhead } = this.deps
    const open = journal.batches.openNumber()
    if (batch !== undefined && batch < open) return this.dayReport(batch)
    if (batch !== undefined && batch > open) {
      throw new PosError('NO_SUCH_BATCH', `batch ${batch} is not open yet (the open batch is ${open})`)
    }
    const before = this.dayReport()
    if (!before.closable && !(managerOverride && before.overridable)) return before
    const members = before.sales.map((sale) => sale.id)
    // The override is recorded on each sale it passes over, in the sale's own history.
    for (const sale of before.sales)
      if (sale.state === 'needsAttention') await this.deps.engine.step(sale.id, { type: 'closeOverridden' }, { by })
    for (const id of members) {
      const sale = writeAhead.sale(id)
      if (!sale.autoCapture && STANDING_PAYMENT.has(sale.state)) await this.capture(id, by)
    }
    // Checked again on the sales as they are now: a void may have started while the captures were written.
    const at = this.deps.now()
    // The close ends the shift still open (journal/batch-store.ts): its totals are frozen as ended now.
    const shifts = journal.shifts
      .ofOpenBatch()
      .map((shift) => ({ ...shift, endedAt: shift.endedAt ?? Math.max(shift.startedAt, at.getTime()) }))
    const counted = openBatchReport(
      { batch: before.batch, businessDay: before.businessDay },
      members.map((id) => toSaleView(writeAhead.sale(id))),
      shifts,
    )
    if (!counted.closable && !(managerOverride && counted.overridable)) return counted
    try {
      const closed = journal.batches.close({
        saleIds: members,
        closedAt: at.getTime(),
        businessDay: businessDay(at),
        managerOverride: !counted.closable,
        summary: JSON.stringify(summarise(counted.sales, shifts)),
        closedBy: by,
      })
      return this.dayReport(closed.number)
    } catch (error) {
      // Another close (the POS and the screen at once) took these sales first: that is the close asked for.
      if (error instanceof BatchClosedMeanwhileError) return this.dayReport(open)
      throw error
    }
  }

  /** Sales of a closed batch stay as closed: no void, no tip change (a refund is the way back). */
  private assertBatchOpen(id: string): void {
    const batch = this.deps.writeAhead.sale(id).batchNumber
    if (batch !== undefined) throw new PosError('BATCH_CLOSED', `sale ${id} belongs to closed batch ${batch}`)
  }
}
