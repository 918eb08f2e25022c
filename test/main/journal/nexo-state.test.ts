/**
 * Journal version 12 on a real SQLite file: what nexo remembers (logins, aborts, reversals) survives
 * closing and opening the journal again, and sales journaled before it get the cause their reason
 * stood for, once, in the migration.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrateTo } from '../../../src-main/journal/migrations'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { useTempJournals } from './journal-harness'
import { NEW_SALE, openJournal, TERMINAL } from './store-harness'

describe('nexo state in the journal', () => {
  const temp = useTempJournals()

  it('logins, aborts and reversals are there after the journal is opened again', async () => {
    const file = temp.path()
    const first = await openJournal(temp, file)
    const sale = first.store.createSale(TERMINAL, { ...NEW_SALE, state: 'approved' })
    const ret = first.store.createSale(TERMINAL, { ...NEW_SALE, state: 'creditPending', kind: 'return', originalId: sale.id })
    first.store.nexo.login('POS-A', 'ann')
    first.store.nexo.login('POS-B', undefined)
    first.store.nexo.logout('POS-B')
    first.store.nexo.recordAbort(sale.id, 'POS-A')
    first.store.nexo.recordReversal('POS-A', 'R1', ret.id, 'return')
    // A repeated ServiceID keeps what the first one was about.
    expect(first.store.nexo.recordReversal('POS-A', 'R1', sale.id, 'void')).toEqual({ saleId: ret.id, kind: 'return' })
    first.close()

    const again = await openJournal(temp, file)
    expect(again.store.nexo.loggedIn()).toEqual(['POS-A'])
    expect(again.store.nexo.wasAborted(sale.id)).toBe(true)
    expect(again.store.nexo.wasAborted(ret.id)).toBe(false)
    expect(again.store.nexo.reversalOf('POS-A', 'R1')).toEqual({ saleId: ret.id, kind: 'return' })
    expect(again.store.nexo.reversalOf('POS-B', 'R1')).toBeUndefined()
    again.close()
  })

  it('a sale journaled before version 12 gets the cause its reason stood for', () => {
    const db = temp.track(new Database(temp.path()))
    migrateTo(db, JOURNAL_MIGRATIONS, 11)
    const insert = db.prepare(
      `INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture, offline, chip, tip_minor, tip_state, reason)
       VALUES (?, ?, 0, 0, '2026-11-25', '2026-11-25T10:00:00+00:00', 100, 'USD', 1, ?, 1, 0, 'none', ?)`,
    )
    insert.run('S-1', 'reversed', 0, 'the card refused the payment after the bank approved it')
    insert.run('S-2', 'reversed', 0, 'no valid answer came from the bank')
    insert.run('S-3', 'reversalPending', 0, 'the terminal stopped while waiting for the bank')
    insert.run('S-4', 'declined', 1, 'the bank could not be reached and this sale cannot be stored: a swiped card')
    insert.run('S-5', 'declined', 1, 'declined offline by the card')
    insert.run('S-6', 'declined', 0, 'insufficient funds')
    migrateTo(db, JOURNAL_MIGRATIONS, JOURNAL_MIGRATIONS.length)
    expect(db.prepare('SELECT id, cause FROM sale ORDER BY id').all()).toEqual([
      { id: 'S-1', cause: 'cardRefused' },
      { id: 'S-2', cause: 'noAnswer' },
      { id: 'S-3', cause: 'interrupted' },
      { id: 'S-4', cause: 'bankUnreachable' },
      { id: 'S-5', cause: 'cardRefused' },
      { id: 'S-6', cause: null },
    ])
  })
})
