/**
 * One printed copy of a receipt, drawn from the one receipt model (src-shared/receipt): the same
 * lines the receipt printer, the email and the nexo answer carry. A field is a label and its value;
 * text lines are centred; the signature line is room to sign.
 */
import type { Receipt } from '../../../src-shared/receipt'

export function ReceiptCopy({ receipt }: { receipt: Receipt }) {
  const name = receipt.copy === 'merchant' ? 'Merchant copy' : 'Customer copy'
  return (
    <article className="receipt-copy" aria-label={name} data-testid={`receipt-${receipt.copy}`}>
      {receipt.lines.map((line, index) => {
        const key = `${index}`
        switch (line.kind) {
          case 'title':
            return (
              <p key={key} className="receipt-store">
                {line.text}
              </p>
            )
          case 'text':
            return (
              <p key={key} className={line.strong ? 'receipt-text receipt-strong' : 'receipt-text'}>
                {line.text}
              </p>
            )
          case 'field':
            return (
              <div key={key} className={line.strong ? 'receipt-row receipt-total' : 'receipt-row'}>
                <span className="receipt-label">{line.label}</span>
                <span className="receipt-value">{line.value}</span>
              </div>
            )
          case 'rule':
            return <hr key={key} className="receipt-rule" />
          case 'signature':
            return (
              <div key={key} className="receipt-signature" data-testid="receipt-signature">
                <span aria-hidden="true">X</span>
                <span className="receipt-signature-caption">Cardholder signature</span>
              </div>
            )
        }
      })}
    </article>
  )
}
