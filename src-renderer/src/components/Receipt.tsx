/**
 * One printed copy of a sale's receipt: masked card number only (the contract carries no more),
 * entry mode, and for a chip card the application id (AID) and label, as card-present receipts show.
 */
import type { SaleView } from '../../../src-shared/contract'
import { moneyText } from './money-text'
import { dateTimeText } from './time-text'

export interface ReceiptCopyProps {
  sale: SaleView
  copy: 'merchant' | 'customer'
  storeName?: string
  terminalId: string
  /** Cashier words for the sale's state and read method (from the store's word tables). */
  stateTitle: string
  readMethod: string
  /** The sale's reason in plain words, if any. */
  reason: string | null
  /** The authorisation code is printed only on a payment that stands. */
  showAuthCode: boolean
}

export function ReceiptCopy({ sale, copy, storeName, terminalId, stateTitle, readMethod, reason, showAuthCode }: ReceiptCopyProps) {
  const total = sale.amountMinor + sale.tipMinor
  const rows: Array<[string, string | undefined]> = [
    ['Date', dateTimeText(sale.createdAt)],
    ['Terminal', terminalId],
    ['Sale', sale.id],
    ['Card', [sale.brand, sale.maskedPan].filter(Boolean).join(' ') || undefined],
    ['Entry', readMethod],
    ['AID', sale.applicationId],
    ['Application', sale.applicationLabel],
    ['Auth code', showAuthCode ? sale.authCode : undefined],
    ['Reference', sale.svcTransID],
  ]
  return (
    <article className="receipt-copy" aria-label={`${copy === 'merchant' ? 'Merchant' : 'Customer'} copy`} data-testid={`receipt-${copy}`}>
      <header className="receipt-head">
        <p className="receipt-store">{storeName ?? 'Store'}</p>
        <p className="receipt-copy-name">{copy === 'merchant' ? 'MERCHANT COPY' : 'CUSTOMER COPY'}</p>
      </header>
      <dl className="receipt-rows">
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label} className="receipt-row">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <dl className="receipt-rows receipt-amounts">
        <div className="receipt-row">
          <dt>Amount</dt>
          <dd>{moneyText(sale.amountMinor, sale.currency)}</dd>
        </div>
        {sale.tipMinor > 0 && (
          <div className="receipt-row">
            <dt>Tip</dt>
            <dd>{moneyText(sale.tipMinor, sale.currency)}</dd>
          </div>
        )}
        <div className="receipt-row receipt-total">
          <dt>Total</dt>
          <dd>{moneyText(total, sale.currency)}</dd>
        </div>
      </dl>
      <p className="receipt-outcome">{stateTitle.toUpperCase()}</p>
      {reason && <p className="receipt-reason">{reason}</p>}
      {sale.state === 'storedOffline' && <p className="receipt-reason">Approved offline: stored, to be sent to the bank.</p>}
      {copy === 'merchant' && <p className="receipt-footer">Keep this copy.</p>}
      {copy === 'customer' && <p className="receipt-footer">Please keep this copy for your records.</p>}
    </article>
  )
}
