/**
 * Tip adjustment at close: one tip field per payment, the tolerance warning and a manager override
 * on a row whose tip is above the limit, totals per currency, one submit. Validation is the store's
 * (tip-selectors.ts). The override is a manager's: with staff, the agent asks for a manager's approval
 * when the tips are sent (or the manager signed in gives it); on a terminal without staff nobody can
 * approve, so ticking it asks first and the agent records that it was allowed without a manager.
 * Enter on the box never ticks or unticks it on its own: a cashier pressing Enter to send would flip
 * overrides unseen, so Enter asks first, with or without staff.
 */
import { useEffect, useMemo, useState } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { useShallow } from 'zustand/react/shallow'
import { AmountInput } from '../../components/AmountInput'
import { DisabledReason } from '../../components/DisabledReason'
import { amountText, moneyText } from '../../components/money-text'
import { timeOfDay } from '../../components/time-text'
import { canSubmitTips, tipRows, tipStateWords, tipTotals, usePos, usePosStore } from '../../store'

/** "0.00": how an amount in this currency is keyed. */
function moneyPlaceholder(currency: string): string {
  return amountText(0, currency)
}

/** Why Send tips is greyed out, in the order a cashier would fix it. */
function tipsSubmitReason(rows: ReturnType<typeof tipRows>, withStaff: boolean): string {
  if (rows.some((row) => row.inputError !== null)) return 'Correct the tips marked in red first.'
  if (rows.some((row) => row.needsOverride))
    return withStaff ? 'A tip above the limit needs a manager override first.' : 'A tip above the limit must be allowed first.'
  return 'Type a tip first.'
}

