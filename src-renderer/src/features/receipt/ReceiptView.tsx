/**
 * The receipt of one sale, merchant and customer copies, printable (window.print with the print
 * rules in styles/print.css, which show only this view).
 */
import { useEffect, useId, useRef } from 'react'
import { ReceiptCopy } from '../../components/Receipt'
import { readMethodWords, SALE_WORDS, usePos } from '../../store'

export function ReceiptView() {
  const titleId = useId()
  const closeRef = useRef<HTMLButtonElement>(null)
  const sale = usePos((s) => (s.receiptSaleId ? (s.sales[s.receiptSaleId] ?? null) : null))
  const appInfo = usePos((s) => s.appInfo)
  const showReceipt = usePos((s) => s.showReceipt)

  useEffect(() => {
    closeRef.current?.focus()
  }, [sale?.id])

  if (!sale) return null
  const close = () => showReceipt(null)
  const common = {
    sale,
    terminalId: appInfo?.terminalId ?? '',
    stateTitle: SALE_WORDS[sale.state].title,
    readMethod: readMethodWords(sale.readMethod),
    ...(appInfo?.storeName !== undefined ? { storeName: appInfo.storeName } : {}),
  }
  return (
    <div className="dialog-backdrop receipt-backdrop">
      <div
        className="dialog receipt-view"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="receipt"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            close()
          }
        }}
      >
        <h2 id={titleId} className="dialog-title no-print">
          Receipt for sale {sale.id}
        </h2>
        <div className="receipt-copies">
          <ReceiptCopy {...common} copy="merchant" />
          <ReceiptCopy {...common} copy="customer" />
        </div>
        <div className="dialog-actions no-print">
          <button ref={closeRef} type="button" className="button button-large" data-testid="close-receipt-button" onClick={close}>
            Close receipt
          </button>
          <button
            type="button"
            className="button button-large button-primary"
            data-testid="print-receipt-button"
            onClick={() => window.print()}
          >
            Print receipt
          </button>
        </div>
      </div>
    </div>
  )
}
