import { existsSync, readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openJournalDatabase } from '../../../src-main/journal/database'
import {
  JournalMigrationError,
  JournalTooNewError,
  MIGRATION_HISTORY_TABLE,
  MigrationListError,
  journalVersion,
  migrateTo,
  validateMigrations,
  type Migration,
} from '../../../src-main/journal/migrations'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { QUEUE_FAILURES } from '../../../src-shared/sale'
import { MIGRATIONS, catchError, seedAtVersion, useTempJournals } from './journal-harness'

const LATEST = MIGRATIONS.length
const tables = (db: Database.Database): string[] =>
  db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[]

describe('migrations', () => {
  const temp = useTempJournals()

  it('a new journal is migrated to the latest version, with a history row per step', () => {
    const now = () => new Date('2026-03-01T10:00:00Z')
    const db = temp.track(openJournalDatabase(temp.path(), { migrations: MIGRATIONS, now }))
    expect(journalVersion(db)).toBe(LATEST)
    expect(db.prepare(`SELECT version, description, applied_at FROM ${MIGRATION_HISTORY_TABLE} ORDER BY version`).all()).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, description: m.description, applied_at: '2026-03-01T10:00:00.000Z' })),
    )
  })

  it.each(Array.from({ length: LATEST }, (_, version) => version))(
    'a journal at version %i opens at the latest with its data preserved',
    (version) => {
      const file = temp.path()
      const old = new Database(file)
      expect(migrateTo(old, MIGRATIONS, version)).toBe(version)
      seedAtVersion(old, version)
      old.close()

      const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
      expect(journalVersion(db)).toBe(LATEST)
      const sales = db.prepare('SELECT id, amount, currency, status FROM sale ORDER BY id').all()
      const expected = [
        { id: 's1', amount: 1250, currency: 'EUR', status: 'new' },
        { id: 's2', amount: 990, currency: 'CHF', status: version >= 3 ? 'queued' : 'new' },
      ]
      expect(sales).toEqual(expected.slice(0, version))
      expect(db.prepare('SELECT count(*) FROM queue').pluck().get()).toBe(version >= 3 ? 1 : 0)
      expect(db.prepare(`SELECT count(*) FROM ${MIGRATION_HISTORY_TABLE}`).pluck().get()).toBe(LATEST)
    },
  )

  it('opening an up-to-date journal again changes nothing', () => {
    const file = temp.path()
    openJournalDatabase(file, { migrations: MIGRATIONS }).close()
    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    expect(db.prepare(`SELECT count(*) FROM ${MIGRATION_HISTORY_TABLE}`).pluck().get()).toBe(LATEST)
  })

  it('refuses a journal written by a newer pos-agent and leaves it unchanged', () => {
    const file = temp.path()
    openJournalDatabase(file, { migrations: MIGRATIONS }).close()
    const before = readFileSync(file)

    const error = catchError(() => openJournalDatabase(file, { migrations: MIGRATIONS.slice(0, 2) }))
    expect(error).toBeInstanceOf(JournalTooNewError)
    expect(error).toMatchObject({ code: 'JOURNAL_TOO_NEW', found: LATEST, known: 2, retryable: false })
    expect((error as Error).message).toContain('this journal was written by a newer pos-agent')
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('a failing migration rolls back completely: version unchanged, no partial table, no history row', () => {
    const file = temp.path()
    openJournalDatabase(file, { migrations: MIGRATIONS.slice(0, 2) }).close()
    const failing: Migration = {
      version: 3,
      description: 'half-done queue',
      up: (db) => {
        db.exec('CREATE TABLE queue (id INTEGER PRIMARY KEY)')
        db.exec("INSERT INTO sale (id, amount) VALUES ('s9', 1)")
        throw new Error('boom in step 3')
      },
    }

    const error = catchError(() => openJournalDatabase(file, { migrations: [...MIGRATIONS.slice(0, 2), failing] }))
    expect(error).toBeInstanceOf(JournalMigrationError)
    expect(error).toMatchObject({ code: 'JOURNAL_MIGRATION_FAILED', version: 3, description: 'half-done queue' })
    expect((error as Error).message).toContain('boom in step 3')
    expect(((error as Error).cause as Error).message).toBe('boom in step 3')

    const db = temp.track(new Database(file, { readonly: true }))
    expect(journalVersion(db)).toBe(2)
    expect(tables(db)).toEqual([MIGRATION_HISTORY_TABLE, 'sale'])
    expect(db.prepare('SELECT count(*) FROM sale').pluck().get()).toBe(0)
    expect(db.prepare(`SELECT max(version) FROM ${MIGRATION_HISTORY_TABLE}`).pluck().get()).toBe(2)
  })

  it('a failing first migration leaves a new journal at version 0 with no tables', () => {
    const file = temp.path()
    const failing: Migration = {
      version: 1,
      description: 'bad SQL',
      up: (db) => db.exec('CREATE TABLE sale (id TEXT PRIMARY KEY); SELEC 1'),
    }
    expect(catchError(() => openJournalDatabase(file, { migrations: [failing] }))).toBeInstanceOf(JournalMigrationError)
    const db = temp.track(new Database(file, { readonly: true }))
    expect(journalVersion(db)).toBe(0)
    expect(tables(db)).toEqual([])
  })

  it.each([
    ['a gap', [1, 3]],
    ['a duplicate', [1, 1, 2]],
    ['a wrong order', [2, 1]],
    ['a start other than 1', [0, 1]],
  ])('refuses a migration list with %s, before creating any file', (_, versions) => {
    const list = versions.map((version) => ({ version, description: `v${version}`, up: () => undefined }))
    expect(() => validateMigrations(list)).toThrow(MigrationListError)
    expect(catchError(() => openJournalDatabase(temp.path(), { migrations: list }))).toMatchObject({ code: 'JOURNAL_MIGRATION_LIST' })
    expect(existsSync(temp.path())).toBe(false)
  })

  it('migrateTo refuses targets outside the list and never goes backwards', () => {
    const db = temp.track(new Database(temp.path()))
    expect(() => migrateTo(db, MIGRATIONS, LATEST + 1)).toThrow(MigrationListError)
    expect(() => migrateTo(db, MIGRATIONS, -1)).toThrow(MigrationListError)
    migrateTo(db, MIGRATIONS, 3)
    expect(() => migrateTo(db, MIGRATIONS, 2)).toThrow(JournalTooNewError)
    expect(journalVersion(db)).toBe(3)
  })
})

