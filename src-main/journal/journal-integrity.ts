/**
 * Is the journal file sound? SQLite's `PRAGMA quick_check` reads every page, so its cost grows with
 * the file: about half a second for a journal of a million sales, which would be half of the agent's
 * start (docs/performance.md, "Start"). A journal is checked whole before use up to
 * `FULL_CHECK_AT_OPEN_MAX_BYTES`; a larger one in WAL mode gets a structural check at open (its
 * schema and the first page path of every table, where a damaged root page shows at once) and its
 * full check aside, on a read-only connection in a worker thread, while the counter already works
 * (https://sqlite.org/pragma.html#pragma_quick_check; WAL readers run beside the writer,
 * https://sqlite.org/wal.html). What the full check finds stops the journal's writes
 * (database.ts, `markJournalDamaged`), so a damaged journal is left as it stands for recovery.
 *
 * quick_check does not compare the indexes with their tables: an index page damaged in a way that
 * still parses (a key's bytes changed) passes it, and a lookup through that index then misses its
 * row. The check at idle (`indexes: true`) is SQLite's `integrity_check`, which does
 * (https://sqlite.org/pragma.html#pragma_integrity_check): about five times quick_check's work, on
 * the worker, while nothing is being sold.
 */
import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type Database from 'better-sqlite3'
import { JournalCorruptError } from './journal-error'

/** quick_check lists at most this many problems; the first few go into the error message. */
const MAX_REPORTED_PROBLEMS = 20

/**
 * Above this size the full check runs aside. 64 MiB is about 150,000 sales, whose quick_check takes
 * some 80 ms on the reference machine: below it the check costs the start little.
 */
export const FULL_CHECK_AT_OPEN_MAX_BYTES = 64 * 1024 * 1024

/** Whether the journal at `path` is large enough to have its full check aside (false for a new file). */
export function fullCheckGoesAside(path: string, maxBytes = FULL_CHECK_AT_OPEN_MAX_BYTES): boolean {
  try {
    return statSync(path).size > maxBytes
  } catch {
    return false
  }
}

/** The full check, here and now. */
export function checkIntegrity(db: Database.Database, path: string): void {
  const rows = db.prepare(`PRAGMA quick_check(${MAX_REPORTED_PROBLEMS})`).pluck().all() as string[]
  const problems = problemsOf(rows)
  if (problems.length > 0) throw new JournalCorruptError(path, problems)
}

/**
 * The cheap check: the schema parses and the first row of every table can be read (root page and
 * the path to the first leaf). SQLite refuses a damaged page it reads with SQLITE_CORRUPT, which
 * the caller maps to JournalCorruptError.
 */
export function checkStructure(db: Database.Database): void {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]
  for (const table of tables) db.prepare(`SELECT * FROM "${table.replaceAll('"', '""')}" LIMIT 1`).all()
}

/** The pragma a check runs: `integrity_check` also reads every index against its table. */
function checkPragma(indexes: boolean): string {
  return indexes ? 'integrity_check' : 'quick_check'
}

/** A full check running aside; `done` rejects with JournalCorruptError when the file is damaged. */
export interface IntegrityCheckAside {
  done: Promise<void>
  /** Stops the check (the journal closes): `done` then resolves. */
  cancel(): Promise<void>
}

/**
 * The worker's code, evaluated: it opens the file read-only by itself, so the check never touches
 * the writer's connection, and loads better-sqlite3 from the path the agent resolved (the same copy,
 * also inside a packaged app).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
let db
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true })
  parentPort.postMessage({ rows: db.prepare('PRAGMA ' + workerData.pragma + '(' + workerData.max + ')').pluck().all() })
} catch (error) {
  parentPort.postMessage({ failed: { code: error && error.code, message: String(error && error.message) } })
} finally {
  if (db) db.close()
}
`

/** `indexes`: integrity_check instead of quick_check (the check at idle). */
export function checkIntegrityAside(path: string, options: { indexes?: boolean } = {}): IntegrityCheckAside {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const pragma = checkPragma(options.indexes ?? false)
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: path, max: MAX_REPORTED_PROBLEMS, pragma } })
  let cancelled = false
  const done = new Promise<void>((resolve, reject) => {
    worker.once('message', (answer: { rows?: string[]; failed?: { code?: string; message: string } }) => {
      if (answer.failed) {
        // Only SQLite's own word on the file's content counts as damage; a file it could not open
        // (removed, permissions) is not a verdict, and the writer's connection reports those itself.
        if (/^SQLITE_(CORRUPT|NOTADB)/.test(answer.failed.code ?? '')) reject(new JournalCorruptError(path, [answer.failed.message]))
        else resolve()
        return
      }
      const problems = problemsOf(answer.rows ?? [])
      if (problems.length > 0) reject(new JournalCorruptError(path, problems))
      else resolve()
    })
    worker.once('error', (error) => (cancelled ? resolve() : reject(error)))
    worker.once('exit', () => resolve())
  })
  return {
    done,
    cancel: async () => {
      cancelled = true
      await worker.terminate()
    },
  }
}

/** quick_check's (or integrity_check's) rows as problems; none when it says "ok". Rows may carry several lines and a banner. */
function problemsOf(rows: readonly string[]): string[] {
  if (rows.length === 1 && rows[0] === 'ok') return []
  const problems = rows.flatMap((row) => row.split('\n')).filter((line) => line !== '' && !line.startsWith('*** in database'))
  return problems.length > 0 ? problems : [...rows]
}
