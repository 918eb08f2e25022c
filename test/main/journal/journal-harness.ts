/**
 * Real SQLite files in a fresh temporary folder per test, closed and removed afterwards, and a small
 * migration list (sale → currency column → queue table → backfilled status) that stands in for the
 * journal's real schema, which is not this module's business.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach } from 'vitest'
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
