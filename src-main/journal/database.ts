/**
 * Opens the journal's SQLite file the same careful way every time (https://sqlite.org/pragma.html):
 *
 *   folder 0700, file 0600 → busy timeout → PRAGMA quick_check → journal_mode=WAL →
 *   synchronous=FULL (verified) → fullfsync=ON → foreign_keys=ON (verified) →
 *   secure_delete=ON (verified) → migrations (an irreversible one held back while items are owed)
 *
 * quick_check runs before journal_mode on purpose: switching a rollback-journal file to WAL rewrites
 * its header, and a corrupt journal must be left byte-for-byte as found for recovery. The other
 * pragmas are per connection and write nothing. A large journal already in WAL mode may have its
 * full check aside instead (journal-integrity.ts, `fullCheckAtOpenMaxBytes`).
 */
import { chmodSync, closeSync, constants, mkdirSync, openSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { JournalError, mapJournalError } from './journal-error'
import { checkIntegrity, checkStructure, fullCheckGoesAside } from './journal-integrity'
import { queueGuard } from './migration-guard'
import { applyMigrations, validateMigrations, type ForcedMigration, type Migration } from './migrations'

export interface OpenJournalOptions {
  /** The schema's forward-only steps, owned by the caller (see migrations.ts). */
  migrations: readonly Migration[]
  /** Stamps the migration history; defaults to the system clock. */
  now?: () => Date
  /** How long a write waits for another connection's lock before JournalBusyError. */
  busyTimeoutMs?: number
  /**
   * A journal in WAL mode larger than this gets only the structural check at open; its full check is
   * then the caller's to run aside (`fullCheckPending`, journal-integrity.ts `checkIntegrityAside`).
   * Unset: every journal is checked whole before use.
   */
  fullCheckAtOpenMaxBytes?: number
  /**
   * A manager forced the steps that cannot be undone while items are owed to the bank
   * (migration-guard.ts `authorizeForcedMigration`); without it such a step is refused.
   */
  forceMigration?: ForcedMigration | undefined
}

/**
 * better-sqlite3's default `timeout`, kept explicit (`new Database()` in
 * better-sqlite3 API documentation, github.com/WiseLibs/better-sqlite3, docs folder, "api").
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000
/** PRAGMA synchronous values (https://sqlite.org/pragma.html#pragma_synchronous). */
const SYNCHRONOUS_FULL = 2
const SYNCHRONOUS_NORMAL = 1

/** A pragma that did not take effect: the journal would not keep sales the way the agent promises. */
export class JournalNotDurableError extends JournalError {
  override readonly name = 'JournalNotDurableError'
  constructor(
    readonly file: string,
    readonly setting: string,
    readonly actual: unknown,
    why = 'every committed sale depends on it',
  ) {
    super(
      'JOURNAL_NOT_DURABLE',
      `the journal refused ${setting} (${file} reports ${String(actual)}): ${why}, so the agent will not take payments without it`,
    )
  }
}

/**
 * The journal database, checked, configured and migrated. Every failure is a JournalError; the
 * connection is closed again when opening fails.
 */
export function openJournalDatabase(file: string, options: OpenJournalOptions): Database.Database {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) {
    throw new TypeError(`the journal must be a plain file path, got "${file}": a durable journal cannot live in memory`)
  }
  const path = resolve(file)
  // A broken list is a bug in this build: refuse before creating anything on disk.
  validateMigrations(options.migrations)
  const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
  let db: Database.Database | undefined
  try {
    createPrivately(path)
    db = new Database(path, { timeout })
    // Asked before journal_mode is set, so a file in rollback mode is still checked whole, untouched.
    const aside =
      options.fullCheckAtOpenMaxBytes !== undefined &&
      fullCheckGoesAside(path, options.fullCheckAtOpenMaxBytes) &&
      db.pragma('journal_mode', { simple: true }) === 'wal'
    if (aside) checkStructure(db)
    else checkIntegrity(db, path)
    stateOf(db).fullCheckPending = aside
    configureDurability(db, path)
    configureErasure(db, path)
    applyMigrations(db, options.migrations, { now: options.now, guard: queueGuard(options.forceMigration) })
    return db
  } catch (error) {
    db?.close()
    throw mapJournalError(error, path)
  }
}

/** How a transaction's commit reaches the disk (https://sqlite.org/pragma.html#pragma_synchronous). */
export type CommitSync =
  /** The WAL is synced before the commit returns (synchronous=FULL): it survives a power cut. */
  | 'durable'
  /**
   * The commit is written to the WAL, not synced (synchronous=NORMAL): it survives the agent's own
   * crash, and becomes durable with the next durable commit, which syncs the whole WAL, itself
   * included. A power cut before then loses it, and only it and what came after it: WAL frames are
   * chained by checksum, so recovery never keeps a later commit without an earlier one
   * (https://sqlite.org/wal.html, "Durability"; https://sqlite.org/fileformat2.html §4.3).
   */
  | 'withNext'

