/** Training mode only: choose the test card the simulated PIN pad presents, as the "customer". */
import { useId } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { NoticeLine } from '../../components/Notice'
import { trainingCards, usePos } from '../../store'

export function TestCardPicker() {
  const titleId = useId()
  const cards = usePos(useShallow(trainingCards))
  const notice = usePos((s) => s.testCardNotice)
  const presentTestCard = usePos((s) => s.presentTestCard)
  if (cards.length === 0) return null
  return (
    <section className="test-card-picker" aria-labelledby={titleId} data-testid="test-card-picker">
      <h3 id={titleId}>Training: the customer presents…</h3>
      <div className="test-cards">
        {cards.map((name) => (
          <button
            key={name}
            type="button"
            className="button test-card"
            aria-label={`Present test card ${name}`}
            data-testid={`test-card-${name}`}
            onClick={() => void presentTestCard(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <NoticeLine notice={notice} testId="test-card-notice" />
    </section>
  )
}
