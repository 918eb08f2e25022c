/**
 * Whether the packaged app may install an update now. An update restarts the agent on a new version,
 * whose journal steps may not be undone: while the queue still owes the bank stored payments or
 * reversals, the update waits for the queue to empty (docs/transactions.md, store-and-forward). It
 * waits at most until a deadline; past it, it still does not install over owed items, but says why in
 * words a manager can act on, every time it is asked. Pure: the updater feeds it the queue as
 * `probeQueue` reads it (journal/journal-probe.ts) and the clock.
 */
import { counted } from '../../src-shared/counted'

export interface UpdateGateInput {
  /** The queue items still owed to the bank (waiting, in flight, or parked for a manager). */
  owed: number
  /** Of them, those that need a manager first (parked): the queue will not empty on its own. */
  needsManager: number
  /** When the update was first ready to install, ms since epoch. */
  readyAt: number
  now: number
  /** How long an update may wait for the queue before the wait is reported (`DEFAULT_UPDATE_WAIT_MS`). */
  maxWaitMs?: number
  /** How often to ask again while waiting (`DEFAULT_RECHECK_MS`). */
  recheckMs?: number
}

export type UpdateDecision =
  /** Nothing is owed: install now. */
  | { kind: 'install' }
  /** Items are owed and the deadline is not past: ask again at `recheckAt`, quietly. */
  | { kind: 'wait'; recheckAt: number; owed: number }
  /** The deadline is past and items are still owed: not installed; `words` say why and what to do. */
  | { kind: 'overdue'; recheckAt: number; owed: number; words: string }

/** A business day: an update downloaded during service waits at most until the next day's. */
export const DEFAULT_UPDATE_WAIT_MS = 24 * 60 * 60_000
export const DEFAULT_RECHECK_MS = 5 * 60_000

export function decideUpdate(input: UpdateGateInput): UpdateDecision {
  if (!Number.isInteger(input.owed) || input.owed < 0) throw new RangeError(`owed must be a whole number of at least 0, got ${input.owed}`)
  if (input.owed === 0) return { kind: 'install' }
  const maxWait = input.maxWaitMs ?? DEFAULT_UPDATE_WAIT_MS
  const recheckAt = input.now + (input.recheckMs ?? DEFAULT_RECHECK_MS)
  if (input.now - input.readyAt < maxWait) return { kind: 'wait', recheckAt, owed: input.owed }
  const hours = Math.floor((input.now - input.readyAt) / 3_600_000)
  const what = counted(input.owed, 'payment or reversal', 'payments or reversals')
  const fix =
    input.needsManager > 0
      ? `${counted(input.needsManager, 'sale needs', 'sales need')} a manager first: open the queue and retry or resolve ${input.needsManager === 1 ? 'it' : 'them'}.`
      : 'Make sure the terminal can reach the bank; the update installs by itself once they are sent.'
  return {
    kind: 'overdue',
    recheckAt,
    owed: input.owed,
    words: `An update has waited ${hours} hours and is not installed, because ${what} ${input.owed === 1 ? 'is' : 'are'} still waiting to be sent to the bank. ${fix}`,
  }
}
