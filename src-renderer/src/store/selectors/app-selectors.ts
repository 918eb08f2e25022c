/** The agent's mode, alarms and settings, derived. */
import type { PosState } from '../store-types'

export function isTraining(s: Pick<PosState, 'appInfo'>): boolean {
  return s.appInfo?.mode === 'training'
}

export function trainingCards(s: Pick<PosState, 'appInfo'>): string[] {
  return isTraining(s) ? (s.appInfo?.trainingCards ?? []) : []
}

/** The signing key is exactly 32 characters (contract: setSigningKey). null when it can be sent. */
export function signingKeyProblem(key: string): string | null {
  if (key.length === 0) return 'Paste or type the 32-character signing key.'
  if (key.length !== 32) return `The signing key is exactly 32 characters; this is ${key.length}.`
  return null
}