describe('lists the schema writes out', () => {
  const temp = useTempJournals()

  // A shipped migration never changes, so the kinds of queue failure are written out in it: this holds
  // that list to the one the forwarder records (QUEUE_FAILURES), so a new kind cannot be forgotten.
  it("outbox.last_failure takes exactly the queue's failure kinds", () => {
    const db = temp.track(openJournalDatabase(temp.path(), { migrations: JOURNAL_MIGRATIONS }))
    db.pragma('foreign_keys = OFF') // a queue row without its sale: only the column's CHECK is under test
    db.prepare(
      "INSERT INTO outbox (sale_id, operation, message_id, priority, state, body, key_id, amount_minor, currency, next_attempt_at, created_at) VALUES ('S1', 'payment', 'M1', 1, 'pending', NULL, 'k', 100, 'USD', 0, 0)",
    ).run()
    const record = (failure: string) => () => db.prepare('UPDATE outbox SET last_failure = ? WHERE sale_id = ?').run(failure, 'S1')
    for (const failure of QUEUE_FAILURES) expect(record(failure)).not.toThrow()
    expect(record('notDelivered')).toThrow(/CHECK constraint failed/)
    const check = /last_failure TEXT\s+CHECK \(last_failure IN \(([^)]*)\)\)/.exec(
      db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'outbox'").pluck().get() as string,
    )
    expect(check?.[1]?.split(',').map((kind) => kind.trim().replace(/'/g, ''))).toEqual([...QUEUE_FAILURES])
  })
})
