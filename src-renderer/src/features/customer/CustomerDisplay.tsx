/**
 * The customer-facing display: a second view of the same agent (`/customer` in the browser, a second
 * window on a second screen in Electron), read-only, large enough to read at arm's length. It shows
 * the amount, what the customer is asked to do, the result and a thank-you, then a welcome. Nothing
 * else: no menu, no card number, no sale number, no cashier's reason.
 */
import { useEffect, useMemo, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { moneyText, spokenMoney } from '../../components/money-text'
import { cardPromptLimit, counterSale, customerView, isTraining, useNow, usePos } from '../../store'
import { platformSpeech, useSpokenPrompts } from './use-spoken-prompts'
import { platformChime, useTimeWarningCue } from './use-time-warning'
import { CardTimeLeft, MORE_TIME_WORDS, TIME_WARNING_WORDS } from '../sale/CardTimeLeft'

export { TIME_WARNING_WORDS } from '../sale/CardTimeLeft'

/** How the amount is introduced, on screen and spoken: to pay, refunded, or a payment being cancelled. */
const AMOUNT_WORDS: Readonly<Record<string, string>> = { Total: 'Total', Refund: 'Refund', Cancel: 'Cancelling' }

/** What the display says, as one line to speak: the amount (in words a speech engine says as money), then the instruction or the outcome. */
export function spokenLine(view: {
  amountLabel?: string
  amountMinor: number | null
  currency: string | null
  title: string
  detail: string
}): string {
  const amount =
    view.amountMinor !== null && view.currency !== null
      ? `${AMOUNT_WORDS[view.amountLabel ?? 'Total'] ?? 'Total'} ${spokenMoney(view.amountMinor, view.currency)}${view.amountLabel === 'Refund' ? ' to your card' : ''}. `
      : ''
  return `${amount}${view.title}.${view.detail ? ` ${view.detail}` : ''}`.replace(/\.\./g, '.').replace(/!\./g, '!')
}

export function CustomerDisplay() {
  const now = useNow(1000)
  const training = usePos(isTraining)
  const loaded = usePos((s) => s.appInfo !== null)
  const busyId = usePos((s) => counterSale(s.sales)?.id ?? null)
  const [followedId, setFollowedId] = useState<string | null>(null)
  useEffect(() => {
    if (busyId !== null) setFollowedId(busyId)
  }, [busyId])
  const view = usePos(useShallow((s) => customerView(s, now, busyId ?? followedId)))
  // Switched on by the customer, with one large control that needs no speech to find; or for one sale
  // by the cashier or the POS (the sale's `speech`), which the customer can still switch off. And high contrast.
  const [speaking, setSpeaking] = useState(false)
  const saleId = busyId ?? followedId
  const saleAsks = usePos((s) => saleId !== null && s.sales[saleId]?.speech === true)
  const [silencedSale, setSilencedSale] = useState<string | null>(null)
  const asked = saleAsks && saleId !== silencedSale
  const spoken = speaking || asked
  const [contrast, setContrast] = useState(false)
  // The customer's own choices (spoken help, high contrast) are theirs: once their sale's result gave
  // way to the welcome, the next customer starts silent and in the usual colours.
  const [lastKind, setLastKind] = useState(view.kind)
  if (lastKind !== view.kind) {
    setLastKind(view.kind)
    if (lastKind === 'result' && view.kind === 'welcome') {
      setSpeaking(false)
      setContrast(false)
    }
  }
  const speech = useMemo(platformSpeech, [])
  const limit = usePos(useShallow((s) => cardPromptLimit(s, now)))
  const chime = useMemo(platformChime, [])
  useTimeWarningCue(limit !== null, chime)
  const warning = limit ? ` ${TIME_WARNING_WORDS}${limit.canExtend ? ` ${MORE_TIME_WORDS}` : ''}` : ''
  useSpokenPrompts(`${spokenLine(view)}${warning}`, spoken, speech)

  return (
    <main
      className={`customer-display tone-${view.tone}${contrast ? ' customer-contrast' : ''}`}
      data-testid="customer-display"
      data-kind={view.kind}
    >
      {training && (
        <p className="customer-training" data-testid="customer-training">
          Training: no real card is charged
        </p>
      )}
      {view.amountMinor !== null && view.currency !== null && (
        <p className="customer-amount" data-testid="customer-amount">
          <span className="customer-amount-label">{AMOUNT_WORDS[view.amountLabel]}</span> {moneyText(view.amountMinor, view.currency)}
          {view.amountLabel === 'Refund' && <span className="customer-amount-label"> to your card</span>}
        </p>
      )}
      <div className="customer-message" role="status" aria-live="polite" aria-atomic="true" data-testid="customer-message">
        <h1 className="customer-title">{loaded ? view.title : 'Welcome'}</h1>
        {view.detail && <p className="customer-detail">{view.detail}</p>}
      </div>
      <CardTimeLeft audience="customer" />
      <div className="customer-access">
        {speech && (
          <button
            type="button"
            className="customer-access-button"
            data-testid="customer-speech"
            aria-pressed={spoken}
            onClick={() => {
              if (!spoken) return setSpeaking(true)
              setSpeaking(false)
              if (asked) setSilencedSale(saleId)
            }}
          >
            {spoken ? 'Spoken help is on' : 'Spoken help'}
          </button>
        )}
        <button
          type="button"
          className="customer-access-button"
          data-testid="customer-contrast"
          aria-pressed={contrast}
          onClick={() => setContrast((on) => !on)}
        >
          {contrast ? 'High contrast is on' : 'High contrast'}
        </button>
      </div>
    </main>
  )
}
