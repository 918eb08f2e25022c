/** The void on its way: the reader's prompts while the customer presents the card, then the outcome. */
import { useShallow } from 'zustand/react/shallow'
import { moneyText } from '../../components/money-text'
import { PromptArea } from '../../components/PromptArea'
import { describeError, usePos, voidingSale, voidPrompt, voidWaitsForCard } from '../../store'

export function VoidPanel() {
  const sale = usePos(voidingSale)
  const prompt = usePos(useShallow((s) => voidPrompt(s) ?? { text: '', detail: '', tone: 'info' as const }))
  const waiting = usePos(voidWaitsForCard)
  const busy = usePos((s) => s.voidBusy)
  const error = usePos((s) => s.voidError)
  const { stopVoid, dismissVoid } = usePos(useShallow((s) => ({ stopVoid: s.stopVoid, dismissVoid: s.dismissVoid })))
  if (!sale) return null
  return (
    <section className="void-panel" aria-label={`Void of ${moneyText(sale.amountMinor, sale.currency)}`} data-testid="void-panel">
      <PromptArea
        text={error ? 'The void did not start' : prompt.text}
        detail={error ? describeError(error) : prompt.detail}
        tone={error ? 'error' : prompt.tone}
        testId="void-prompt"
        label="Void status"
      />
      <div className="sale-actions">
        {waiting ? (
          <button type="button" className="button button-large button-danger" disabled={busy} onClick={() => void stopVoid()}>
            Stop the void
          </button>
        ) : (
          <button type="button" className="button button-large" disabled={busy} onClick={dismissVoid}>
            Done
          </button>
        )}
      </div>
    </section>
  )
}
