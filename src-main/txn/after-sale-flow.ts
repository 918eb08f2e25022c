/**
 * What happens to a payment after the customer left: a void (the card presented again, checked
 * against the sale's card, then a cancel queued; a stored payment still in the queue is withdrawn
 * instead), a tip, a restaurant capture, a manager's retry of a message that needed attention or
 * their note that a declined one will not be paid. Each is a step on the engine (step-engine.ts), a
 * peer of the sale and the return; close of day is day-flow.ts.
 */
import type { JournalStore } from '../journal'
import { PosError } from '../../src-shared/pos-error'
import type { CounterLock } from './counter-lock'
import { readFailure, type CounterReader } from './counter-reader'
import type { SaleLimits } from './sale-request'
import { toSaleView, type SaleView } from './sale-view'
import type { StepEngine } from './step-engine'
import { checkTip, maxTotalMinor, type TipPolicy } from './tip-policy'
import type { WriteAhead } from './write-ahead'

export interface AfterSaleFlowDeps {
  journal: JournalStore
  engine: StepEngine
  counterReader: CounterReader
  writeAhead: WriteAhead
  lock: CounterLock
  tips: TipPolicy
  limits: SaleLimits
}

export class AfterSaleFlow {
  constructor(private readonly deps: AfterSaleFlowDeps) {}

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

  /** Sales of a closed batch stay as closed: no void, no tip change (a refund is the way back). */
  private assertBatchOpen(id: string): void {
    const batch = this.deps.writeAhead.sale(id).batchNumber
    if (batch !== undefined) throw new PosError('BATCH_CLOSED', `sale ${id} belongs to closed batch ${batch}`)
  }
}
