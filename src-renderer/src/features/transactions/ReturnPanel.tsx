/**
 * A return, as a dialog over the list: the amount to credit (typed; what is left to return is one
 * press away, never filled in, so a hurried Enter cannot ask for the whole sale back),
 * then, once a manager approved, the reader's prompt while the customer presents the same card, then
 * how it ended. On a terminal with no staff no manager can approve it, so before the card prompt the
 * dialog shows what the return credits (amount, card, sale) and the cashier confirms it.
 * Plain words only; the agent decides what may be returned and says why it may not.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { moneyText } from '../../components/money-text'
import { timeOfDay } from '../../components/time-text'
import { PromptArea } from '../../components/PromptArea'
import { Dialog, DialogTitle } from '../../components/Dialog'
import { formatAmount } from '../../../../src-shared/money'
import { AmountInput } from '../../components/AmountInput'
import { describeError, hasNoStaff, isTraining, parseTypedAmount, returnPrompt, usePos } from '../../store'
import type { AppInfo, SaleView } from '../../../../src-shared/contract'
import { TestCardPicker } from '../sale/TestCardPicker'

export function ReturnPanel() {
  const sale = usePos((s) => (s.returnOfId ? (s.sales[s.returnOfId] ?? null) : null))
  const withoutSale = usePos((s) => s.returnWithoutSale)
  if (withoutSale) return <ReturnDialog title="Return without a sale" sale={null} />
  if (!sale) return null
  return <ReturnDialog title={`Return on the sale of ${moneyText(sale.amountMinor + sale.tipMinor, sale.currency)}`} sale={sale} />
}

/**
 * What a return without a sale may credit, from the terminal's limits (AppInfo saleLimits): at most
 * this much at once, and the day's limits it says. Null when the agent does not tell.
 */
function withoutSaleLimits(limits: AppInfo['saleLimits'] | undefined, currency: string): { maxMinor: number; words: string } | null {
  if (limits?.unreferencedReturnMaxMinor === undefined) return null
  const parts = [`at most ${moneyText(limits.unreferencedReturnMaxMinor, currency)} at once`]
  if (limits.unreferencedReturnPerCardDayMinor !== undefined)
    parts.push(`${moneyText(limits.unreferencedReturnPerCardDayMinor, currency)} to one card a day`)
  if (limits.unreferencedReturnPerDayMinor !== undefined)
    parts.push(`${moneyText(limits.unreferencedReturnPerDayMinor, currency)} a day in all`)
  return { maxMinor: limits.unreferencedReturnMaxMinor, words: parts.join(', ') }
}

