/**
 * A return, as a dialog over the list: the amount to credit (typed; what is left to return is one
 * press away, never filled in, so a hurried Enter cannot ask for the whole sale back),
 * then, once a manager approved, the reader's prompt while the customer presents the same card, then
 * how it ended. Plain words only; the agent decides what may be returned and says why it may not.
 */
import { useId, useRef, useState, type FormEvent } from 'react'
import { createPortal } from 'react-dom'
import { useShallow } from 'zustand/react/shallow'
import { moneyText } from '../../components/money-text'
import { PromptArea } from '../../components/PromptArea'
import { useDialogFocus } from '../../components/use-dialog-focus'
import { formatAmount } from '../../../../src-shared/money'
import { AmountInput } from '../../components/AmountInput'
import { describeError, isTraining, parseTypedAmount, returnPrompt, usePos } from '../../store'
import { TestCardPicker } from '../sale/TestCardPicker'

export function ReturnPanel() {
  const sale = usePos((s) => (s.returnOfId ? (s.sales[s.returnOfId] ?? null) : null))
  if (!sale) return null
  return <ReturnDialog title={`Return on the sale of ${moneyText(sale.amountMinor + sale.tipMinor, sale.currency)}`} />
}

function ReturnDialog({ title }: { title: string }) {
  const dialogRef = useRef<HTMLElement>(null)
  useDialogFocus(dialogRef)
  const sale = usePos((s) => s.sales[s.returnOfId ?? ''])!
  const started = usePos((s) => s.returnId !== null)
  const waiting = usePos((s) => s.returnId !== null && s.sales[s.returnId]?.state === 'returnReadingCard')
  const busy = usePos((s) => s.returnBusy)
  const error = usePos((s) => s.returnError)
  const prompt = usePos(useShallow((s) => returnPrompt(s)))
  const training = usePos(isTraining)
  const { startReturn, stopReturn, dismissReturn } = usePos(
    useShallow((s) => ({ startReturn: s.startReturn, stopReturn: s.stopReturn, dismissReturn: s.dismissReturn })),
  )
  const left = sale.returnableMinor ?? 0
  const [text, setText] = useState('')
  const amountId = useId()
  const [problem, setProblem] = useState<string | null>(null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const typed = parseTypedAmount(text, sale.currency)
    if (!typed.ok) return setProblem(typed.reason)
    if (typed.minor <= 0) return setProblem('Enter the amount to return.')
    if (typed.minor > left) return setProblem(`At most ${moneyText(left, sale.currency)} is left to return on this sale.`)
    setProblem(null)
    void startReturn(typed.minor)
  }

  return createPortal(
    <div className="dialog-backdrop">
      <section
        ref={dialogRef}
        className="dialog void-panel"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        data-testid="return-panel"
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return
          event.preventDefault()
          event.stopPropagation()
          if (waiting) void stopReturn()
          else if (!busy) dismissReturn()
        }}
      >
        <h2 className="dialog-title">{title}</h2>
        {!started ? (
          <form onSubmit={submit} noValidate>
            <p>
              {moneyText(left, sale.currency)} is left to return. The customer presents the same card, and a manager approves the return.
            </p>
            <label className="field">
              <span>Amount to return ({sale.currency})</span>
              <AmountInput
                id={amountId}
                className="input"
                data-testid="return-amount"
                text={text}
                currency={sale.currency}
                aria-invalid={problem !== null}
                aria-describedby={problem ? 'return-problem' : undefined}
                onText={setText}
              />
            </label>
            <button
              type="button"
              className="button return-all-left"
              data-testid="return-all-left"
              disabled={busy || left <= 0}
              onClick={() => {
                setText(formatAmount(left, sale.currency))
                setProblem(null)
                document.getElementById(amountId)?.focus()
              }}
            >
              All that is left: {moneyText(left, sale.currency)}
            </button>
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
      </section>
    </div>,
    document.body,
  )
}
