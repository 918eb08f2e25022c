/**
 * The card prompt's time limit, for the cashier too: in its last twenty seconds the sale screen says
 * how long is left and offers More time (the same extension the customer display offers), so a sale
 * does not end "no card in time" while the cashier helps a customer find the card.
 */
import { useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { cardPromptLimit, useNow, usePos } from '../../store'

export function CardTimeLeft() {
  const now = useNow(1000)
  const limit = usePos(useShallow((s) => cardPromptLimit(s, now)))
  const extendCardRead = usePos((s) => s.extendCardRead)
  const [extending, setExtending] = useState(false)
  if (!limit) return null
  return (
    <div className="notice notice-warn card-time-left" data-testid="cashier-time-left">
      <span role="timer">
        Time for the card is almost up: {limit.secondsLeft === 1 ? '1 second' : `${limit.secondsLeft} seconds`} left.
        {limit.canExtend ? '' : ' No more time can be given.'}
      </span>
      {limit.canExtend && (
        <button
          type="button"
          className="button"
          data-testid="cashier-more-time"
          disabled={extending}
          onClick={() => {
            setExtending(true)
            void extendCardRead().finally(() => setExtending(false))
          }}
        >
          More time
        </button>
      )}
    </div>
  )
}