function ReturnDialog({ title, sale }: { title: string; sale: SaleView | null }) {
  const dialogRef = useRef<HTMLDivElement>(null)
  const currency = usePos((s) => sale?.currency ?? s.appInfo?.currency ?? 'USD')
  const limits = usePos(useShallow((s) => (sale ? null : withoutSaleLimits(s.appInfo?.saleLimits, currency))))
  const started = usePos((s) => s.returnId !== null)
  const waiting = usePos((s) => s.returnId !== null && s.sales[s.returnId]?.state === 'returnReadingCard')
  const busy = usePos((s) => s.returnBusy)
  const error = usePos((s) => s.returnError)
  const prompt = usePos(useShallow((s) => returnPrompt(s)))
  const training = usePos(isTraining)
  const { startReturn, stopReturn, dismissReturn } = usePos(
    useShallow((s) => ({ startReturn: s.startReturn, stopReturn: s.stopReturn, dismissReturn: s.dismissReturn })),
  )
  // A return without a sale: its limit per return is what may be typed (the agent checks the day's too).
  const left = sale ? (sale.returnableMinor ?? 0) : (limits?.maxMinor ?? Number.MAX_SAFE_INTEGER)
  const [text, setText] = useState('')
  const amountId = useId()
  const [problem, setProblem] = useState<string | null>(null)
  // Nobody approves the return on a terminal without staff: the cashier confirms what it credits first.
  const noStaff = usePos(hasNoStaff)
  const [toConfirm, setToConfirm] = useState<number | null>(null)
  const confirmBackRef = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (toConfirm !== null) confirmBackRef.current?.focus()
  }, [toConfirm])
  // Once the return ended, Done has the focus: Enter closes it (on a keypad there is no Tab to it).
  const doneRef = useRef<HTMLButtonElement>(null)
  const ended = started && !waiting && !busy
  useEffect(() => {
    if (ended) doneRef.current?.focus()
  }, [ended])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const typed = parseTypedAmount(text, currency)
    if (!typed.ok) return setProblem(typed.reason)
    if (typed.minor <= 0) return setProblem('Enter the amount to return.')
    if (typed.minor > left)
      return setProblem(
        sale
          ? `At most ${moneyText(left, currency)} is left to return on this sale.`
          : `A return without a sale credits at most ${moneyText(left, currency)} at once.`,
      )
    setProblem(null)
    if (noStaff) return setToConfirm(typed.minor)
    void startReturn(typed.minor)
  }
  const backToAmount = () => {
    setToConfirm(null)
    // The amount field comes back after this render; the focus goes back to it.
    setTimeout(() => document.getElementById(amountId)?.focus(), 0)
  }

  return (
    <Dialog
      className="void-panel"
      testId="return-panel"
      dialogRef={dialogRef}
      onEscape={() => {
        if (waiting) void stopReturn()
        else if (toConfirm !== null && !started) backToAmount()
        else if (!busy) dismissReturn()
      }}
    >
      <DialogTitle>{title}</DialogTitle>
      {!started && toConfirm !== null ? (
        <div data-testid="return-confirm">
          <p data-testid="return-confirm-what">
            Return {moneyText(toConfirm, currency)}{' '}
            {sale
              ? `to ${[sale.brand, sale.maskedPan].filter(Boolean).join(' ') || 'the card of the sale'}, from the sale of ${moneyText(
                  sale.amountMinor + sale.tipMinor,
                  sale.currency,
                )} at ${timeOfDay(sale.createdAt)}.`
              : 'to the card the customer presents, without a sale.'}
          </p>
          <p>This terminal has no staff set up, so no manager can approve this return: you confirm it yourself.</p>
          {error && (
            <p className="notice notice-error" role="alert">
              {describeError(error)}
            </p>
          )}
          <div className="sale-actions">
            <button
              type="button"
              className="button button-large button-primary"
              data-testid="return-confirm-button"
              disabled={busy}
              onClick={() => {
                // This button gives way to the card prompt: the focus stays in the dialog meanwhile.
                dialogRef.current?.focus()
                void startReturn(toConfirm)
              }}
            >
              Return {moneyText(toConfirm, currency)}
            </button>
            <button
              type="button"
              className="button button-large"
              ref={confirmBackRef}
              data-testid="return-confirm-back"
              disabled={busy}
              onClick={backToAmount}
            >
              Back
            </button>
          </div>
        </div>
      ) : !started ? (
        <form onSubmit={submit} noValidate>
          {sale ? (
            <p>
              {moneyText(left, currency)} is left to return. The customer presents the same card
              {noStaff ? ', once you confirm the return.' : ', and a manager approves the return.'}
            </p>
          ) : (
            <p data-testid="return-limits">
              For goods bought without a sale on this terminal (another till, before the terminal was used). The customer presents the card
              to credit{noStaff ? ', once you confirm the return' : ', and a manager approves the return'}.{' '}
              {limits ? `Limits: ${limits.words}.` : 'The terminal checks its limits.'}
            </p>
          )}
          <label className="field">
            <span>Amount to return ({currency})</span>
            <AmountInput
              id={amountId}
              className="input"
              data-testid="return-amount"
              text={text}
              currency={currency}
              aria-invalid={problem !== null}
              aria-describedby={problem ? 'return-problem' : undefined}
              onText={setText}
            />
          </label>
          {sale && (
            <button
              type="button"
              className="button return-all-left"
              data-testid="return-all-left"
              disabled={busy || left <= 0}
              onClick={() => {
                setText(formatAmount(left, currency))
                setProblem(null)
                document.getElementById(amountId)?.focus()
              }}
            >
              All that is left: {moneyText(left, currency)}
            </button>
          )}
          {(problem ?? error) && (
            <p id="return-problem" className="notice notice-error" role="alert">
              {problem ?? (error ? describeError(error) : '')}
            </p>
          )}
          <div className="sale-actions">
            <button type="submit" className="button button-large button-primary" data-testid="return-start-button" disabled={busy}>
              Return {busy ? '…' : ''}
            </button>
            <button type="button" className="button button-large" disabled={busy} onClick={dismissReturn}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <PromptArea
            text={prompt?.text ?? ''}
            detail={prompt?.detail ?? ''}
            tone={prompt?.tone ?? 'info'}
            testId="return-prompt"
            label="Return status"
          />
          <div className="sale-actions">
            {waiting ? (
              <button
                type="button"
                className="button button-large button-danger"
                data-testid="stop-return-button"
                onClick={() => void stopReturn()}
              >
                Stop the return
              </button>
            ) : (
              <button
                type="button"
                className="button button-large button-primary"
                ref={doneRef}
                data-testid="return-done-button"
                onClick={dismissReturn}
              >
                Done
              </button>
            )}
          </div>
          {training && waiting && <TestCardPicker focusPresent />}
        </>
      )}
    </Dialog>
  )
}
