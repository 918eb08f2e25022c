/**
 * The card prompt's time limit, one notice for both sides of the counter: in its last twenty seconds
 * the cashier's sale screen and the customer display say how long is left and offer More time (the
 * same extension, a bounded number of times), so a sale does not end "no card in time" while the
 * customer looks for the card. Each side in its own words and size.
 */
import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { cardPromptLimit, useNow, usePos } from '../../store'

/** What is said when the card prompt's time is nearly up (no seconds: it would be read again every second). */
export const TIME_WARNING_WORDS = 'Time is almost up.'
export const MORE_TIME_WORDS = 'Press More time on the screen to have longer.'

export function CardTimeLeft({ audience = 'cashier' }: { audience?: 'cashier' | 'customer' }) {
  const now = useNow(1000)
  const limit = usePos(useShallow((s) => cardPromptLimit(s, now)))
  const extendCardRead = usePos((s) => s.extendCardRead)
  const [extending, setExtending] = useState(false)
  if (!limit) return null
  const customer = audience === 'customer'
  const seconds = limit.secondsLeft === 1 ? '1 second' : `${limit.secondsLeft} seconds`
  const moreTime = limit.canExtend && (
    <button
      type="button"
      className={customer ? 'customer-access-button customer-more-time' : 'button'}
      data-testid={customer ? 'customer-more-time' : 'cashier-more-time'}
      disabled={extending}
      onClick={() => {
        setExtending(true)
        void extendCardRead().finally(() => setExtending(false))
      }}
    >
      More time
    </button>
  )
  if (customer)
    return (
      <div className="customer-time-warning" data-testid="customer-time-warning">
        <p role="alert" className="customer-time-words">
          {TIME_WARNING_WORDS}
          {limit.canExtend ? ` ${MORE_TIME_WORDS}` : ''}
        </p>
        <p className="customer-time-left" data-testid="customer-time-left">
          {seconds} left
        </p>
        {moreTime}
      </div>
    )
  return (
    <div className="notice notice-warn card-time-left" data-testid="cashier-time-left">
      <span role="timer">
        Time for the card is almost up: {seconds} left.
        {limit.canExtend ? '' : ' No more time can be given.'}
      </span>
      {moreTime}
    </div>
  )
}
