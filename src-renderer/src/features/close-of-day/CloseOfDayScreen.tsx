/** Close of day: the report (counts, totals per brand and currency, tips, shifts, the audit trail's head), why it cannot close yet, close, export. */
import { useEffect, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DisabledReason } from '../../components/DisabledReason'
import { moneyText } from '../../components/money-text'
import { NoticeLine } from '../../components/Notice'
import { canCloseDay, closeBlockedReason, describeError, plainReason, usePos, usePosStore } from '../../store'
import { dateTimeText } from '../../components/time-text'
import { saveFile } from './save-file'
import { CloseAmounts, DayCounts, DayMoney, MoneyNotAtTheBank } from './DaySummary'
import { ShiftTotals } from './ShiftTotals'
import type { DayReportView } from '../../../../src-shared/contract'

/** "Batch 4 (open)", "Batch 3, closed at 2026-01-15 22:04" (local time); an agent without batches: the day. */
export function batchTitle(report: DayReportView): string {
  // An agent of an earlier version sends no batch: the business day names the report then.
  const batch = report.batch as DayReportView['batch'] | undefined
  if (!batch) return `Business day ${report.businessDay}`
  return batch.closedAt !== undefined
    ? `Batch ${batch.number}, closed at ${dateTimeText(batch.closedAt)}${batch.managerOverride ? ' by a manager' : ''}`
    : `Batch ${batch.number} (open)`
}

