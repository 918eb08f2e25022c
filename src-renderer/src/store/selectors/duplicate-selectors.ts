/**
 * The sale a possible duplicate looks like: the same card (as the screen knows it, brand and masked
 * number), amount and currency, rung up before it. When that earlier charge did not go through and is
 * being (or was) reversed, the customer has not paid: charging again is what the cashier should do.
 */
import type { SaleView } from '../../../../src-shared/contract'
import type { PosState } from '../store-types'

const NOT_PAID = new Set(['reversalPending', 'reversed'])

export function earlierLookAlike(s: Pick<PosState, 'sales'>, sale: SaleView): SaleView | null {
  if (sale.maskedPan === undefined) return null
  let found: SaleView | null = null
  for (const other of Object.values(s.sales)) {
    if (other.id === sale.id || other.kind === 'return' || other.createdAt > sale.createdAt) continue
    if (other.maskedPan !== sale.maskedPan || other.brand !== sale.brand) continue
    if (other.amountMinor !== sale.amountMinor || other.currency !== sale.currency) continue
    if (!found || other.createdAt > found.createdAt) found = other
  }
  return found
}

/** The earlier look-alike did not charge the customer (its charge is being, or was, reversed). */
export function earlierChargeReversed(s: Pick<PosState, 'sales'>, sale: SaleView): boolean {
  const earlier = earlierLookAlike(s, sale)
  return earlier !== null && NOT_PAID.has(earlier.state)
}
