/**
 * A sale's returned amounts live on its row (schema version 13), written by the commit that changes
 * one of its returns: after every step of every return they must equal the sums over the returns'
 * own rows, and a journal of version 12 gets them filled once by the migration.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openJournalDatabase } from '../../../src-main/journal/database'
import type { JournalStore, SaleRecord } from '../../../src-main/journal/journal-store'
import { migrateTo } from '../../../src-main/journal/migrations'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import type { SaleState } from '../../../src-shared/sale'
import { useTempJournals } from './journal-harness'
import { NEW_SALE, TERMINAL, openJournal } from './store-harness'

const RETURN_SUMS_STEP = 13

/** The sums as the returns' rows give them, read straight from SQLite. */
function summed(db: Database.Database, saleId: string): { returned: number; returning: number } {
  return db
    .prepare(
      `SELECT coalesce(sum(CASE WHEN state IN ('creditPending', 'credited') THEN amount_minor END), 0) AS returned,
        coalesce(sum(CASE WHEN state IN ('created', 'returnReadingCard') THEN amount_minor END), 0) AS "returning"
        FROM sale WHERE original_id = ?`,
    )
    .get(saleId) as { returned: number; returning: number }
}

function step(store: JournalStore, record: SaleRecord, state: SaleState): SaleRecord {
  return store.apply({ event: { type: `to-${state}` }, next: { ...record, state }, expectedState: record.state })
}

describe('returned amounts kept on the sale row', () => {
  const temp = useTempJournals()

  it('equal the sums over the returns after every step of every return', async () => {
    const opened = await openJournal(temp, temp.path())
    const { store, db } = opened
    const sale = step(store, store.createSale(TERMINAL, NEW_SALE), 'approved')
    const check = () => {
      const read = store.get(sale.id)!
      const expected = summed(db, sale.id)
      expect({ returned: read.returnedMinor, returning: read.returningMinor }).toEqual(expected)
      return expected
    }
    expect(check()).toEqual({ returned: 0, returning: 0 })
    const newReturn = (amountMinor: number) =>
      store.createSale(TERMINAL, { ...NEW_SALE, kind: 'return', originalId: sale.id, amountMinor, state: 'created' })
    let a = newReturn(300)
    let b = newReturn(200)
    expect(check()).toEqual({ returned: 0, returning: 500 })
    a = step(store, a, 'returnReadingCard')
    a = step(store, a, 'creditPending')
    expect(check()).toEqual({ returned: 300, returning: 200 })
    b = step(store, b, 'returnReadingCard')
    step(store, b, 'abandoned')
    expect(check()).toEqual({ returned: 300, returning: 0 })
    step(store, a, 'credited')
    expect(check()).toEqual({ returned: 300, returning: 0 })
    let c = newReturn(100)
    c = step(store, c, 'returnReadingCard')
    expect(check()).toEqual({ returned: 300, returning: 100 })
    c = step(store, c, 'creditPending')
    step(store, c, 'declined')
    expect(check()).toEqual({ returned: 300, returning: 0 })
    // A sale's own change never writes the sums: a tip leaves them as they are.
    store.apply({
      event: { type: 'tip' },
      next: { ...store.get(sale.id)!, tipMinor: 50, returnedMinor: 0 },
      expectedState: 'approved',
    })
    expect(check()).toEqual({ returned: 300, returning: 0 })
    opened.close()
  })

  it('a rolled-back return change leaves the sums as they were', async () => {
    const opened = await openJournal(temp, temp.path())
    const { store, db } = opened
    const sale = step(store, store.createSale(TERMINAL, NEW_SALE), 'approved')
    const ret = step(
      store,
      store.createSale(TERMINAL, { ...NEW_SALE, kind: 'return', originalId: sale.id, amountMinor: 400, state: 'created' }),
      'returnReadingCard',
    )
    expect(() =>
      store.batch(() => {
        step(store, ret, 'creditPending')
        throw new Error('the disk is full')
      }),
    ).toThrow('the disk is full')
    expect(store.get(sale.id)).toMatchObject({ returnedMinor: 0, returningMinor: 400 })
    expect(summed(db, sale.id)).toEqual({ returned: 0, returning: 400 })
    opened.close()
  })

  it('a journal of the version before gets them filled from its returns', () => {
    const file = temp.path()
    const old = new Database(file)
    migrateTo(old, JOURNAL_MIGRATIONS, RETURN_SUMS_STEP - 1)
    const insert = old.prepare(
      `INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture, kind, original_id)
        VALUES (?, ?, 1, 1, '2026-03-01', '20260301100000', ?, 'USD', 1, ?, ?)`,
    )
    insert.run('S1', 'approved', 5_000, 'sale', null)
    insert.run('S2', 'approved', 900, 'sale', null)
    const returns: Array<[SaleState, number]> = [
      ['credited', 1_000],
      ['creditPending', 250],
      ['created', 40],
      ['returnReadingCard', 60],
      ['declined', 700],
      ['abandoned', 800],
    ]
    returns.forEach(([state, amount], i) => insert.run(`R${i}`, state, amount, 'return', 'S1'))
    old.close()

    const db = temp.track(openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS }))
    const rows = db
      .prepare('SELECT id, returned_minor AS returned, returning_minor AS "returning" FROM sale WHERE kind = ? ORDER BY id')
      .all('sale')
    expect(rows).toEqual([
      { id: 'S1', returned: 1_250, returning: 100 },
      { id: 'S2', returned: 0, returning: 0 },
    ])
  })
})
