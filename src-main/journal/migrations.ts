/**
 * Versioned, forward-only schema migrations. The caller owns the list (the journal schema is not
 * defined here); this runner applies it in order, one `BEGIN IMMEDIATE` transaction per step, and
 * keeps the version in `PRAGMA user_version`, which lives in the database header and so commits or
 * rolls back with the step (https://sqlite.org/pragma.html#pragma_user_version). A failed step leaves
 * no trace: SQLite DDL is transactional. A journal written by a newer agent is refused, never
 * "downgraded", because older code cannot know what the newer columns mean for a sale.
 *
 * Going back to the version before therefore means the journal before the upgrade, and a step that
 * loses something (`Migration.irreversible`) makes that impossible: such a step does not run while
 * the journal still owes the bank anything, unless a manager forces it, which the journal records.
 */
import type Database from 'better-sqlite3'
import { JournalError, mapJournalError } from './journal-error'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

export interface Migration {
  /** 1 for the first migration, then consecutive: the list is checked for gaps and duplicates. */
  readonly version: number
  readonly description: string
  /**
   * Runs inside the step's transaction: plain DDL/DML only. Statements that cannot run in a
   * transaction (PRAGMA foreign_keys, VACUUM, journal_mode) are ignored or fail there.
   */
  up(db: Database.Database): void
  /**
   * Set on a step that cannot be undone, saying in plain words what it loses: one that drops or
   * rewrites what was journaled (a table or column dropped, rows rewritten in place), so that the
   * journal before it can no longer be had back from the journal after it. Unset means every step
   * only adds (tables, columns, indexes, values derived from rows that stay): dropping what it added
   * gives the old journal back. Such a step is refused while the journal owes the bank anything,
   * unless a manager forces it (`MigrateOptions.guard`).
   */
  readonly irreversible?: string
}

/** A manager who forced an irreversible step while items were owed, proved by the caller beforehand. */
export interface ForcedMigration {
  /** The manager's operator number, checked against their PIN before the journal is opened. */
  readonly managerId: string
}

/** What keeps an irreversible step from running over a queue the bank is still owed. */
export interface MigrationGuard {
  /** The queue items still owed to the bank, read before any step runs; 0 when there is no queue yet. */
  owed(db: Database.Database): number
  /** A manager forced the upgrade: the steps run, and each forced one is recorded with who forced it. */
  force?: ForcedMigration | undefined
}

export interface MigrateOptions {
  /** Stamps `journal_migration.applied_at`; defaults to the system clock. */
  now?: () => Date
  /** Without it, no step is held back (a list of only additive steps needs none). */
  guard?: MigrationGuard | undefined
}

/** When each step ran, for support: `user_version` stays the one source of truth for the version. */
export const MIGRATION_HISTORY_TABLE = 'journal_migration'
/** Who forced an irreversible step over owed items, and how many were owed: written in the step's own commit. */
export const FORCED_MIGRATION_TABLE = 'journal_migration_forced'

export class JournalTooNewError extends JournalError {
  override readonly name = 'JournalTooNewError'
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      'JOURNAL_TOO_NEW',
      `this journal was written by a newer pos-agent (${file} is at version ${found}, this pos-agent knows up to ${known}): ` +
        'install that pos-agent version or newer; the journal was not changed',
    )
  }
}

export class JournalMigrationError extends JournalError {
  override readonly name = 'JournalMigrationError'
  constructor(
    readonly file: string,
    readonly version: number,
    readonly description: string,
    options?: ErrorOptions,
  ) {
    const reason = options?.cause instanceof Error ? options.cause.message : String(options?.cause)
    super(
      'JOURNAL_MIGRATION_FAILED',
      `upgrading the journal to version ${version} (${description}) failed and was rolled back (${file}): ${reason}; ` +
        `the journal stays at version ${version - 1}`,
      options,
    )
  }
}

/**
 * The upgrade would run a step that cannot be undone while the journal still owes the bank stored
 * payments, reversals or other messages: refused before anything is changed, so that going back to
 * the version before stays possible until the queue is empty.
 */
export class MigrationWouldStrandQueueError extends JournalError {
  override readonly name = 'MigrationWouldStrandQueueError'
  constructor(
    readonly file: string,
    readonly owed: number,
    readonly steps: readonly { version: number; description: string; irreversible: string }[],
  ) {
    const what = steps.map((s) => `version ${s.version} (${s.description}: ${s.irreversible})`).join('; ')
    super(
      'JOURNAL_MIGRATION_OWED',
      `this update changes the journal in a way that cannot be undone (${what}) while ${owed} ${owed === 1 ? 'item is' : 'items are'} ` +
        `still owed to the bank (${file}): connect the terminal to the bank and let the queue send them, then start again; ` +
        'or a manager forces the update (--force-migration with their number and PIN); the journal was not changed',
    )
  }
}

