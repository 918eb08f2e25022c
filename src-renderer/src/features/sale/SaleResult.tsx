/** How the sale ended, in cashier words, with what the cashier may need: auth code, reason, receipt. */
import type { SaleView } from '../../../../src-shared/contract'
import { moneyText } from '../../components/money-text'
import { readMethodWords, receiptAvailable, SALE_WORDS, usePos } from '../../store'

export function SaleResult({ sale }: { sale: SaleView }) {
  const words = SALE_WORDS[sale.state]
  const showReceipt = usePos((s) => s.showReceipt)
  const newSale = usePos((s) => s.newSale)
  const card = [sale.brand, sale.maskedPan].filter(Boolean).join(' ')
  return (
    <section
      className={`sale-result tone-${words.tone}`}
      aria-labelledby={`result-${sale.id}`}
      data-testid="sale-result"
      data-state={sale.state}
    >
      <h2 id={`result-${sale.id}`} className="result-heading" data-testid="result-heading">
        {words.title}
      </h2>
      <p className="result-detail">{words.detail}</p>
      <dl className="facts">
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
        {sale.authCode && (
          <div>
            <dt>Auth code</dt>
            <dd data-testid="result-auth-code">{sale.authCode}</dd>
          </div>
        )}
        {sale.reason && (
          <div>
            <dt>Reason</dt>
            <dd data-testid="result-reason">{sale.reason}</dd>
          </div>
        )}
        <div>
          <dt>Sale</dt>
          <dd>{sale.id}</dd>
        </div>
      </dl>
      <div className="result-actions">
        {receiptAvailable(sale) && (
          <button type="button" className="button button-large" data-testid="show-receipt-button" onClick={() => showReceipt(sale.id)}>
            Show receipt
          </button>
        )}
        <button type="button" className="button button-large button-primary" data-testid="new-sale-button" onClick={newSale}>
          New sale
        </button>
      </div>
    </section>
  )
}
