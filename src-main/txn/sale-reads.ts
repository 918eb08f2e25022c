/**
 * The sales as the journal has them, read for the doors: one sale by id or by the POS's reference,
 * its position in the journal (an event stream's resume point), the changes a stream missed, the sale
 * at the counter. The application layer reads sales here, never from the journal itself, so a sale
 * looks the same whichever door asks. Searches of a day or a batch are day-flow.ts.
 */
import type { JournalStore } from '../journal'
import { COUNTER_BUSY } from '../../src-shared/sale'
import { toSaleView, type SaleView } from './sale-view'

export class SaleReads {
  constructor(private readonly journal: Pick<JournalStore, 'get' | 'byReference' | 'events' | 'openSales' | 'saleChangesAfter'>) {}

  get(id: string): SaleView | undefined {
    const record = this.journal.get(id)
    return record ? toSaleView(record) : undefined
  }

  /** The sale a POS rang up under its own `reference`. */
  byReference(reference: string): SaleView | undefined {
    const record = this.journal.byReference(reference)
    return record ? toSaleView(record) : undefined
  }

  /** The journal position of a sale's latest change. */
  lastSeq(id: string): number | undefined {
    return this.journal.events(id).at(-1)?.seq
  }

  /** The sales changed after journal position `afterSeq` (each once, at its latest change, at most `limit`) and the newest position. */
  changesAfter(afterSeq: number, limit: number): { changes: Array<{ seq: number; saleId: string }>; lastSeq: number } {
    return this.journal.saleChangesAfter(afterSeq, limit)
  }

  /** The sale holding the counter now, if one does. */
  atCounter(): SaleView | undefined {
    const record = this.journal.openSales().find((sale) => COUNTER_BUSY.has(sale.state))
    return record ? toSaleView(record) : undefined
  }
}
