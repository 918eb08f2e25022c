/**
 * nexo's ReversalResponse for what a Reversal started: a void of the whole payment (the customer
 * presents the card again, then the bank confirms the cancel), or a referenced return of part of it
 * (a ReversedAmount below the payment's: the return flow credits it to the card the sale was paid
 * with, docs/transactions.md "Returns"). A credit journaled is success: it is sent until the bank
 * answers and never reversed, as a stored payment is a payment.
 */
import type { SaleView } from '../../src-shared/contract'
import { RETURN_AT_COUNTER } from '../../src-shared/sale'
import { failure, success } from './nexo-messages'
import { majorAmount, poiTransactionId } from './nexo-payment'

/** The answer to a Reversal that voided `sale` (or is voiding it). */
export function voidReversalBody(sale: SaleView): Record<string, unknown> {
  const reversed = sale.state === 'cancelled'
  const message = sale.reason ?? ''
  return {
    Response: reversed
      ? success({ saleId: sale.id })
      : sale.state === 'cancelPending'
        ? failure('InProgress', 'the void was sent; the bank has not confirmed it yet', { saleId: sale.id })
        : failure('Refusal', message || 'the payment was not voided', { saleId: sale.id }),
    POIData: { POITransactionID: poiTransactionId(sale) },
    OriginalPOITransaction: { POITransactionID: poiTransactionId(sale) },
    ...(reversed ? { ReversedAmount: majorAmount(sale.amountMinor, sale.currency) } : {}),
  }
}

/** The answer to a Reversal that started return `ret` of part of a payment. */
export function returnReversalBody(ret: SaleView, original: SaleView | undefined): Record<string, unknown> {
  const credited = ret.state === 'creditPending' || ret.state === 'credited'
  return {
    Response: credited
      ? success({ saleId: ret.id, returnId: ret.id })
      : RETURN_AT_COUNTER.has(ret.state)
        ? failure('InProgress', 'the customer has not presented the card yet', { saleId: ret.id })
        : failure(ret.state === 'needsAttention' ? 'UnavailableService' : 'Refusal', ret.reason ?? 'not returned', { saleId: ret.id }),
    POIData: { POITransactionID: poiTransactionId(ret) },
    OriginalPOITransaction: { POITransactionID: original ? poiTransactionId(original) : { TransactionID: ret.originalId ?? ret.id } },
    ...(credited ? { ReversedAmount: majorAmount(ret.amountMinor, ret.currency) } : {}),
  }
}

/** A return has left the counter: the card was read (or not), and the answer can be given. */
export function returnSettled(ret: SaleView): boolean {
  return !RETURN_AT_COUNTER.has(ret.state)
}
