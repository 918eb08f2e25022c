/**
 * The journal's typed errors and the one place SQLite and file-system failures are mapped to them,
 * so the opener, the migration runner and every transaction say the same thing to the cashier.
 * Kept in its own file because both database.ts and migrations.ts need it (no import cycle).
 */
import { PosError, type ErrorCode } from '../../src-shared/errors'

export const JOURNAL_ERROR_CODES = [
  'JOURNAL_DISK_FULL',
  'JOURNAL_IO',
  'JOURNAL_BUSY',
  'JOURNAL_CORRUPT',
  'JOURNAL_NOT_DURABLE',
  'JOURNAL_TOO_NEW',
  'JOURNAL_MIGRATION_FAILED',
  'JOURNAL_MIGRATION_OWED',
  'JOURNAL_MIGRATION_LIST',
  'SEALED_FIELD_UNREADABLE',
  'DATA_KEY_MISSING',
  'DATA_KEY_INVALID',
] as const satisfies readonly ErrorCode[]
export type JournalErrorCode = (typeof JOURNAL_ERROR_CODES)[number]

/** Base of every journal failure; whether repeating the same step may succeed is the catalogue's word. */
export class JournalError extends PosError {
  override readonly name: string = 'JournalError'
  declare readonly code: JournalErrorCode
  constructor(code: JournalErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}

export class JournalDiskFullError extends JournalError {
  override readonly name = 'JournalDiskFullError'
  constructor(
    readonly file: string,
    options?: ErrorOptions,
  ) {
    super(
      'JOURNAL_DISK_FULL',
      `the disk holding the journal is full (${file}): free space; no sale was lost because nothing was committed`,
      options,
    )
  }
}

export class JournalIoError extends JournalError {
  override readonly name = 'JournalIoError'
  constructor(
    readonly file: string,
    readonly systemCode: string,
    options?: ErrorOptions,
  ) {
    super(
      'JOURNAL_IO',
      `the journal could not be read or written (${file}, ${systemCode}): check the disk and the folder's permissions; the failed change was not committed`,
      options,
    )
  }
}

/**
 * Another connection holds the write lock past the busy timeout (the `timeout` option,
 * better-sqlite3 API documentation, github.com/WiseLibs/better-sqlite3, docs folder, "api").
 */
export class JournalBusyError extends JournalError {
  override readonly name = 'JournalBusyError'
  constructor(
    readonly file: string,
    options?: ErrorOptions,
  ) {
    super(
      'JOURNAL_BUSY',
      `the journal is locked by another connection (${file}): retry; only one pos-agent may write a journal at a time`,
      options,
    )
  }
}

/** Raised at open by `quick_check` (or by SQLite itself); the file is left exactly as found. */
export class JournalCorruptError extends JournalError {
  override readonly name = 'JournalCorruptError'
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
    options?: ErrorOptions,
  ) {
    super(
      'JOURNAL_CORRUPT',
      `the journal failed its integrity check (${file}): ${problems.slice(0, 3).join('; ')}. ` +
        'The file was left untouched: do not delete it; keep a copy and restore the journal from backup or contact support',
      options,
    )
  }
}

const DISK_FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT'])
const CORRUPT = /^SQLITE_(CORRUPT|NOTADB)/
const BUSY = /^SQLITE_(BUSY|LOCKED)/
const IO = /^(SQLITE_(IOERR|CANTOPEN|READONLY|PERM)|EACCES$|EPERM$|EROFS$|EIO$|ENOTDIR$|EISDIR$|EEXIST$)/

/**
 * The typed journal error for a SQLite or file-system failure; anything else (a JournalError, a
 * constraint violation the store may want to inspect, a bug in the caller) comes back unchanged.
 */
export function mapJournalError(error: unknown, file: string): unknown {
  if (error instanceof JournalError) return error
  const code = errorCode(error)
  if (code === undefined) return error
  if (DISK_FULL.has(code)) return new JournalDiskFullError(file, { cause: error })
  if (CORRUPT.test(code)) return new JournalCorruptError(file, [error instanceof Error ? error.message : code], { cause: error })
  if (BUSY.test(code)) return new JournalBusyError(file, { cause: error })
  if (IO.test(code)) return new JournalIoError(file, code, { cause: error })
  return error
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}