export function TipsScreen() {
  const store = usePosStore()
  const inputs = usePos(
    useShallow((s) => ({
      sales: s.sales,
      tipDrafts: s.tipDrafts,
      tipOutcomes: s.tipOutcomes,
      appInfo: s.appInfo,
      tipsSubmitting: s.tipsSubmitting,
    })),
  )
  const rows = useMemo(() => tipRows(inputs), [inputs])
  const totals = useMemo(() => tipTotals(rows), [rows])
  const canSubmit = useMemo(() => canSubmitTips(inputs), [inputs])
  const { setTipText, setTipOverride, submitTips } = usePos(
    useShallow((s) => ({ setTipText: s.setTipText, setTipOverride: s.setTipOverride, submitTips: s.submitTips })),
  )
  const tolerance = inputs.appInfo?.tipTolerancePercent ?? 20
  // Staff set up: a manager approves an override. Without (or not known yet): the cashier is asked first.
  const withStaff = usePos((s) => s.counter?.required === true)
  const overrideWords = withStaff ? 'Manager override' : 'Allow above the limit'
  const submitWhy = canSubmit || inputs.tipsSubmitting ? null : tipsSubmitReason(rows, withStaff)
  // The box a question is open for, and whether it asks to tick (true) or untick (false) it.
  const [asking, setAsking] = useState<{ saleId: string; tick: boolean } | null>(null)
  const askedRow = asking === null ? undefined : rows.find((row) => row.sale.id === asking.saleId)

  useEffect(() => {
    void store.getState().refreshSales()
  }, [store])

  return (
    <section className="screen" aria-labelledby="tips-title">
      <div className="screen-head">
        <h2 id="tips-title">Tips</h2>
        <p className="hint">
          {withStaff
            ? `A tip above ${tolerance}% of the sale needs a manager override.`
            : `A tip above ${tolerance}% of the sale must be allowed first: this terminal has no staff, so no manager can approve it.`}
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="empty">No payments to add a tip to.</p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            void submitTips()
          }}
        >
          <table className="table tips-table" data-testid="tips-table">
            <thead>
              <tr>
                <th scope="col">Sale</th>
                <th scope="col">Amount</th>
                <th scope="col">Tip</th>
                <th scope="col">{overrideWords}</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const { sale } = row
                const name = `${moneyText(sale.amountMinor, sale.currency)} at ${timeOfDay(sale.createdAt)}`
                const messageId = `tip-message-${sale.id}`
                const message =
                  row.inputError ??
                  (row.overTolerance
                    ? `More than ${tolerance}% of the sale (limit ${moneyText(row.limitMinor, sale.currency)}).${
                        row.saved && sale.tipMinor > 0
                          ? withStaff
                            ? ' Saved with a manager override.'
                            : ' Saved, allowed above the limit.'
                          : row.override
                            ? withStaff
                              ? ' Manager override ticked.'
                              : ' Allowed above the limit.'
                            : withStaff
                              ? ' A manager must tick the override.'
                              : ' Tick "Allow above the limit" to send it.'
                      }`
                    : null)
                return (
                  <tr key={sale.id} data-testid={`tip-row-${sale.id}`}>
                    <td>
                      {timeOfDay(sale.createdAt)} · {[sale.brand, sale.maskedPan].filter(Boolean).join(' ') || sale.id}
                    </td>
                    <td>{moneyText(sale.amountMinor, sale.currency)}</td>
                    <td>
                      <label className="visually-hidden" htmlFor={`tip-${sale.id}`}>
                        Tip for {name} ({sale.currency})
                      </label>
                      <AmountInput
                        id={`tip-${sale.id}`}
                        className={`tip-input${row.inputError || row.needsOverride ? ' invalid' : ''}`}
                        data-testid={`tip-input-${sale.id}`}
                        text={row.text}
                        currency={sale.currency}
                        placeholder={moneyPlaceholder(sale.currency)}
                        aria-invalid={row.inputError !== null || row.needsOverride}
                        aria-describedby={message ? messageId : undefined}
                        onText={(text) => setTipText(sale.id, text)}
                      />
                      {message && (
                        <p
                          id={messageId}
                          className={`field-message ${row.inputError || row.needsOverride ? 'field-error' : 'field-warn'}`}
                          data-testid={`tip-warning-${sale.id}`}
                        >
                          {message}
                        </p>
                      )}
                    </td>
                    <td>
                      {/* Only where the tip is above the limit: an Enter that wraps round the screen ticks nothing. */}
                      {row.override || (row.overTolerance && !row.saved) ? (
                        <label className="checkbox">
                          <input
                            type="checkbox"
                            checked={row.override}
                            data-testid={`tip-override-${sale.id}`}
                            onKeyDown={(event) => {
                              if (event.key !== 'Enter') return
                              // Handled here, so the keypad's "Enter ticks a checkbox" leaves this box alone.
                              event.preventDefault()
                              setAsking({ saleId: sale.id, tick: !row.override })
                            }}
                            onChange={(event) => {
                              if (event.target.checked && !withStaff) setAsking({ saleId: sale.id, tick: true })
                              else setTipOverride(sale.id, event.target.checked)
                            }}
                          />
                          <span>
                            {overrideWords}
                            <span className="visually-hidden"> for {name}</span>
                          </span>
                        </label>
                      ) : (
                        <span className="hint" data-testid={`tip-override-none-${sale.id}`}>
                          Not needed
                        </span>
                      )}
                    </td>
                    <td>
                      {row.outcome ? (
                        <span className={`notice-inline notice-${row.outcome.tone}`}>{row.outcome.text}</span>
                      ) : (
                        tipStateWords(sale.tipState)
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
            <tfoot>
              {totals.map((total) => (
                <tr key={total.currency} data-testid={`tip-total-${total.currency}`}>
                  <th scope="row">
                    Total {total.currency} ({total.count})
                  </th>
                  <td>{moneyText(total.baseMinor, total.currency)}</td>
                  <td>Tips {moneyText(total.tipMinor, total.currency)}</td>
                  <td colSpan={2}>With tips {moneyText(total.totalMinor, total.currency)}</td>
                </tr>
              ))}
            </tfoot>
          </table>
          <div className="form-actions">
            <button
              type="submit"
              className="button button-large button-primary"
              data-testid="submit-tips-button"
              disabled={!canSubmit}
              aria-describedby={submitWhy ? 'tips-submit-why' : undefined}
            >
              {inputs.tipsSubmitting ? 'Sending tips…' : 'Send tips'}
            </button>
          </div>
          <DisabledReason id="tips-submit-why" reason={submitWhy} testId="tips-submit-why" />
        </form>
      )}
      {askedRow && asking?.tick && !withStaff && (
        <ConfirmDialog
          title={`Allow a tip of ${askedRow.tipMinor === null ? '' : moneyText(askedRow.tipMinor, askedRow.sale.currency)} above the limit?`}
          confirmLabel="Allow this tip"
          cancelLabel="Do not allow"
          testId="tip-allow-dialog"
          onConfirm={() => {
            setTipOverride(askedRow.sale.id, true)
            setAsking(null)
          }}
          onCancel={() => setAsking(null)}
        >
          <p>
            It is more than {tolerance}% of the sale of {moneyText(askedRow.sale.amountMinor, askedRow.sale.currency)} (limit{' '}
            {moneyText(askedRow.limitMinor, askedRow.sale.currency)}).
          </p>
          <p>
            This terminal has no staff set up, so no manager can approve it: you allow it yourself, and the audit trail records it as
            allowed without a manager. To have a manager approve such tips, add a manager under Staff.
          </p>
        </ConfirmDialog>
      )}
      {askedRow && asking && (withStaff || !asking.tick) && (
        <ConfirmDialog
          title={
            asking.tick
              ? `Tick "${overrideWords}" for ${moneyText(askedRow.sale.amountMinor, askedRow.sale.currency)}?`
              : `Untick "${overrideWords}" for ${moneyText(askedRow.sale.amountMinor, askedRow.sale.currency)}?`
          }
          confirmLabel={asking.tick ? 'Tick it' : 'Untick it'}
          cancelLabel="Leave it as it is"
          testId="tip-override-ask-dialog"
          onConfirm={() => {
            setTipOverride(askedRow.sale.id, asking.tick)
            setAsking(null)
          }}
          onCancel={() => setAsking(null)}
        >
          <p>
            {asking.tick
              ? 'A manager approves the tip above the limit when the tips are sent.'
              : 'The tip above the limit cannot be sent until the box is ticked again.'}
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
