/**
 * The receipt of one sale, merchant and customer copies, printable (window.print with the print
 * rules in styles/print.css, which show only this view), or on the terminal's receipt printer when it
 * has one, and emailed to the customer when a mail server is set up. A modal dialog: focus stays
 * inside while it is open and goes back where it was after.
 */
import { useEffect, useId, useRef, useState } from 'react'
import type { AppInfo, SaleView } from '../../../../src-shared/contract'
import { PRINTER_STATE_WORDS, receiptCopies, receiptMerchantOf } from '../../../../src-shared/receipt'
import { ReceiptCopy } from '../../components/Receipt'
import { Dialog, DialogTitle } from '../../components/Dialog'
import { usePos } from '../../store'

export function ReceiptView() {
  const sale = usePos((s) => (s.receiptSaleId ? (s.sales[s.receiptSaleId] ?? null) : null))
  const appInfo = usePos((s) => s.appInfo)
  const showReceipt = usePos((s) => s.showReceipt)
  if (!sale) return null
  return <ReceiptDialog key={sale.id} sale={sale} appInfo={appInfo} close={() => showReceipt(null)} />
}

function ReceiptDialog({ sale, appInfo, close }: { sale: SaleView; appInfo: AppInfo | null; close(): void }) {
  const closeRef = useRef<HTMLButtonElement>(null)
  // Until the agent has told who this terminal is, the header is blank rather than wrong.
  const copies = receiptCopies(
    sale,
    appInfo ? receiptMerchantOf(appInfo) : { name: '', addressLines: [], merchantId: '', terminalId: '', training: false },
  )
  return (
    <Dialog className="receipt-view" backdropClassName="receipt-backdrop" testId="receipt" initialFocus={closeRef} onEscape={close}>
      {/* Title and actions stay at the top while the copies scroll under them: a receipt is taller than a countertop screen. */}
      <div className="receipt-head no-print">
        <DialogTitle>Receipt</DialogTitle>
        <div className="dialog-actions">
          <button ref={closeRef} type="button" className="button button-large" data-testid="close-receipt-button" onClick={close}>
            Close receipt
          </button>
          <PrintButton sale={sale} appInfo={appInfo} />
        </div>
      </div>
      <ReceiptActions sale={sale} appInfo={appInfo} />
      <div className="receipt-copies">
        {copies.map((receipt) => (
          <ReceiptCopy key={receipt.copy} receipt={receipt} />
        ))}
      </div>
    </Dialog>
  )
}

/** Prints on the receipt printer when the terminal has one; otherwise through the browser's printing. */
function PrintButton({ sale, appInfo }: { sale: SaleView; appInfo: AppInfo | null }) {
  const onPrinter = appInfo?.receipts.printer === true
  const printReceipt = usePos((s) => s.printReceipt)
  const busy = usePos((s) => s.receiptBusy)
  return (
    <button
      type="button"
      className="button button-large button-primary"
      data-testid="print-receipt-button"
      disabled={onPrinter && busy}
      onClick={() => (onPrinter ? void printReceipt(sale.id) : window.print())}
    >
      {onPrinter && busy ? 'Printing…' : 'Print receipt'}
    </button>
  )
}

/** The printer's state, the email form and what came of the last print or email. */
function ReceiptActions({ sale, appInfo }: { sale: SaleView; appInfo: AppInfo | null }) {
  const printer = usePos((s) => s.printer)
  const notice = usePos((s) => s.receiptNotice)
  const busy = usePos((s) => s.receiptBusy)
  const refreshPrinter = usePos((s) => s.refreshPrinter)
  const clearReceiptNotice = usePos((s) => s.clearReceiptNotice)
  const emailReceipt = usePos((s) => s.emailReceipt)
  const [to, setTo] = useState('')
  const emailId = useId()
  const onPrinter = appInfo?.receipts.printer === true
  const byEmail = appInfo?.receipts.email === true
  useEffect(() => {
    clearReceiptNotice()
    if (onPrinter) void refreshPrinter()
  }, [onPrinter, refreshPrinter, clearReceiptNotice])
  if (!onPrinter && !byEmail) return null
  // Ready needs no word; anything else is said before the cashier presses Print.
  const printerProblem = onPrinter && printer && printer.state !== 'ready' ? PRINTER_STATE_WORDS[printer.state] : null
  return (
    <div className="receipt-actions no-print">
      {printerProblem && (
        <p className="notice notice-warning" data-testid="printer-state">
          {printerProblem}
        </p>
      )}
      {byEmail && (
        <form
          className="receipt-email"
          onSubmit={(event) => {
            event.preventDefault()
            void emailReceipt(sale.id, to.trim()).then((sent) => sent && setTo(''))
          }}
        >
          <label htmlFor={emailId}>Customer&apos;s email</label>
          <input
            id={emailId}
            type="email"
            inputMode="email"
            autoComplete="off"
            data-testid="receipt-email-input"
            value={to}
            onChange={(event) => setTo(event.target.value)}
          />
          <button type="submit" className="button" data-testid="email-receipt-button" disabled={busy || to.trim() === ''}>
            Email receipt
          </button>
        </form>
      )}
      <p role="status" className={notice ? `notice notice-${notice.tone}` : 'visually-hidden'} data-testid="receipt-notice">
        {notice?.text ?? ''}
      </p>
    </div>
  )
}
