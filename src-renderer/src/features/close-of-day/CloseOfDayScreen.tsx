/** Close of day: the report (counts, totals per brand and currency, tips), why it cannot close yet, close, export. */
import { useEffect, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { moneyText } from '../../components/money-text'
import { NoticeLine } from '../../components/Notice'
import { canCloseDay, closeBlockedReason, describeError, usePos, usePosStore } from '../../store'
import { saveFile } from './save-file'

const COUNT_WORDS = [
  ['approved', 'Approved'],
  ['declined', 'Declined'],
  ['offline', 'Approved offline'],
  ['stored', 'Stored, not yet sent'],
  ['reversed', 'Reversed'],
  ['cancelled', 'Voided'],
  ['needsAttention', 'Needs a manager'],
  ['abandoned', 'Not completed'],
  ['notReceived', 'Not paid by the bank'],
] as const

export function CloseOfDayScreen() {
  const store = usePosStore()
  const report = usePos((s) => s.report)
  const reportError = usePos((s) => s.reportError)
  const loading = usePos((s) => s.reportLoading)
  const blockedReason = usePos(closeBlockedReason)
  const canClose = usePos(canCloseDay)
  const { closing, exporting, notice } = usePos(useShallow((s) => ({ closing: s.closing, exporting: s.exporting, notice: s.closeNotice })))
  const restaurantMode = usePos((s) => s.appInfo?.restaurantMode ?? false)
  const [confirming, setConfirming] = useState(false)

  useEffect(() => {
    void store.getState().refreshReport()
  }, [store])

  const exportAs = async (format: 'csv' | 'json') => {
    const file = await store.getState().exportDay(format)
    if (file) saveFile(file)
  }

  return (
    <section className="screen" aria-labelledby="close-title">
      <div className="screen-head">
        <h2 id="close-title">Close of day{report ? `: ${report.businessDay}` : ''}</h2>
        <button type="button" className="button" disabled={loading} onClick={() => void store.getState().refreshReport()}>
          Refresh report
        </button>
      </div>
      {reportError && (
        <p className="notice notice-error" role="alert">
          {describeError(reportError)}
        </p>
      )}
      {!report ? (
        <p className="empty" role="status">
          {loading ? 'Loading the report…' : 'No report yet.'}
        </p>
      ) : (
        <>
          {blockedReason && (
            <p className="notice notice-error" role="alert" data-testid="close-blocked-reason">
              The day cannot be closed yet: {blockedReason}
            </p>
          )}
          <h3>Counts</h3>
          <dl className="counts" data-testid="day-counts">
            {COUNT_WORDS.map(([key, label]) => (
              <div key={key} className="count">
                <dt>{label}</dt>
                <dd>{report.counts[key]}</dd>
              </div>
            ))}
          </dl>
          <h3>Totals by card brand</h3>
          {report.totals.length === 0 ? (
            <p className="empty">No payments.</p>
          ) : (
            <table className="table" data-testid="day-totals">
              <thead>
                <tr>
                  <th scope="col">Brand</th>
                  <th scope="col">Currency</th>
                  <th scope="col">Count</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Tips</th>
                </tr>
              </thead>
              <tbody>
                {report.totals.map((total) => (
                  <tr key={`${total.brand}-${total.currency}`}>
                    <td>{total.brand || 'Other'}</td>
                    <td>{total.currency}</td>
                    <td>{total.count}</td>
                    <td>{moneyText(total.amountMinor, total.currency)}</td>
                    <td>{moneyText(total.tipMinor, total.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Tips</h3>
          <ul className="plain-list" data-testid="day-tips">
            {Object.entries(report.tipsMinor).length === 0 ? (
              <li>No tips.</li>
            ) : (
              Object.entries(report.tipsMinor).map(([currency, minor]) => <li key={currency}>{moneyText(minor, currency)}</li>)
            )}
          </ul>
          <div className="form-actions">
            <button
              type="button"
              className="button button-large button-primary"
              data-testid="close-day-button"
              disabled={!canClose}
              onClick={() => setConfirming(true)}
            >
              {closing ? 'Closing…' : 'Close the day'}
            </button>
            <button
              type="button"
              className="button button-large"
              data-testid="export-csv-button"
              disabled={exporting !== null}
              onClick={() => void exportAs('csv')}
            >
              Export CSV
            </button>
            <button
              type="button"
              className="button button-large"
              data-testid="export-json-button"
              disabled={exporting !== null}
              onClick={() => void exportAs('json')}
            >
              Export JSON
            </button>
          </div>
          <NoticeLine notice={notice} testId="close-notice" />
        </>
      )}
      {confirming && report && (
        <ConfirmDialog
          title={`Close business day ${report.businessDay}?`}
          confirmLabel="Close the day"
          cancelLabel="Not yet"
          onConfirm={() => {
            setConfirming(false)
            void store.getState().closeDay()
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {restaurantMode
              ? 'Each sale is sent to the bank with its tip. Enter all tips on the Tips screen first.'
              : 'The report above becomes the record of the day.'}
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
