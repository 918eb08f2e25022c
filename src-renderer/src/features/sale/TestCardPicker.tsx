/**
 * Training mode only: the test card the "customer" holds out to the simulated PIN pad, with what each
 * card does. Offered wherever a card is asked for (the sale, the void); a pick is for the card request
 * at hand, or the next one if none is waiting. Picked before Charge, it is held out at once: the card
 * the trainee chose is the card read, never the simulator's own default. `afterPresent` lets the screen take the focus back, so
 * Enter then does what that screen says (charge) rather than presenting the card again.
 */
import { useEffect, useId, useLayoutEffect, useRef } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { NoticeLine } from '../../components/Notice'
import { trainingCards, usePos } from '../../store'

export interface TestCardPickerProps {
  afterPresent?: () => void
  /** No card request is waiting: a pick is held out for the next one at once, so it is the card read. */
  presentOnPick?: boolean
  /**
   * The reader waits for the card: Present takes the focus, so Enter holds out the card shown (the
   * simulated customer waits for the trainee's pick) and a keypad alone can finish the sale.
   */
  focusPresent?: boolean
  /** The picker leaves the screen with the focus in it (the card was read): where the focus goes next. */
  afterLeave?: () => void
}

export function TestCardPicker({ afterPresent, presentOnPick = false, focusPresent = false, afterLeave }: TestCardPickerProps) {
  const id = useId()
  const sectionRef = useRef<HTMLElement>(null)
  const presentRef = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (focusPresent) presentRef.current?.focus()
  }, [focusPresent])
  // Run while the picker is still in the page, so the focus it holds is seen before it goes with it.
  const leaveRef = useRef(afterLeave)
  leaveRef.current = afterLeave
  useLayoutEffect(() => {
    const section = sectionRef.current
    return () => {
      if (section?.contains(section.ownerDocument.activeElement)) leaveRef.current?.()
    }
  }, [])
  // The cards and their words come from the agent that simulates them (appInfo.trainingCards).
  const cards = usePos(useShallow(trainingCards))
  const notice = usePos((s) => s.testCardNotice)
  const presentTestCard = usePos((s) => s.presentTestCard)
  // In the store, not here: the pick outlives the picker, which leaves the screen while a sale starts.
  const picked = usePos((s) => s.testCardPick)
  const pickTestCard = usePos((s) => s.pickTestCard)
  if (cards.length === 0) return null
  const card = cards.find((c) => c.name === picked) ?? cards[0]!
  const name = card.name
  return (
    <section ref={sectionRef} className="test-card-picker" aria-labelledby={`${id}-title`} data-testid="test-card-picker">
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
          onChange={(event) => void pickTestCard(event.target.value, presentOnPick)}
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
          ref={presentRef}
          onClick={() => {
            afterPresent?.()
            void presentTestCard(name)
          }}
        >
          Present
        </button>
      </div>
      {/* The picked card's whole name, however narrow the list box that shows it: the box may cut it. */}
      <p id={`${id}-description`} className="picker-description" data-testid="test-card-description">
        <strong>{card.label}</strong>: {card.description}
      </p>
      <NoticeLine notice={notice} testId="test-card-notice" />
    </section>
  )
}