/**
 * How the levels inside a transaction nest.
 * - 'savepoints': each level inside is a savepoint, so a caller inside may catch a level's failure
 *   and go on, that level alone rolled back.
 * - 'whole': nothing inside catches a failure and goes on, so a failure anywhere rolls the whole
 *   transaction back, and the levels inside need no savepoints. SQLite keeps a copy of every page a
 *   savepoint changes, to roll it back alone: in a forwarded answer's step that was about 8% of the
 *   agent's CPU (docs/performance.md). Given by the outermost level; the levels inside follow it.
 */
export type Nesting = 'savepoints' | 'whole'

/**
 * Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so a writer never
 * fails half-way on a lock upgrade (https://sqlite.org/lang_transaction.html; `.immediate()` in
 * better-sqlite3 API documentation, github.com/WiseLibs/better-sqlite3, docs folder, "api").
 * Commits when `fn` returns, rolls back when it throws. `fn` must be synchronous (better-sqlite3
 * rejects a returned promise). SQLite failures come back as JournalErrors; anything `fn` throws
 * itself comes back unchanged. Called inside another transaction it is a savepoint of it: what it
 * wrote is durable only when the outermost one commits, and so are the callbacks of `afterCommit`;
 * the outermost transaction's `sync` decides how it reaches the disk.
 */
export function runInTransaction<T>(db: Database.Database, fn: () => T, sync: CommitSync = 'durable', nesting: Nesting = 'savepoints'): T {
  const commits = stateOf(db)
  // A journal found damaged takes no more writes: it stays as it stands for recovery.
  if (commits.damaged) throw commits.damaged
  const mark = commits.pending.length
  if (commits.depth > 0 && commits.whole) {
    // Inside an all-or-nothing transaction: a failure here rolls back the outermost level.
    commits.depth++
    try {
      return fn()
    } catch (error) {
      commits.pending.length = mark
      throw mapJournalError(error, db.name)
    } finally {
      commits.depth--
    }
  }
  // SQLite refuses to change synchronous inside a transaction: only the outermost level sets it.
  const relaxed = sync === 'withNext' && commits.depth === 0 && !db.inTransaction
  if (commits.depth === 0 && !db.inTransaction) commits.onBegin?.()
  if (relaxed) db.pragma(`synchronous = ${SYNCHRONOUS_NORMAL}`)
  const outermost = commits.depth === 0
  if (outermost) commits.whole = nesting === 'whole'
  commits.depth++
  let result: T
  try {
    result = commits.transaction.immediate(fn) as T
  } catch (error) {
    // Rolled back: what this level (and any level inside it) announced never happened.
    commits.pending.length = mark
    throw mapJournalError(error, db.name)
  } finally {
    commits.depth--
    if (outermost) commits.whole = false
    if (relaxed) restoreFullSync(db)
  }
  if (commits.depth === 0) runCommitted(commits)
  return result
}

/**
 * Back to FULL after a relaxed commit, verified: every other commit of the journal counts on it.
 * Through `db.pragma` each time: SQLite applies a synchronous pragma when it compiles it, so a
 * prepared statement run again would change nothing.
 */
function restoreFullSync(db: Database.Database): void {
  db.pragma(`synchronous = ${SYNCHRONOUS_FULL}`)
  const synchronous = db.pragma('synchronous', { simple: true })
  if (synchronous !== SYNCHRONOUS_FULL) throw new JournalNotDurableError(db.name, 'synchronous=FULL', synchronous)
}

/**
 * Runs `announce` once what has been written so far is committed: at once outside a transaction,
 * after the outermost commit inside one, never if it rolls back. Whatever tells the world about a
 * change (a sale's new state to the screens and the event stream, the counter set free, the queue
 * woken) goes through here, so that nobody learns of a change a failed commit took back.
 */
export function afterCommit(db: Database.Database, announce: () => void): void {
  const commits = stateOf(db)
  if (commits.depth === 0 && !db.inTransaction) announce()
  else commits.pending.push(announce)
}

/** What the journal layer keeps per connection: its transactions' depth and announcements, its health. */
interface JournalState {
  depth: number
  pending: Array<() => void>
  /** Set by the integrity check aside: every later transaction is refused with it. */
  damaged?: JournalError | undefined
  /** The open left the full integrity check to the caller (a large journal). */
  fullCheckPending?: boolean
  transaction: Database.Transaction<(fn: () => unknown) => unknown>
  /** Told as each outermost transaction begins (observeTransactions). */
  onBegin?: (() => void) | undefined
  /** The open outermost transaction is all or nothing (`Nesting` 'whole'): no savepoints inside it. */
  whole: boolean
}

