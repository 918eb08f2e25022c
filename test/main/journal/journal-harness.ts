/**
 * Real SQLite files in a fresh temporary folder per test, closed and removed afterwards, and a small
 * migration list (sale → currency column → queue table → backfilled status) that stands in for the
 * journal's real schema, which is not this module's business.
 */
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach } from 'vitest'
import { openJournalDatabase, runInTransaction } from '../../../src-main/journal/database'
import type { Migration } from '../../../src-main/journal/migrations'

export interface TempJournals {
  /** The test's own folder (fresh for each test). */
  readonly dir: string
  /** A path inside the folder. */
  path(name?: string): string
  /** Registers a connection to be closed before the folder is removed. */
  track<T extends Database.Database>(db: T): T
}

/** Call at the top of a describe block: every test gets a fresh folder, removed afterwards. */
export function useTempJournals(): TempJournals {
  let dir = ''
  const open: Database.Database[] = []
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pos-agent-journal-'))
  })
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return {
    get dir() {
      return dir
    },
    path: (name = 'journal.sqlite') => join(dir, name),
    track: (db) => {
      open.push(db)
      return db
    },
  }
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sales',
    up: (db) => db.exec('CREATE TABLE sale (id TEXT PRIMARY KEY, amount INTEGER NOT NULL)'),
  },
  {
    version: 2,
    description: 'currency of a sale',
    up: (db) => db.exec("ALTER TABLE sale ADD COLUMN currency TEXT NOT NULL DEFAULT 'EUR'"),
  },
  {
    version: 3,
    description: 'store-and-forward queue',
    up: (db) =>
      db.exec(`CREATE TABLE queue (id INTEGER PRIMARY KEY, sale_id TEXT NOT NULL REFERENCES sale(id), payload BLOB NOT NULL);
               CREATE INDEX queue_sale ON queue(sale_id)`),
  },
  {
    version: 4,
    description: 'explicit sale status, backfilled',
    up: (db) => {
      db.exec("ALTER TABLE sale ADD COLUMN status TEXT NOT NULL DEFAULT 'new'")
      db.exec("UPDATE sale SET status = 'queued' WHERE id IN (SELECT sale_id FROM queue)")
    },
  },
]

/** Rows a journal at `version` can hold, written before it is upgraded (v0 holds nothing). */
export function seedAtVersion(db: Database.Database, version: number): void {
  if (version >= 1) db.prepare('INSERT INTO sale (id, amount) VALUES (?, ?)').run('s1', 1250)
  if (version >= 2) db.prepare('INSERT INTO sale (id, amount, currency) VALUES (?, ?, ?)').run('s2', 990, 'CHF')
  if (version >= 3) db.prepare('INSERT INTO queue (sale_id, payload) VALUES (?, ?)').run('s2', Buffer.from([1, 2, 3]))
}

/** The error `fn` throws; fails the test when it throws nothing. */
export function catchError(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected an error, none was thrown')
}

/**
 * A WAL journal of 500 sales (over 20 pages), closed, and a copy of it with `bytes` written at
 * `offset` of page `page(root)`, where `root` is the sale table's root page.
 */
export function damagedCopy(
  temp: TempJournals,
  page: (root: number) => number,
  offset: number,
  bytes: Buffer,
): { good: string; bad: string; pageCount: number } {
  const good = temp.path('good.sqlite')
  const db = openJournalDatabase(good, { migrations: MIGRATIONS })
  const insert = db.prepare('INSERT INTO sale (id, amount) VALUES (?, ?)')
  runInTransaction(db, () => {
    for (let i = 0; i < 500; i++) insert.run(`sale-${i}-${'x'.repeat(60)}`, i)
  })
  const pageSize = db.pragma('page_size', { simple: true }) as number
  const root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'sale'").pluck().get() as number
  const pageCount = db.pragma('page_count', { simple: true }) as number
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  const bad = temp.path('bad.sqlite')
  copyFileSync(good, bad)
  const fd = openSync(bad, 'r+')
  writeSync(fd, bytes, 0, bytes.length, (page(root) - 1) * pageSize + offset)
  closeSync(fd)
  return { good, bad, pageCount }
}
