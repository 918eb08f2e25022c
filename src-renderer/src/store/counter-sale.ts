/**
 * One counter, whoever starts the sale. A sale that holds the counter but that this window did not
 * start (the POS rang it up through the local API, or this window was opened while it ran) becomes the
 * sale on screen, so the cashier sees it live, can stop it while that is safe, and sees its result.
 * Pure: applied to sale events and to the list loaded at start.
 */
import type { SaleView } from '../../../src-shared/contract'
import { COUNTER_BUSY } from '../../../src-shared/sale'
import type { PosState } from './store-types'

type CounterState = Pick<PosState, 'currentSaleId' | 'voidingSaleId' | 'starting' | 'sales'>

/** A sale at the counter that is a purchase (a void or a return of an earlier sale has its own panel). */
function runsAtCounter(sale: SaleView): boolean {
  return COUNTER_BUSY.has(sale.state) && sale.state !== 'voidReadingCard' && sale.kind !== 'return'
}

/** The change that puts `sale` on the sale screen, or null when it is already there or must not be. */
export function adoptRunningSale(state: CounterState, sale: SaleView): Partial<PosState> | null {
  // While this window's own startSale is on its way, a sale event may be that very sale.
  if (state.starting || !runsAtCounter(sale)) return null
  if (sale.id === state.currentSaleId || sale.id === state.voidingSaleId) return null
  const current = state.currentSaleId ? state.sales[state.currentSaleId] : undefined
  if (current && COUNTER_BUSY.has(current.state)) return null
  return { currentSaleId: sale.id, prompt: null, amountToConfirm: null, saleError: null, receiptSaleId: null, screen: 'sale' }
}

/** The newest sale running at the counter, if any (after a load, or a start refused because one runs). */
export function runningSale(sales: PosState['sales']): SaleView | null {
  let newest: SaleView | null = null
  for (const sale of Object.values(sales)) if (runsAtCounter(sale) && (!newest || sale.createdAt > newest.createdAt)) newest = sale
  return newest
}
