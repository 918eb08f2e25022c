/**
 * Training mode only: the test card the "customer" holds out to the simulated PIN pad, with what each
 * card does. Offered wherever a card is asked for (the sale, the void); a pick is for the card request
 * at hand, or the next one if none is waiting. `afterPresent` lets the screen take the focus back, so
 * Enter then does what that screen says (charge) rather than presenting the card again.
 */
import { useId, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { NoticeLine } from '../../components/Notice'
import { trainingCards, usePos } from '../../store'

export function TestCardPicker({ afterPresent }: { afterPresent?: () => void }) {
  const id = useId()
  // The cards and their words come from the agent that simulates them (appInfo.trainingCards).
  const cards = usePos(useShallow(trainingCards))
  const notice = usePos((s) => s.testCardNotice)
  const presentTestCard = usePos((s) => s.presentTestCard)
  const [picked, setPicked] = useState<string | null>(null)
  if (cards.length === 0) return null
  const card = cards.find((c) => c.name === picked) ?? cards[0]!
  const name = card.name
  return (
    <section className="test-card-picker" aria-labelledby={`${id}-title`} data-testid="test-card-picker">
      <h3 id={`${id}-title`} className="picker-title">
        Training: the customer holds out
      </h3>
      <div className="picker-row">
        <label htmlFor={`${id}-card`} className="visually-hidden">
          Test card
        </label>
        <select
          id={`${id}-card`}
          className="test-card-select"
          data-testid="test-card-select"
          value={name}
          aria-describedby={`${id}-description`}
          onChange={(event) => setPicked(event.target.value)}
        >
          {cards.map((option) => (
            <option key={option.name} value={option.name}>
              {option.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          data-testid="present-test-card"
          onClick={() => {
            afterPresent?.()
            void presentTestCard(name)
          }}
        >
          Present
        </button>
      </div>
      <p id={`${id}-description`} className="picker-description">
        {card.description}
      </p>
      <NoticeLine notice={notice} testId="test-card-notice" />
    </section>
  )
}
