import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { followCounterSale } from '../../../src-main/app/training-card-follow'
import type { SaleState } from '../../../src-shared/sale'

/** The updates a sale service tells, and what the simulated customer was told for each. */
function follow(updates: Array<{ state: SaleState; startedBy?: 'counter' | 'pos' } | { type: 'queue' }>): boolean[] {
  const txn = new EventEmitter()
  const told: boolean[] = []
  followCounterSale(txn, (on) => told.push(on))
  for (const update of updates) txn.emit('update', 'type' in update ? update : { type: 'sale', sale: update })
  return told
}

describe("training's default card follows the sale that holds the counter", () => {
  it.each([
    ['a POS sale taking the counter', [{ state: 'readingCard', startedBy: 'pos' }], [true]],
    ["the counter's own sale", [{ state: 'readingCard', startedBy: 'counter' }], [false]],
    ['a sale from before origins were kept', [{ state: 'readingCard' }], [false]],
    ["a POS return's card", [{ state: 'returnReadingCard', startedBy: 'pos' }], [true]],
    ['a void of a POS sale', [{ state: 'voidReadingCard', startedBy: 'pos' }], [true]],
    // Sales that no longer hold the counter (answers from the queue, a finished sale) change nothing.
    [
      'a POS sale ended, then a stored one answered',
      [
        { state: 'approved', startedBy: 'pos' },
        { state: 'forwarded', startedBy: 'pos' },
      ],
      [],
    ],
    ['other updates', [{ type: 'queue' }], []],
    [
      'a counter sale after a POS one',
      [
        { state: 'readingCard', startedBy: 'pos' },
        { state: 'approved', startedBy: 'pos' },
        { state: 'created', startedBy: 'counter' },
      ],
      [true, false],
    ],
  ] as const)('%s', (_, updates, told) => {
    expect(follow([...updates])).toEqual(told)
  })
})
