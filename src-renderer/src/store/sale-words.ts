/**
 * The sale's words for the screens: the shared tables (src-shared/sale/sale-words.ts, also used by
 * the exports), and its reason in plain words.
 */
import type { SaleView } from '../../../src-shared/contract'
import { plainReason } from './reason-words'

export * from '../../../src-shared/sale/sale-words'

/** The sale's reason in plain words, or null when there is none worth showing. */
export function saleReasonWords(sale: Pick<SaleView, 'reason'>): string | null {
  return sale.reason ? plainReason(sale.reason) : null
}
