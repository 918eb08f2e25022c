/**
 * The packaged app's update waits while the queue owes the bank anything, and past its deadline says
 * why instead of installing (src-main/electron/update-gate.ts).
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_RECHECK_MS, DEFAULT_UPDATE_WAIT_MS, decideUpdate } from '../../../src-main/electron/update-gate'
import { internalWordsIn } from '../../support/internal-words'

const READY = Date.parse('2026-11-28T09:00:00Z')
const HOUR = 3_600_000

describe('an update while the queue holds items', () => {
  it('installs at once when nothing is owed, however long it waited', () => {
    expect(decideUpdate({ owed: 0, needsManager: 0, readyAt: READY, now: READY })).toEqual({ kind: 'install' })
    expect(decideUpdate({ owed: 0, needsManager: 0, readyAt: READY, now: READY + 10 * DEFAULT_UPDATE_WAIT_MS })).toEqual({
      kind: 'install',
    })
  })

  it('waits quietly before the deadline, asking again later', () => {
    const now = READY + DEFAULT_UPDATE_WAIT_MS - 1
    expect(decideUpdate({ owed: 3, needsManager: 0, readyAt: READY, now })).toEqual({
      kind: 'wait',
      recheckAt: now + DEFAULT_RECHECK_MS,
      owed: 3,
    })
  })

  it('past the deadline is still not installed over owed items, and says why and what to do', () => {
    const now = READY + DEFAULT_UPDATE_WAIT_MS
    const decision = decideUpdate({ owed: 2, needsManager: 0, readyAt: READY, now })
    expect(decision).toMatchObject({ kind: 'overdue', owed: 2, recheckAt: now + DEFAULT_RECHECK_MS })
    expect(decision.kind === 'overdue' && decision.words).toBe(
      'An update has waited 24 hours and is not installed, because 2 payments or reversals are still waiting to be sent to the bank. ' +
        'Make sure the terminal can reach the bank; the update installs by itself once they are sent.',
    )
  })

  it('names the manager when a parked item keeps the queue from emptying on its own', () => {
    const decision = decideUpdate({ owed: 1, needsManager: 1, readyAt: READY, now: READY + 30 * HOUR, maxWaitMs: 2 * HOUR })
    expect(decision.kind).toBe('overdue')
    const words = decision.kind === 'overdue' ? decision.words : ''
    expect(words).toContain('waited 30 hours')
    expect(words).toContain('1 payment or reversal is still waiting')
    expect(words).toContain('1 sale needs a manager first')
    expect(internalWordsIn(words)).toEqual([])
  })

  it('refuses a count that is not one', () => {
    expect(() => decideUpdate({ owed: -1, needsManager: 0, readyAt: READY, now: READY })).toThrow(RangeError)
    expect(() => decideUpdate({ owed: 1.5, needsManager: 0, readyAt: READY, now: READY })).toThrow(RangeError)
  })
})
