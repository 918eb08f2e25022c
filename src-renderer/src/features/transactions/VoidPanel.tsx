/**
 * The void on its way, as a dialog over the list: wherever the cashier pressed Void, the reader's
 * prompt is in front of them while the customer presents the card again (with the test card picker in
 * training), then the outcome. Focus stays in it, and returns to the list after Done.
 */
import { useEffect, useRef } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { DisabledReason } from '../../components/DisabledReason'
import { moneyText } from '../../components/money-text'
import { PromptArea } from '../../components/PromptArea'
import { Dialog, DialogTitle } from '../../components/Dialog'
import { describeError, isTraining, usePos, voidingSale, voidPrompt, voidWaitsForCard } from '../../store'
import { TestCardPicker } from '../sale/TestCardPicker'

export function VoidPanel() {
  const sale = usePos(voidingSale)
  if (!sale) return null
  return <VoidDialog title={`Void of ${moneyText(sale.amountMinor, sale.currency)}`} />
}

function VoidDialog({ title }: { title: string }) {
  const prompt = usePos(useShallow((s) => voidPrompt(s) ?? { text: '', detail: '', tone: 'info' as const }))
  const waiting = usePos(voidWaitsForCard)
  const busy = usePos((s) => s.voidBusy)
  const stopping = usePos((s) => s.voidStopping)
  const error = usePos((s) => s.voidError)
  const training = usePos(isTraining)
  const { stopVoid, dismissVoid } = usePos(useShallow((s) => ({ stopVoid: s.stopVoid, dismissVoid: s.dismissVoid })))
  const why = stopping ? 'Stopping the void…' : busy && !waiting ? 'Getting the card reader ready…' : null
  // Once the void ended, Done has the focus: Enter closes it (on a keypad there is no Tab to it).
  const doneRef = useRef<HTMLButtonElement>(null)
  const ended = !waiting && !busy
  useEffect(() => {
    if (ended) doneRef.current?.focus()
  }, [ended])
  return (
    <Dialog
      className="void-panel"
      testId="void-panel"
      onEscape={() => {
        if (waiting) void stopVoid()
        else if (!busy) dismissVoid()
      }}
    >
      <DialogTitle>{title}</DialogTitle>
      <PromptArea
        text={error ? 'The void did not start' : prompt.text}
        detail={error ? describeError(error) : prompt.detail}
        tone={error ? 'error' : prompt.tone}
        testId="void-prompt"
        label="Void status"
      />
      <div className="sale-actions">
        {waiting ? (
          <button
            type="button"
            className="button button-large button-danger"
            data-testid="stop-void-button"
            disabled={stopping}
            aria-describedby={why ? 'void-why' : undefined}
            onClick={() => void stopVoid()}
          >
            Stop the void
          </button>
        ) : (
          <button
            type="button"
            className="button button-large button-primary"
            ref={doneRef}
            data-testid="void-done-button"
            disabled={busy}
            aria-describedby={why ? 'void-why' : undefined}
            onClick={dismissVoid}
          >
            Done
          </button>
        )}
      </div>
      <DisabledReason id="void-why" reason={why} />
      {training && waiting && <TestCardPicker focusPresent />}
    </Dialog>
  )
}
