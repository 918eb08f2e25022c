/** The day's sales by id, kept current from answers and `sale` events. Pure helpers. */
import type { SaleView } from '../../../src-shared/contract'

export type SalesById = Readonly<Record<string, SaleView>>

/** The newer view wins; an answer that arrives after a later event must not roll the sale back. */
export function upsertSale(sales: SalesById, sale: SaleView): SalesById {
  const existing = sales[sale.id]
  if (existing && existing.updatedAt > sale.updatedAt) return sales
  return { ...sales, [sale.id]: sale }
}

/**
 * A fresh list replaces the cache, except that a sale the list has not caught up with yet (an event
 * arrived meanwhile) keeps its newer view, and the sales in `keep` (on the counter now) stay.
 */
export function salesFromList(list: readonly SaleView[], previous: SalesById, keep: ReadonlyArray<string | null> = []): SalesById {
  const next: Record<string, SaleView> = {}
  for (const sale of list) next[sale.id] = sale
  for (const sale of Object.values(previous)) {
    const listed = next[sale.id]
    if (listed ? listed.updatedAt < sale.updatedAt : keep.includes(sale.id)) next[sale.id] = sale
  }
  return next
}

// The state classes the screens use (the counter waits, a payment that stands) are the shared
// vocabulary's: src-shared/sale.
export { COUNTER_BUSY as COUNTER_WAITS, STANDING_PAYMENT } from '../../../src-shared/sale'
