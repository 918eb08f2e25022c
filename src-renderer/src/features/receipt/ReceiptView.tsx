/**
 * The receipt of one sale, merchant and customer copies, printable (window.print with the print
 * rules in styles/print.css, which show only this view). A modal dialog: focus stays inside while it
 * is open and goes back where it was after.
 */
import { useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import type { AppInfo, SaleView } from '../../../../src-shared/contract'
import { receiptCopies, receiptMerchantOf } from '../../../../src-shared/receipt'
import { ReceiptCopy } from '../../components/Receipt'
import { useDialogFocus } from '../../components/use-dialog-focus'
import { usePos } from '../../store'

export function ReceiptView() {
  const sale = usePos((s) => (s.receiptSaleId ? (s.sales[s.receiptSaleId] ?? null) : null))
  const appInfo = usePos((s) => s.appInfo)
  const showReceipt = usePos((s) => s.showReceipt)
  if (!sale) return null
  return <ReceiptDialog key={sale.id} sale={sale} appInfo={appInfo} close={() => showReceipt(null)} />
}

function ReceiptDialog({ sale, appInfo, close }: { sale: SaleView; appInfo: AppInfo | null; close(): void }) {
  const titleId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const closeRef = useRef<HTMLButtonElement>(null)
  useDialogFocus(dialogRef, closeRef)
  // Until the agent has told who this terminal is, the header is blank rather than wrong.
  const copies = receiptCopies(
    sale,
    appInfo ? receiptMerchantOf(appInfo) : { name: '', addressLines: [], merchantId: '', terminalId: '', training: false },
  )
  return createPortal(
    <div className="dialog-backdrop receipt-backdrop">
      <div
        ref={dialogRef}
        tabIndex={-1}
        className="dialog receipt-view"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="receipt"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            event.stopPropagation()
            close()
          }
        }}
      >
        <h2 id={titleId} className="dialog-title no-print">
          Receipt
        </h2>
        <div className="receipt-copies">
          {copies.map((receipt) => (
            <ReceiptCopy key={receipt.copy} receipt={receipt} />
          ))}
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
    </div>,
    document.body,
  )
}
