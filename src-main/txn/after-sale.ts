/**
 * What happens to a payment after the customer left: a void (the card presented again, then a
 * cancel queued; a stored payment still in the queue is withdrawn instead), a tip, a restaurant
 * capture, a manager's retry of a message that needed attention, and close of day.
 */
import type { JournalStore } from '../journal'
import { PosError } from '../../src-shared/pos-error'
import { STANDING_PAYMENT } from '../../src-shared/sale'
import { businessDay } from './business-day'
import { dayReport, type DayReport } from './close-of-day'
import type { CounterLock } from './counter-lock'
import type { SaleFlow } from './sale-flow'
import { toSaleView, type SaleView } from './sale-view'
import { checkTip, type TipPolicy } from './tip-policy'
import type { WriteAhead } from './write-ahead'

export interface AfterSaleDeps {
  journal: JournalStore
  flow: SaleFlow
  writeAhead: WriteAhead
  lock: CounterLock
  tips: TipPolicy
  now: () => Date
}

export class AfterSale {
  constructor(private readonly deps: AfterSaleDeps) {}

  /**
   * A void holds the counter while the card is asked for again. A stored payment still waiting in
   * the queue is withdrawn; one being forwarded right now is refused until its answer is in.
   */
  async voidSale(id: string): Promise<SaleView> {
    const { flow, writeAhead, lock } = this.deps
    await lock.during(
      id,
      'a void',
      () => flow.step(id, { type: 'voidRequested', paymentQueue: this.storedPaymentQueue(id) }),
      () => writeAhead.sale(id).state === 'voidReadingCard',
    )
    return toSaleView(writeAhead.sale(id))
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

  async adjustTip(id: string, tipMinor: number, managerOverride = false): Promise<SaleView> {
    const sale = this.deps.writeAhead.sale(id)
    const check = checkTip(this.deps.tips, sale.amountMinor, tipMinor, managerOverride)
    if (!check.ok) throw new PosError(check.needsOverride ? 'TIP_NEEDS_OVERRIDE' : 'TIP_INVALID', check.reason)
    await this.deps.flow.step(id, { type: 'tipRequested', tipMinor })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  async capture(id: string): Promise<SaleView> {
    await this.deps.flow.step(id, { type: 'captureRequested' })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  /** A manager takes note that a stored payment the bank declined will not be paid. */
  async acknowledge(id: string): Promise<SaleView> {
    await this.deps.flow.step(id, { type: 'attentionAcknowledged' })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  async managerRetry(id: string): Promise<SaleView> {
    await this.deps.flow.step(id, { type: 'managerRetry' })
    return toSaleView(this.deps.writeAhead.sale(id))
  }

  /** The day's report; nothing changes. */
  dayReport(day: string = businessDay(this.deps.now())): DayReport {
    return dayReport(day, this.deps.journal.salesOfDay(day).map(toSaleView))
  }

  /**
   * Close of day: refused while reversals are pending; in restaurant mode every authorised payment
   * of the day is captured for base plus tip (docs/gateway.md §D3 "Capture"), queued like the rest;
   * a stored one's capture waits in the queue behind the payment and follows its forward.
   */
  async closeDay(day: string = businessDay(this.deps.now()), managerOverride = false): Promise<DayReport> {
    const before = this.dayReport(day)
    if (!before.closable && !(managerOverride && before.overridable)) return before
    // The override is recorded on each sale it passes over, in the sale's own history.
    for (const sale of before.sales) if (sale.state === 'needsAttention') await this.deps.flow.step(sale.id, { type: 'closeOverridden' })
    for (const sale of this.deps.journal.salesOfDay(day)) {
      if (!sale.autoCapture && STANDING_PAYMENT.has(sale.state)) await this.capture(sale.id)
    }
    return this.dayReport(day)
  }
}
