/** The agent's mode, alarms and settings, derived. */
import type { TrainingCardView } from '../../../../src-shared/contract'
import type { PosState } from '../store-types'

export function isTraining(s: Pick<PosState, 'appInfo'>): boolean {
  return s.appInfo?.mode === 'training'
}

const NO_CARDS: TrainingCardView[] = []

/** Training mode: the simulated PIN pad's test cards, in the words the agent gives them. */
export function trainingCards(s: Pick<PosState, 'appInfo'>): TrainingCardView[] {
  return isTraining(s) ? (s.appInfo?.trainingCards ?? NO_CARDS) : NO_CARDS
}

/** What a test card is called, by its name; a name the agent did not list keeps its name. */
export function testCardLabel(s: Pick<PosState, 'appInfo'>, name: string): string {
  return trainingCards(s).find((card) => card.name === name)?.label ?? name
}

/** The signing key is exactly 32 characters (contract: setSigningKey). null when it can be sent. */
export function signingKeyProblem(key: string): string | null {
  if (key.length === 0) return 'Paste or type the 32-character signing key.'
  if (key.length !== 32) return `The signing key is exactly 32 characters; this is ${key.length}.`
  return null
}

/**
 * Known to have no staff: nobody can approve a return, a void or a tip above the limit, so the
 * counter says so and the cashier confirms them. False until the agent has answered, so nothing is
 * claimed before it is known.
 */
export function hasNoStaff(s: Pick<PosState, 'counter'>): boolean {
  return s.counter !== null && s.counter.required !== true
}