/** A broken migration list is a bug in this build, found before any file is touched. */
export class MigrationListError extends JournalError {
  override readonly name = 'MigrationListError'
  constructor(message: string) {
    super('JOURNAL_MIGRATION_LIST', message)
  }
}

/** Versions must be exactly 1, 2, 3, … in list order: no gaps, no duplicates, no reordering. */
export function validateMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new MigrationListError(
        `migration #${index + 1} ("${migration.description}") has version ${migration.version}, expected ${index + 1}: ` +
          'versions must run 1, 2, 3, … without gaps or duplicates',
      )
    }
  })
}

export function journalVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Brings the database up to the last migration in the list; returns the version reached. */
export function applyMigrations(db: Database.Database, migrations: readonly Migration[], options: MigrateOptions = {}): number {
  return migrateTo(db, migrations, migrations.length, options)
}

/**
 * Brings the database up to `version` (≤ the list's last). Tests use it to build a journal at every
 * earlier version and then open it with the full list.
 */
export function migrateTo(db: Database.Database, migrations: readonly Migration[], version: number, options: MigrateOptions = {}): number {
  validateMigrations(migrations)
  if (!Number.isInteger(version) || version < 0 || version > migrations.length) {
    throw new MigrationListError(`cannot migrate to version ${version}: the list has versions 1 to ${migrations.length}`)
  }
  const found = journalVersion(db)
  if (found > version) throw new JournalTooNewError(db.name, found, version)
  const now = options.now ?? (() => new Date(SYSTEM_CLOCK.now()))
  const pending = migrations.slice(found, version)
  const forced = guardSteps(db, pending, options.guard)
  for (const migration of pending) step(db, migration, now, migration.irreversible !== undefined ? forced : undefined)
  return journalVersion(db)
}

/**
 * Refuses the irreversible steps about to run while items are owed, unless a manager forced them;
 * returns what a forced step records. Read once before the first step: the agent is not running
 * while its journal is migrated, so nothing is queued in between.
 */
function guardSteps(
  db: Database.Database,
  pending: readonly Migration[],
  guard: MigrationGuard | undefined,
): { managerId: string; owed: number } | undefined {
  const irreversible = pending.filter((m): m is Migration & { irreversible: string } => m.irreversible !== undefined)
  if (!guard || irreversible.length === 0) return undefined
  const owed = guard.owed(db)
  if (owed === 0) return undefined
  if (!guard.force) throw new MigrationWouldStrandQueueError(db.name, owed, irreversible)
  return { managerId: guard.force.managerId, owed }
}

function step(db: Database.Database, migration: Migration, now: () => Date, forced?: { managerId: string; owed: number }): void {
  const run = db.transaction(() => {
    // Re-read under the write lock: another process may have applied this step while we waited.
    if (journalVersion(db) >= migration.version) return
    db.exec(`CREATE TABLE IF NOT EXISTS ${MIGRATION_HISTORY_TABLE} (
      version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`)
    migration.up(db)
    if (forced) {
      // In the step's own commit: a forced step is never applied without the record of who forced it.
      db.exec(`CREATE TABLE IF NOT EXISTS ${FORCED_MIGRATION_TABLE} (
        version INTEGER PRIMARY KEY, manager_id TEXT NOT NULL, owed_items INTEGER NOT NULL, applied_at TEXT NOT NULL)`)
      db.prepare(`INSERT INTO ${FORCED_MIGRATION_TABLE} (version, manager_id, owed_items, applied_at) VALUES (?, ?, ?, ?)`).run(
        migration.version,
        forced.managerId,
        forced.owed,
        now().toISOString(),
      )
    }
    db.prepare(`INSERT INTO ${MIGRATION_HISTORY_TABLE} (version, description, applied_at) VALUES (?, ?, ?)`).run(
      migration.version,
      migration.description,
      now().toISOString(),
    )
    // PRAGMA takes no bound parameters; the version is an integer checked by validateMigrations.
    db.pragma(`user_version = ${migration.version}`)
  })
  try {
    run.immediate()
  } catch (error) {
    const mapped = mapJournalError(error, db.name)
    if (mapped instanceof JournalError) throw mapped
    throw new JournalMigrationError(db.name, migration.version, migration.description, { cause: error })
  }
}
