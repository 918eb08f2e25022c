/**
 * What the cashier may need once the sale has ended, under its result: the next step (New sale, the
 * receipt) first, then the facts: the reason in plain words, amount, card, auth code (only on a
 * payment that stands), the sale's number.
 */
import type { SaleView } from '../../../../src-shared/contract'
import { moneyText } from '../../components/money-text'
import { readMethodWords, receiptAvailable, saleReasonWords, showsAuthCode, usePos } from '../../store'

export function SaleResultActions({ sale }: { sale: SaleView }) {
  const showReceipt = usePos((s) => s.showReceipt)
  const newSale = usePos((s) => s.newSale)
  return (
    <>
      <button
        type="button"
        className="button button-large button-primary"
        data-testid="new-sale-button"
        aria-keyshortcuts="Enter"
        onClick={newSale}
      >
        New sale
      </button>
      {receiptAvailable(sale) && (
        <button type="button" className="button button-large" data-testid="show-receipt-button" onClick={() => showReceipt(sale.id)}>
          Show receipt
        </button>
      )}
    </>
  )
}

export function SaleFacts({ sale }: { sale: SaleView }) {
  const card = [sale.brand, sale.maskedPan].filter(Boolean).join(' ')
  const reason = saleReasonWords(sale)
  return (
    <dl className="facts result-facts">
      {/* Why it did not go through comes first: on a small screen the facts below may need scrolling. */}
      {reason && (
        <div>
          <dt>Reason</dt>
          <dd data-testid="result-reason">{reason}</dd>
        </div>
      )}
      <div>
        <dt>Amount</dt>
        <dd>{moneyText(sale.amountMinor, sale.currency)}</dd>
      </div>
      {card && (
        <div>
          <dt>Card</dt>
          <dd>
            {card} · {readMethodWords(sale.readMethod)}
          </dd>
        </div>
      )}
      {showsAuthCode(sale) && (
        <div>
          <dt>Auth code</dt>
          <dd data-testid="result-auth-code">{sale.authCode}</dd>
        </div>
      )}
      <div>
        <dt>Sale</dt>
        <dd>{sale.id}</dd>
      </div>
    </dl>
  )
}
