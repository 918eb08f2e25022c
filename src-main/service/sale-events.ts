/**
 * The live events as integrators read them: every event about a sale names it (the agent's id and the
 * POS's `reference`), every sale event carries its journal position (`seq`, the stream's resume
 * point), and a (re)connecting stream can ask what it missed and what the terminal looks like now
 * (docs/local-api.md "Live updates").
 */
import type { AmountCheck, DevicePrompt, PosEvent, PosStreamSnapshot, QueueStatusView, SaleTag, SaleView } from '../../src-shared/contract'
import { COUNTER_BUSY } from '../../src-shared/sale'
import type { CardReader } from '../device'
import type { SaleReads } from '../txn'

export interface SaleEventsDeps {
  /** The sales as the journal has them (txn/sale-reads.ts). */
  reads: Pick<SaleReads, 'get' | 'lastSeq' | 'changesAfter' | 'atCounter'>
  reader: Pick<CardReader, 'status'>
  alarms: () => PosStreamSnapshot['alarms']
  queue: () => QueueStatusView
  /** A sale as the doors see it (spoken-sales.ts adds `speech`). */
  present: (view: SaleView) => SaleView
  now?: () => number
}

export class SaleEvents {
  /** The sale that holds the counter, or last held it: the reader works for one sale at a time. */
  private counterSale: { id: string; tag: SaleTag; busy: boolean } | undefined
  private lastPrompt: DevicePrompt | undefined
  /** The large amount the cashier is checking with the customer, until they answer or a sale starts. */
  private checking: AmountCheck | undefined

  constructor(private readonly deps: SaleEventsDeps) {}

  /** The cashier checks a large amount with the customer (null: no longer). */
  amountCheck(amount: { amountMinor: number; currency: string } | null): PosEvent {
    this.checking = amount ? { ...amount, at: (this.deps.now ?? Date.now)() } : undefined
    return { type: 'amountCheck', amount: this.checking ?? null }
  }

  /** A sale's change as an event. Called right after the change is journaled, so its latest event is this one. */
  sale(update: SaleView): PosEvent {
    const view = this.deps.present(update)
    const busy = COUNTER_BUSY.has(view.state)
    // A sale at the counter is what the customer reads now: the amount checked before it is done with.
    if (busy) this.checking = undefined
    if (busy || this.counterSale?.id === view.id) {
      if (this.counterSale?.id !== view.id) this.lastPrompt = undefined
      this.counterSale = { id: view.id, tag: tagOf(view), busy }
    }
    const seq = this.deps.reads.lastSeq(view.id)
    return { type: 'sale', sale: view, ...(seq !== undefined ? { seq } : {}), ...tagOf(view) }
  }

  /**
   * A reader prompt, named after the sale it belongs to. A prompt that comes as the sale leaves the
   * counter ("remove card") is still that sale's; a reader connection change with no sale at the
   * counter is nobody's.
   */
  device(prompt: DevicePrompt): PosEvent {
    const sale = this.counterSale
    const owned = sale !== undefined && (sale.busy || prompt.type !== 'connection')
    if (owned) this.lastPrompt = prompt
    return { type: 'device', prompt, ...(owned ? sale.tag : {}) }
  }

  alarm(alarm: { code: string; message: string }, saleId: string): PosEvent {
    const view = this.deps.reads.get(saleId)
    return { type: 'alarm', alarm, ...(view ? tagOf(view) : { saleId }) }
  }

  /**
   * The sale events a stream that dropped at `afterSeq` missed, each sale once in its current state
   * (its `seq` that of its latest change), oldest first; `lastSeq`: the journal's newest position.
   */
  missed(afterSeq: number, limit: number): { events: PosEvent[]; lastSeq: number } {
    const { changes, lastSeq } = this.deps.reads.changesAfter(afterSeq, limit)
    const events: PosEvent[] = []
    for (const { seq, saleId } of changes) {
      const view = this.deps.reads.get(saleId)
      if (view) events.push({ type: 'sale', sale: this.deps.present(view), seq, ...tagOf(view) })
    }
    return { events, lastSeq }
  }

  /**
   * The terminal now: the journal's newest position, the sale at the counter (from the journal) and
   * its latest prompt, the queue, the reader, alarms.
   */
  snapshot(): PosStreamSnapshot {
    const seq = this.deps.reads.changesAfter(Number.MAX_SAFE_INTEGER, 0).lastSeq
    const found = this.deps.reads.atCounter()
    const sale = found ? this.deps.present(found) : undefined
    const prompt = sale && this.counterSale?.id === sale.id ? this.lastPrompt : undefined
    return {
      seq,
      at: (this.deps.now ?? Date.now)(),
      ...(sale ? { sale } : {}),
      ...(prompt ? { prompt } : {}),
      queue: this.deps.queue(),
      device: this.deps.reader.status(),
      alarms: this.deps.alarms(),
      ...(this.checking && !sale ? { amountCheck: this.checking } : {}),
    }
  }
}

function tagOf(view: SaleView): SaleTag {
  return { saleId: view.id, ...(view.reference !== undefined ? { reference: view.reference } : {}) }
}