const journalStates = new WeakMap<Database.Database, JournalState>()

function stateOf(db: Database.Database): JournalState {
  let state = journalStates.get(db)
  // One transaction wrapper per connection, made once: better-sqlite3 builds a new one (five
  // functions and their properties) on every db.transaction() call, garbage made per commit.
  if (!state)
    journalStates.set(db, (state = { depth: 0, pending: [], whole: false, transaction: db.transaction((fn: () => unknown) => fn()) }))
  return state
}

/** Diagnostics and tests: `onBegin` is told as each outermost transaction on `db` begins. */
export function observeTransactions(db: Database.Database, onBegin: (() => void) | undefined): void {
  stateOf(db).onBegin = onBegin
}

/** Whether the open left the full integrity check to be run aside (journal-integrity.ts). */
export function fullCheckPending(db: Database.Database): boolean {
  return stateOf(db).fullCheckPending === true
}

/**
 * The full check found damage: from now on every transaction on `db` is refused with `error` (reads
 * go on, so sales can still be looked up), and the file is left as it stands for recovery.
 */
/** Whether a check found the journal damaged (it then takes no more writes). */
export function isJournalDamaged(db: Database.Database): boolean {
  return stateOf(db).damaged !== undefined
}

export function markJournalDamaged(db: Database.Database, error: JournalError): void {
  stateOf(db).damaged = error
}

/** Every announcement runs, even after one throws; the first error is thrown once all have run. */
function runCommitted(commits: JournalState): void {
  const announcements = commits.pending.splice(0)
  let failure: { error: unknown } | undefined
  for (const announce of announcements) {
    try {
      announce()
    } catch (error) {
      failure ??= { error }
    }
  }
  if (failure) throw failure.error
}

/**
 * Card data waits in this file before authorization (docs/card-reader.md §5), so only the agent's user
 * may read it. SQLite gives the -wal and -shm files the database file's mode; the folder is created
 * 0700 (an existing folder is the installer's choice and left alone). chmod repeats on every open in
 * case the file was copied in with looser permissions; it changes metadata only, never content.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  closeSync(openSync(path, constants.O_CREAT | constants.O_RDWR, 0o600))
  chmodSync(path, 0o600)
}

/**
 * better-sqlite3 is built with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 ("Bundled configuration" in
 * better-sqlite3 documentation, github.com/WiseLibs/better-sqlite3, docs folder, "compilation"), so a re-opened WAL file
 * comes back with synchronous=NORMAL, which can lose the last commits on power loss
 * (https://sqlite.org/pragma.html#pragma_synchronous).
 * FULL syncs the WAL on every commit: a sale the journal acknowledged survives a power cut. Each
 * setting is read back, because SQLite silently ignores some pragmas (e.g. inside a transaction).
 */
function configureDurability(db: Database.Database, path: string): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true })
  if (mode !== 'wal') throw new JournalNotDurableError(path, 'journal_mode=WAL', mode)
  db.pragma('synchronous = FULL')
  const synchronous = db.pragma('synchronous', { simple: true })
  if (synchronous !== SYNCHRONOUS_FULL) throw new JournalNotDurableError(path, 'synchronous=FULL', synchronous)
  // macOS fsync() does not flush the drive's cache; F_FULLFSYNC does. Ignored on other systems
  // (https://sqlite.org/pragma.html#pragma_fullfsync).
  db.pragma('fullfsync = ON')
  db.pragma('foreign_keys = ON')
  const foreignKeys = db.pragma('foreign_keys', { simple: true })
  if (foreignKeys !== 1) throw new JournalNotDurableError(path, 'foreign_keys=ON', foreignKeys)
}

/**
 * secure_delete=ON makes SQLite overwrite deleted content with zeros, in the database file and in the
 * pages it writes to the WAL (https://sqlite.org/pragma.html#pragma_secure_delete): a purged sale's
 * rows and its destroyed key (sale-keys.ts) are not left readable in free space. Per connection,
 * writes nothing itself; read back like the durability settings, because a build may fix it off.
 */
function configureErasure(db: Database.Database, path: string): void {
  db.pragma('secure_delete = ON')
  const secureDelete = db.pragma('secure_delete', { simple: true })
  if (secureDelete !== 1) {
    throw new JournalNotDurableError(path, 'secure_delete=ON', secureDelete, 'purged card data must not stay readable in the file')
  }
}
