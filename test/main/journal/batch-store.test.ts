/**
 * Closed batches in the real journal: the close moves exactly the counted sales into the batch, and
 * SQLite itself refuses anything that would change a closed batch afterwards, whatever code asks.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { BatchClosedMeanwhileError } from '../../../src-main/journal/batch-store'
import { migrateTo } from '../../../src-main/journal/migrations'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { useTempJournals } from './journal-harness'
import { NEW_SALE, TERMINAL, openJournal } from './store-harness'

const BATCH_STEP = JOURNAL_MIGRATIONS.find((m) => m.description.startsWith('numbered, immutable close-of-day batches'))!.version

function close(saleIds: string[], at = 1_000) {
  return { saleIds, closedAt: at, businessDay: '2026-11-21', managerOverride: false, summary: '{"counts":{}}' }
}

describe('closed batches', () => {
  const temp = useTempJournals()

  it('take exactly the sales the close counted; later sales stay in the open batch', async () => {
    const { store } = await openJournal(temp, temp.path())
    const a = store.createSale(TERMINAL, NEW_SALE)
    const b = store.createSale(TERMINAL, NEW_SALE)
    expect(store.batches.openNumber()).toBe(1)
    const closed = store.batches.close(close([a.id]))
    expect(closed).toMatchObject({ number: 1, saleCount: 1 })
    expect(store.salesOfBatch(1).map((s) => s.id)).toEqual([a.id])
    expect(store.get(a.id)?.batchNumber).toBe(1)
    // b was rung up while the close ran: it was not counted, so it is in batch 2.
    expect(store.salesOfOpenBatch().map((s) => s.id)).toEqual([b.id])
    expect(store.batches.openNumber()).toBe(2)
  })

  it("a sale's own change never moves it out of its batch", async () => {
    const { store } = await openJournal(temp, temp.path())
    const a = store.createSale(TERMINAL, NEW_SALE)
    const stale = store.get(a.id)!
    store.batches.close(close([a.id]))
    // The record read before the close has no batch; writing it back must not take the sale out.
    store.apply({ event: { type: 'cardRead' }, next: { ...stale, state: 'sending' }, expectedState: 'readingCard' })
    expect(store.get(a.id)).toMatchObject({ state: 'sending', batchNumber: 1 })
  })

  it('a second close of the same sales writes nothing (the first one won)', async () => {
    const { store } = await openJournal(temp, temp.path())
    const a = store.createSale(TERMINAL, NEW_SALE)
    store.batches.close(close([a.id]))
    expect(() => store.batches.close(close([a.id], 2_000))).toThrow(BatchClosedMeanwhileError)
    expect(store.batches.list().map((b) => b.number)).toEqual([1])
    expect(store.batches.openNumber()).toBe(2)
  })

  it('SQLite refuses to change or delete a closed batch, or to move a sale between batches', async () => {
    const { db, store } = await openJournal(temp, temp.path())
    const a = store.createSale(TERMINAL, NEW_SALE)
    const b = store.createSale(TERMINAL, NEW_SALE)
    store.batches.close(close([a.id]))
    expect(() => db.exec("UPDATE batch SET summary = '{}' WHERE number = 1")).toThrow(/a closed batch never changes/)
    expect(() => db.exec('DELETE FROM batch')).toThrow(/a closed batch is never deleted/)
    expect(() => db.prepare('UPDATE sale SET batch = NULL WHERE id = ?').run(a.id)).toThrow(/stays in it/)
    store.batches.close(close([b.id]))
    expect(() => db.prepare('UPDATE sale SET batch = 2 WHERE id = ?').run(a.id)).toThrow(/stays in it/)
    const c = store.createSale(TERMINAL, NEW_SALE)
    // A sale cannot be slipped into a batch closed earlier, only into the one being closed.
    expect(() => db.prepare('UPDATE sale SET batch = 1 WHERE id = ?').run(c.id)).toThrow(/joins only the batch being closed/)
    expect(store.salesOfBatch(1).map((s) => s.id)).toEqual([a.id])
  })

  it('finds the sales of the open batch and of a closed one through an index, not a scan of the journal', async () => {
    const { db } = await openJournal(temp, temp.path())
    for (const where of ['batch IS NULL', 'batch = 3']) {
      const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM sale WHERE ${where} ORDER BY created_at`).all() as Array<{ detail: string }>
      expect(plan.map((row) => row.detail).join('; ')).toMatch(/USING INDEX sale_by_batch/)
    }
  })

  it('a journal from before batches keeps its sales, all in the open batch, and records who started new ones', async () => {
    const file = temp.path()
    const old = new Database(file)
    expect(migrateTo(old, JOURNAL_MIGRATIONS, BATCH_STEP - 1)).toBe(BATCH_STEP - 1)
    old.exec(`INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture)
      VALUES ('T1-OLD', 'approved', 1, 1, '2026-11-20', '2026-11-20T10:00:00+01:00', 900, 'USD', 1)`)
    old.close()
    const { store } = await openJournal(temp, file)
    expect(store.salesOfOpenBatch().map((s) => s.id)).toEqual(['T1-OLD'])
    expect(store.get('T1-OLD')?.startedBy).toBeUndefined()
    const fromPos = store.createSale(TERMINAL, { ...NEW_SALE, startedBy: 'pos' })
    expect(store.get(fromPos.id)?.startedBy).toBe('pos')
  })
})
