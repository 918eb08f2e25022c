/**
 * An upgrade never runs a step it cannot undo over a queue the bank is still owed, unless a manager
 * forces it (src-main/journal/migrations.ts, migration-guard.ts): a real journal at the shipped
 * schema, with real queue rows, opened with the shipped steps plus one that drops a column.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import {
  FORCED_MIGRATION_TABLE,
  JOURNAL_MIGRATIONS,
  MigrationWouldStrandQueueError,
  authorizeForcedMigration,
  journalVersion,
  migrateTo,
  openJournalDatabase,
  type Migration,
} from '../../../src-main/journal'
import { hashPin, pinMatches } from '../../../src-main/operators'
import { wordsOf } from '../../../src-shared/errors'
import { catchError, useTempJournals } from './journal-harness'

const SHIPPED = JOURNAL_MIGRATIONS.length
const DROPS_A_COLUMN: Migration = {
  version: SHIPPED + 1,
  description: "the queue's technical failure detail is no longer kept",
  irreversible: 'the detail of every failed attempt is dropped',
  up: (db) => db.exec('ALTER TABLE outbox DROP COLUMN last_error'),
}
const ADDS_A_COLUMN: Migration = {
  version: SHIPPED + 1,
  description: 'a note per queue item',
  up: (db) => db.exec('ALTER TABLE outbox ADD COLUMN note TEXT'),
}
const CHEAP_PIN = { N: 2 ** 10, r: 8, p: 1 }

/** A journal at the shipped version whose queue holds items in the given states. */
function journalWithQueue(file: string, states: readonly string[]): void {
  const db = new Database(file)
  migrateTo(db, JOURNAL_MIGRATIONS, SHIPPED)
  db.prepare(
    `INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture)
     VALUES ('S-1', 'forwarding', 1, 1, '2026-11-28', '20261128100000', 1250, 'USD', 1)`,
  ).run()
  states.forEach((state, i) =>
    db
      .prepare(
        `INSERT INTO outbox (sale_id, operation, message_id, priority, state, body, next_attempt_at, created_at, last_error)
         VALUES ('S-1', ?, 'S-1', 1, ?, x'00', 0, 1, 'the bank could not be reached')`,
      )
      .run(i === 0 ? 'payment' : 'tips', state),
  )
  db.close()
}

async function addOperator(file: string, id: string, role: 'manager' | 'cashier', pin: string): Promise<void> {
  const db = new Database(file)
  db.prepare('INSERT INTO operator (id, name, role, pin_hash, created_at) VALUES (?, ?, ?, ?, 1)').run(
    id,
    `Operator ${id}`,
    role,
    await hashPin(pin, CHEAP_PIN),
  )
  db.close()
}

describe('an upgrade that cannot be undone, over a queue still owed to the bank', () => {
  const temp = useTempJournals()

  it('is refused in plain words, naming what is owed and how to go on, and the journal is left as it was', () => {
    const file = temp.path()
    journalWithQueue(file, ['pending', 'attention'])
    const error = catchError(() => openJournalDatabase(file, { migrations: [...JOURNAL_MIGRATIONS, DROPS_A_COLUMN] }))
    expect(error).toBeInstanceOf(MigrationWouldStrandQueueError)
    expect(error).toMatchObject({ code: 'JOURNAL_MIGRATION_OWED', owed: 2, retryable: false })
    expect((error as Error).message).toContain('cannot be undone')
    expect((error as Error).message).toContain('2 items are still owed to the bank')
    expect((error as Error).message).toContain('the detail of every failed attempt is dropped')
    expect((error as Error).message).toContain('--force-migration')
    expect(wordsOf('JOURNAL_MIGRATION_OWED')).toMatch(/ask a manager to force the update/)
    const db = temp.track(new Database(file))
    expect(journalVersion(db)).toBe(SHIPPED)
    expect(db.prepare('SELECT count(*) FROM outbox WHERE last_error IS NOT NULL').pluck().get()).toBe(2)
  })

  it('runs once the queue is empty: acknowledged and withdrawn items are owed nothing', () => {
    const file = temp.path()
    journalWithQueue(file, ['done', 'withdrawn'])
    const db = temp.track(openJournalDatabase(file, { migrations: [...JOURNAL_MIGRATIONS, DROPS_A_COLUMN] }))
    expect(journalVersion(db)).toBe(SHIPPED + 1)
  })

  it('runs a step that only adds, whatever is owed', () => {
    const file = temp.path()
    journalWithQueue(file, ['pending', 'inflight'])
    const db = temp.track(openJournalDatabase(file, { migrations: [...JOURNAL_MIGRATIONS, ADDS_A_COLUMN] }))
    expect(journalVersion(db)).toBe(SHIPPED + 1)
    expect(db.prepare(`SELECT count(*) FROM outbox WHERE state = 'pending'`).pluck().get()).toBe(1)
  })

  it("runs when a manager's number and PIN force it, and records who forced it over how many items in the step's commit", async () => {
    const file = temp.path()
    journalWithQueue(file, ['pending'])
    await addOperator(file, '7', 'manager', '2468')
    const force = await authorizeForcedMigration(file, { managerId: '7', pin: '2468' }, pinMatches)
    const db = temp.track(
      openJournalDatabase(file, {
        migrations: [...JOURNAL_MIGRATIONS, DROPS_A_COLUMN],
        forceMigration: force,
        now: () => new Date('2026-11-28T10:00:00Z'),
      }),
    )
    expect(journalVersion(db)).toBe(SHIPPED + 1)
    expect(db.prepare(`SELECT version, manager_id, owed_items, applied_at FROM ${FORCED_MIGRATION_TABLE}`).all()).toEqual([
      { version: SHIPPED + 1, manager_id: '7', owed_items: 1, applied_at: '2026-11-28T10:00:00.000Z' },
    ])
    // the owed item itself is still there to be sent
    expect(db.prepare("SELECT count(*) FROM outbox WHERE state = 'pending'").pluck().get()).toBe(1)
  })

  it('refuses a wrong PIN, a cashier, a locked manager and an unknown number, and changes nothing in the file', async () => {
    const file = temp.path()
    journalWithQueue(file, ['pending'])
    await addOperator(file, '7', 'manager', '2468')
    await addOperator(file, '3', 'cashier', '1357')
    await addOperator(file, '8', 'manager', '9999')
    const lock = new Database(file)
    lock.prepare("UPDATE operator SET locked_until = ? WHERE id = '8'").run(Date.now() + 60_000)
    lock.close()
    await expect(authorizeForcedMigration(file, { managerId: '7', pin: '1111' }, pinMatches)).rejects.toMatchObject({ code: 'PIN_WRONG' })
    await expect(authorizeForcedMigration(file, { managerId: '3', pin: '1357' }, pinMatches)).rejects.toMatchObject({
      code: 'MANAGER_REQUIRED',
    })
    await expect(authorizeForcedMigration(file, { managerId: '8', pin: '9999' }, pinMatches)).rejects.toMatchObject({
      code: 'OPERATOR_LOCKED',
    })
    await expect(authorizeForcedMigration(file, { managerId: '99', pin: '2468' }, pinMatches)).rejects.toMatchObject({
      code: 'MANAGER_REQUIRED',
    })
    const db = temp.track(new Database(file))
    expect(journalVersion(db)).toBe(SHIPPED)
  })
})