export function CloseOfDayScreen() {
  const store = usePosStore()
  const onPrinter = usePos((s) => s.appInfo?.receipts.printer === true)
  const printDayReport = usePos((s) => s.printDayReport)
  const receiptBusy = usePos((s) => s.receiptBusy)
  const printNotice = usePos((s) => s.reportPrintNotice)
  const report = usePos((s) => s.report)
  const reportError = usePos((s) => s.reportError)
  const loading = usePos((s) => s.reportLoading)
  const blockedReason = usePos(closeBlockedReason)
  const canClose = usePos(canCloseDay)
  const { closing, exporting, notice } = usePos(useShallow((s) => ({ closing: s.closing, exporting: s.exporting, notice: s.closeNotice })))
  const restaurantMode = usePos((s) => s.appInfo?.restaurantMode ?? false)
  const [confirming, setConfirming] = useState<false | 'close' | 'override'>(false)
  const batches = usePos((s) => s.batches)
  const reportBatch = usePos((s) => s.reportBatch)
  const closedAt = usePos((s) => s.report?.batch?.closedAt)
  const closedShown = closedAt !== undefined

  useEffect(() => {
    void store.getState().refreshReport()
  }, [store])
  // The list of closed batches, again after a close adds one.
  useEffect(() => {
    void store.getState().refreshBatches()
  }, [store, closedAt])

  const exportAs = async (format: 'csv' | 'json') => {
    const file = await store.getState().exportDay(format)
    if (file) saveFile(file)
  }

  return (
    <section className="screen" aria-labelledby="close-title">
      <div className="screen-head">
        <h2 id="close-title">Close of day{report ? `: ${batchTitle(report)}` : ''}</h2>
        <div className="report-controls">
          {batches.length > 0 && (
            <label className="report-picker">
              <span>Report of</span>
              <select
                data-testid="batch-picker"
                value={reportBatch === null ? '' : String(reportBatch)}
                onChange={(event) => void store.getState().viewBatch(event.target.value === '' ? null : Number(event.target.value))}
              >
                <option value="">The open batch</option>
                {batches.map((batch) => (
                  <option key={batch.number} value={String(batch.number)}>
                    {`Batch ${batch.number}, closed ${dateTimeText(batch.closedAt)} (${batch.saleCount} ${batch.saleCount === 1 ? 'transaction' : 'transactions'})`}
                  </option>
                ))}
              </select>
            </label>
          )}
          {/* aria-disabled, not disabled, while loading: a disabled button drops the focus (the screen opens with it there). */}
          <button
            type="button"
            className="button"
            aria-disabled={loading}
            onClick={() => {
              if (!loading) void store.getState().refreshReport()
            }}
          >
            Refresh report
          </button>
        </div>
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
            <p id="close-blocked-reason" className="notice notice-error" role="alert" data-testid="close-blocked-reason">
              The day cannot be closed yet: {plainReason(blockedReason)}
            </p>
          )}
          <h3>Money</h3>
          <DayMoney report={report} authorisedOnly={restaurantMode && report.batch.closedAt === undefined} />
          <MoneyNotAtTheBank report={report} />
          {/* The day's actions right under its money, not below every table: the close asks again with these amounts. */}
          <div className="form-actions">
            <button
              type="button"
              className="button button-large button-primary"
              data-testid="close-day-button"
              disabled={!canClose}
              aria-describedby={
                !canClose && blockedReason ? 'close-blocked-reason' : !canClose && closedShown ? 'close-closed-why' : undefined
              }
              onClick={() => setConfirming('close')}
            >
              {closing ? 'Closing…' : 'Close the day'}
            </button>
            {report.overridable && report.batch.closedAt === undefined && (
              <button
                type="button"
                className="button button-large button-danger"
                data-testid="close-anyway-button"
                disabled={closing}
                onClick={() => setConfirming('override')}
              >
                Close anyway (manager)
              </button>
            )}
            <button
              type="button"
              className="button button-large"
              data-testid="export-csv-button"
              disabled={exporting !== null}
              aria-describedby={exporting !== null ? 'export-why' : undefined}
              onClick={() => void exportAs('csv')}
            >
              Export CSV
            </button>
            <button
              type="button"
              className="button button-large"
              data-testid="export-json-button"
              disabled={exporting !== null}
              aria-describedby={exporting !== null ? 'export-why' : undefined}
              onClick={() => void exportAs('json')}
            >
              Export JSON
            </button>
            {onPrinter && (
              <button
                type="button"
                className="button button-large"
                data-testid="print-report-button"
                disabled={receiptBusy}
                onClick={() => void printDayReport(report.batch.closedAt !== undefined ? report.batch.number : undefined)}
              >
                {report.batch.closedAt !== undefined ? 'Print Z-report' : 'Print X-report'}
              </button>
            )}
          </div>
          <DisabledReason
            id="close-closed-why"
            reason={
              closedShown
                ? `This report is of batch ${report.batch.number}, already closed. To close the next one, pick "The open batch" in "Report of".`
                : null
            }
          />
          <DisabledReason id="export-why" reason={exporting !== null ? `Making the ${exporting.toUpperCase()} file…` : null} />
          <NoticeLine notice={notice} testId="close-notice" />
          <NoticeLine notice={printNotice} testId="print-report-notice" />
          <h3>Counts</h3>
          <DayCounts report={report} />
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
          <ShiftTotals report={report} />
          {report.auditHead && (
            // The audit trail's head, to write down or keep with the printed Z-report: the trail must still show it later.
            <p className="hint" data-testid="day-audit-head">
              Audit trail: record {report.auditHead.seq}, check {report.auditHead.check}
            </p>
          )}
        </>
      )}
      {confirming && report && (
        <ConfirmDialog
          title={
            (report.batch as DayReportView['batch'] | undefined)
              ? `Close batch ${report.batch.number}?`
              : `Close business day ${report.businessDay}?`
          }
          confirmLabel={confirming === 'override' ? 'Close anyway' : 'Close the day'}
          cancelLabel="Not yet"
          testId="close-confirm"
          onConfirm={() => {
            const override = confirming === 'override'
            setConfirming(false)
            void store.getState().closeDay(override)
          }}
          onCancel={() => setConfirming(false)}
        >
          <CloseAmounts report={report} />
          {report.counts.stored > 0 && (
            <p className="notice notice-warn" data-testid="close-stored-warning">
              {report.counts.stored === 1 ? '1 payment is' : `${report.counts.stored} payments are`} not at the bank yet: it is sent after
              the close, and the bank may still decline. Keep this terminal on and connected.
            </p>
          )}
          {confirming === 'override' && (
            <p>
              The sales that need a manager stay as they are and are marked as closed by a manager&apos;s decision. A manager approves this.
            </p>
          )}
          <p>
            {restaurantMode
              ? 'Each sale is sent to the bank with its tip. Enter all tips on the Tips screen first.'
              : 'This report becomes the record of the day.'}{' '}
            {(report.batch as DayReportView['batch'] | undefined)
              ? `Closing closes batch ${report.batch.number}; later sales go to batch ${report.batch.number + 1}.`
              : ''}
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
