/**
 * Shifts on a real journal file: two operators taking turns at the counter, a sign-out, the close
 * ending the shift still open (and freezing the shifts with the batch), a restart that keeps the
 * open shift, and a batch closed before shifts were kept still reading. Training host over HTTPS.
 */
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Shifts } from '../../../src-main/operators'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/** Shift boundaries and sales fall on distinct milliseconds. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

async function sale(operatorId: string, amountMinor: number) {
  await tick()
  const txn = harness!.engine.txn
  const done = await txn.waitForOutcome(txn.sales.start({ amountMinor, currency: 'USD', operatorId }).id)
  expect(done.state).toBe('approved')
  await tick()
  return done
}

const shifts = () => new Shifts(harness!.engine.journal.shifts)
const cards = (n: number) => Array.from({ length: n }, () => ({ card: TEST_CARDS.chipVisa() }))

describe('totals per shift', () => {
  it('two operators take turns; a sign-out ends a shift; the close ends the open one and keeps them all as closed', async () => {
    harness = await startEngineHarness(new ScriptedCardReader().present(...cards(4)))
    shifts().signedIn('17')
    await sale('17', 1000)
    await sale('17', 500)
    // Ann's turn ends when Bob signs in: her shift ends there, his starts.
    shifts().signedIn('23')
    await sale('23', 2000)
    shifts().signedOut('23')
    shifts().signedIn('17')
    await sale('17', 700)

    const open = harness.engine.txn.day.report()
    expect(open.byShift.map(({ operatorId, count, amountMinor, end }) => [operatorId, count, amountMinor, end !== undefined])).toEqual([
      ['17', 2, { USD: 1500 }, true],
      ['23', 1, { USD: 2000 }, true],
      ['17', 1, { USD: 700 }, false],
    ])
    const [first, second, third] = open.byShift
    expect(second!.start).toBe(first!.end)
    // A sign-in right after a sign-out may fall in the same millisecond.
    expect(third!.start).toBeGreaterThanOrEqual(second!.end!)
    // The same sales, counted the way byOperator counts them.
    expect(open.byOperator.map((row) => [row.operatorId, row.count, row.amountMinor])).toEqual([
      ['17', 3, 2200],
      ['23', 1, 2000],
    ])

    const closed = await harness.engine.txn.day.close()
    expect(closed.batch.closedAt).toEqual(expect.any(Number))
    expect(closed.byShift).toHaveLength(3)
    expect(closed.byShift[2]).toMatchObject({ operatorId: '17', count: 1, end: closed.batch.closedAt })
    expect(harness.engine.journal.shifts.open()).toBeUndefined()
    expect(harness.engine.journal.shifts.ofBatch(1)).toHaveLength(3)
    expect(harness.engine.journal.shifts.ofOpenBatch()).toEqual([])

    // The next batch starts without shifts; the closed one's never change.
    shifts().signedIn('23')
    const reread = harness.engine.txn.day.report(1)
    expect(reread.byShift).toEqual(closed.byShift)
    expect(harness.engine.txn.day.report().byShift).toMatchObject([{ operatorId: '23', count: 0, amountMinor: {} }])
    const db = new Database(join(harness.dir, 'journal.sqlite'))
    try {
      expect(() => db.prepare('UPDATE shift SET ended_at = ended_at + 1 WHERE batch = 1').run()).toThrow(/never changes/)
      expect(() => db.prepare('DELETE FROM shift WHERE batch = 1').run()).toThrow(/never deleted/)
    } finally {
      db.close()
    }
  })

  it('a restart keeps the open shift: the same operator signing in again goes on with it; the close ends it', async () => {
    harness = await startEngineHarness(new ScriptedCardReader().present(...cards(1)))
    shifts().signedIn('17')
    await sale('17', 1200)
    const before = harness.engine.txn.day.report().byShift
    expect(before).toMatchObject([{ operatorId: '17', count: 1 }])
    expect(before[0]!.end).toBeUndefined()

    await harness.restart(new ScriptedCardReader().present(...cards(1)))
    expect(harness.engine.txn.day.report().byShift).toEqual(before)
    shifts().signedIn('17')
    await sale('17', 300)
    expect(harness.engine.txn.day.report().byShift).toMatchObject([{ operatorId: '17', start: before[0]!.start, count: 2 }])

    const closed = await harness.engine.txn.day.close()
    expect(closed.byShift).toEqual([
      { operatorId: '17', start: before[0]!.start, end: closed.batch.closedAt, count: 2, amountMinor: { USD: 1500 }, tipMinor: { USD: 0 } },
    ])
  })

  it('a batch closed before shifts were kept reads with no shifts', async () => {
    harness = await startEngineHarness(new ScriptedCardReader().present(...cards(1)))
    await sale('17', 900)
    await harness.engine.txn.day.close()
    const db = new Database(join(harness.dir, 'journal.sqlite'))
    try {
      // What an older agent froze: the summary without byShift (the trigger forbids updates, so the
      // row is written again as an older agent would have written it).
      const row = db.prepare('SELECT summary FROM batch WHERE number = 1').get() as { summary: string }
      const { byShift: _byShift, ...older } = JSON.parse(row.summary) as Record<string, unknown>
      db.exec('DROP TRIGGER batch_closed_never_changes')
      db.prepare('UPDATE batch SET summary = ? WHERE number = 1').run(JSON.stringify(older))
    } finally {
      db.close()
    }
    expect(harness.engine.txn.day.report(1)).toMatchObject({ byShift: [], totals: [{ amountMinor: 900 }] })
  })
})
