/**
 * The day's sales: state in words, receipt, void and return (the customer presents the card again);
 * above them, the search (a day or a closed batch; amount, card, reference, operator).
 */
import { useEffect, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import type { SaleView } from '../../../../src-shared/contract'
import { Badge } from '../../components/Badge'
import { DisabledReason } from '../../components/DisabledReason'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { moneyText } from '../../components/money-text'
import { timeOfDay } from '../../components/time-text'
import {
  counterBusy,
  describeError,
  listedSales,
  receiptAvailable,
  returnableSaleIds,
  rowReason,
  saleWords,
  searching,
  tipStateWords,
  usePos,
  usePosStore,
  voidableSaleIds,
} from '../../store'
import { ReturnPanel } from './ReturnPanel'
import { SalesSearchForm } from './SalesSearchForm'
import { VoidPanel } from './VoidPanel'

/** A sale its returns gave back in whole or in part reads so, not "Approved". */
function returnedWords(sale: SaleView): { title: string; tone: 'info' } | null {
  if (sale.kind === 'return' || (sale.returnedMinor ?? 0) === 0) return null
  return { title: (sale.returnableMinor ?? 0) === 0 ? 'Returned' : 'Partly returned', tone: 'info' }
}

export function TransactionsScreen() {
  const store = usePosStore()
  const sales = usePos(useShallow(listedSales))
  const searchOn = usePos((s) => searching(s.salesSearch))
  const salesError = usePos((s) => s.salesError)
  const voidingSaleId = usePos((s) => s.voidingSaleId)
  const voidable = usePos(useShallow(voidableSaleIds))
  const returnable = usePos(useShallow(returnableSaleIds))
  const returnOpen = usePos((s) => s.returnOfId !== null || s.returnWithoutSale)
  const busy = usePos(counterBusy)
  const { showReceipt, voidSale, refreshSales, openReturn, openReturnWithoutSale } = usePos(
    useShallow((s) => ({
      showReceipt: s.showReceipt,
      voidSale: s.voidSale,
      refreshSales: s.refreshSales,
      openReturn: s.openReturn,
      openReturnWithoutSale: s.openReturnWithoutSale,
    })),
  )
  const [confirming, setConfirming] = useState<SaleView | null>(null)
  // The search stays folded until asked for (or while one is on): the sales and their Void and Return
  // come a few key presses after the screen opens, and more than one row fits an 800x480 screen.
  const [finding, setFinding] = useState(false)
  const searchShown = finding || searchOn

  useEffect(() => {
    // The screen opens on everything since the last close; the search form starts empty too.
    void store.getState().searchSales(null)
    void store.getState().refreshSales()
  }, [store])

  return (
    <section className="screen" aria-labelledby="transactions-title">
      <div className="screen-head">
        <h2 id="transactions-title">Transactions of the day</h2>
        <div className="report-controls">
          <button
            type="button"
            className="button"
            data-testid="return-without-sale"
            disabled={busy}
            aria-describedby={busy ? 'return-without-sale-why' : undefined}
            onClick={openReturnWithoutSale}
          >
            Return without a sale
          </button>
          <button type="button" className="button" onClick={() => void refreshSales()}>
            Refresh list
          </button>
          <button
            type="button"
            className="button"
            data-testid="find-sale"
            aria-expanded={searchShown}
            disabled={searchOn}
            aria-describedby={searchOn ? 'find-sale-why' : undefined}
            onClick={() => setFinding((shown) => !shown)}
          >
            {searchShown ? 'Hide the search' : 'Find a sale'}
          </button>
        </div>
      </div>
      <DisabledReason id="return-without-sale-why" reason={busy ? 'A sale is running at the counter.' : null} />
      {salesError && (
        <p className="notice notice-error" role="alert">
          {describeError(salesError)}
        </p>
      )}
      <DisabledReason id="find-sale-why" reason={searchOn ? 'A search is on: Clear it to hide the search.' : null} />
      {searchShown && <SalesSearchForm />}
      {voidingSaleId && <VoidPanel />}
      {returnOpen && <ReturnPanel />}
      {sales.length === 0 ? (
        <p className="empty" role="status">
          {searchOn ? 'No sales match the search.' : 'No sales yet today.'}
        </p>
      ) : (
        <table className="table sales-table" data-testid="transactions-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Amount</th>
              <th scope="col">Card</th>
              <th scope="col">Status</th>
              <th scope="col">Tip</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sales.map((sale) => {
              const words = returnedWords(sale) ?? saleWords(sale)
              const original = sale.kind === 'return' && sale.originalId ? sales.find((s) => s.id === sale.originalId) : undefined
              const reason = rowReason(sale)
              const label = `${sale.kind === 'return' ? 'return of ' : ''}${moneyText(sale.amountMinor, sale.currency)} at ${timeOfDay(sale.createdAt)}`
              return (
                <tr key={sale.id} data-testid={`sale-row-${sale.id}`} data-focus-row={sale.id}>
                  <td>{timeOfDay(sale.createdAt)}</td>
                  <td>
                    {sale.kind === 'return'
                      ? `Return ${moneyText(sale.amountMinor, sale.currency)}`
                      : moneyText(sale.amountMinor, sale.currency)}
                    {sale.kind === 'return' && (original || !sale.originalId) && (
                      <span className="row-reason">{original ? `of the sale at ${timeOfDay(original.createdAt)}` : 'without a sale'}</span>
                    )}
                  </td>
                  <td>
                    {sale.brand || sale.maskedPan ? (
                      <>
                        {sale.brand}
                        {sale.brand && sale.maskedPan ? ' ' : ''}
                        {/* On a narrow screen only the last digits show (app.css): a row stays one line high. */}
                        {sale.maskedPan && (
                          <span className="card-number">
                            <span className="card-number-head">{sale.maskedPan.slice(0, -4)}</span>
                            {sale.maskedPan.slice(-4)}
                          </span>
                        )}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    <Badge tone={words.tone}>{words.title}</Badge>
                    {reason && <span className="row-reason">{reason}</span>}
                  </td>
                  <td>
                    {sale.kind === 'return'
                      ? '—'
                      : sale.tipMinor > 0
                        ? moneyText(sale.tipMinor, sale.currency)
                        : tipStateWords(sale.tipState)}
                  </td>
                  <td>
                    <div className="row-actions">
                      {receiptAvailable(sale) && (
                        <button
                          type="button"
                          className="button"
                          aria-label={`Receipt for ${label}`}
                          data-testid={`receipt-${sale.id}`}
                          onClick={() => showReceipt(sale.id)}
                        >
                          Receipt
                        </button>
                      )}
                      {voidable.includes(sale.id) && (
                        <button
                          type="button"
                          className="button button-danger"
                          aria-label={`Void ${label}`}
                          data-testid={`void-${sale.id}`}
                          onClick={() => setConfirming(sale)}
                        >
                          Void
                        </button>
                      )}
                      {returnable.includes(sale.id) && (
                        <button
                          type="button"
                          className="button"
                          aria-label={`Return ${label}`}
                          data-testid={`return-${sale.id}`}
                          onClick={() => openReturn(sale.id)}
                        >
                          Return
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Void ${moneyText(confirming.amountMinor, confirming.currency)}?`}
          confirmLabel="Void sale"
          cancelLabel="Keep the sale"
          testId="void-confirm-dialog"
          onConfirm={() => {
            const id = confirming.id
            setConfirming(null)
            void voidSale(id)
          }}
          onCancel={() => setConfirming(null)}
        >
          <p>
            {confirming.state === 'storedOffline'
              ? 'This payment is still stored on the terminal: it is withdrawn and never sent to the bank.'
              : 'The customer presents the same card again to void it.'}
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
