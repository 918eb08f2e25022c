/**
 * The customer-facing display: a second view of the same agent (`/customer` in the browser, a second
 * window on a second screen in Electron), read-only, large enough to read at arm's length. It shows
 * the amount, what the customer is asked to do, the result and a thank-you, then a welcome. Nothing
 * else: no menu, no card number, no sale number, no cashier's reason.
 */
import { useEffect, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { moneyText } from '../../components/money-text'
import { counterSale, customerView, isTraining, useNow, usePos } from '../../store'

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

  return (
    <main className={`customer-display tone-${view.tone}`} data-testid="customer-display" data-kind={view.kind}>
      {training && (
        <p className="customer-training" data-testid="customer-training">
          Training: no real card is charged
        </p>
      )}
      {view.amountMinor !== null && view.currency !== null && (
        <p className="customer-amount" data-testid="customer-amount">
          <span className="customer-amount-label">Total</span> {moneyText(view.amountMinor, view.currency)}
        </p>
      )}
      <div className="customer-message" role="status" aria-live="polite" aria-atomic="true" data-testid="customer-message">
        <h1 className="customer-title">{loaded ? view.title : 'Welcome'}</h1>
        {view.detail && <p className="customer-detail">{view.detail}</p>}
      </div>
    </main>
  )
}
