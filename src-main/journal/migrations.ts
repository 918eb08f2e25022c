/**
 * Versioned, forward-only schema migrations. The caller owns the list (the journal schema is not
 * defined here); this runner applies it in order, one `BEGIN IMMEDIATE` transaction per step, and
 * keeps the version in `PRAGMA user_version`, which lives in the database header and so commits or
 * rolls back with the step (https://sqlite.org/pragma.html#pragma_user_version). A failed step leaves
 * no trace: SQLite DDL is transactional. A journal written by a newer agent is refused, never
 * "downgraded", because older code cannot know what the newer columns mean for a sale.
 */
import type Database from 'better-sqlite3'
import { JournalError, mapJournalError } from './journal-error'

export interface Migration {
  /** 1 for the first migration, then consecutive: the list is checked for gaps and duplicates. */
  readonly version: number
  readonly description: string
  /**
   * Runs inside the step's transaction: plain DDL/DML only. Statements that cannot run in a
   * transaction (PRAGMA foreign_keys, VACUUM, journal_mode) are ignored or fail there.
   */
  up(db: Database.Database): void
}

export interface MigrateOptions {
  /** Stamps `journal_migration.applied_at`; defaults to the system clock. */
  now?: () => Date
}

/** When each step ran, for support: `user_version` stays the one source of truth for the version. */
export const MIGRATION_HISTORY_TABLE = 'journal_migration'

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
  const now = options.now ?? (() => new Date())
  for (const migration of migrations.slice(found, version)) step(db, migration, now)
  return journalVersion(db)
}

function step(db: Database.Database, migration: Migration, now: () => Date): void {
  const run = db.transaction(() => {
    // Re-read under the write lock: another process may have applied this step while we waited.
    if (journalVersion(db) >= migration.version) return
    db.exec(`CREATE TABLE IF NOT EXISTS ${MIGRATION_HISTORY_TABLE} (
      version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`)
    migration.up(db)
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
