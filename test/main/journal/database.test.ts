import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { afterCommit, DEFAULT_BUSY_TIMEOUT_MS, openJournalDatabase, runInTransaction } from '../../../src-main/journal/database'
import { JournalBusyError, JournalCorruptError, JournalDiskFullError, JournalIoError } from '../../../src-main/journal/journal-error'
import { MIGRATIONS, catchError, damagedCopy, useTempJournals } from './journal-harness'

const posix = process.platform !== 'win32'
const mode = (path: string): number => statSync(path).mode & 0o777
const count = (db: Database.Database, table: string): number => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number

describe('openJournalDatabase: pragmas on every open', () => {
  const temp = useTempJournals()

  it('re-opened, the journal is WAL with synchronous really FULL, foreign keys and secure_delete on', () => {
    const file = temp.path()
    openJournalDatabase(file, { migrations: MIGRATIONS }).close()
    // The reason for the check: a plain re-open of a WAL file comes back NORMAL, because better-sqlite3
    // is built with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 ("Bundled configuration" in
    // better-sqlite3 documentation, github.com/WiseLibs/better-sqlite3, docs folder, "compilation").
    const plain = new Database(file)
    expect(plain.pragma('synchronous', { simple: true })).toBe(1)
    plain.close()

    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('synchronous', { simple: true })).toBe(2)
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    // Deleted content is overwritten with zeros: a purged sale's rows do not stay in free pages.
    expect(db.pragma('secure_delete', { simple: true })).toBe(1)
    expect(db.pragma('busy_timeout', { simple: true })).toBe(DEFAULT_BUSY_TIMEOUT_MS)
    expect(() => db.prepare("INSERT INTO queue (sale_id, payload) VALUES ('no-such-sale', x'00')").run()).toThrow(/FOREIGN KEY/)
  })

  it('refuses an in-memory journal', () => {
    expect(() => openJournalDatabase(':memory:', { migrations: MIGRATIONS })).toThrow(/plain file path/)
  })

  it.runIf(posix)('creates the folder 0700 and the database, -wal and -shm files 0600', () => {
    const file = temp.path('nested/deeper/journal.sqlite')
    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    db.prepare("INSERT INTO sale (id, amount) VALUES ('s1', 100)").run()
    expect(mode(temp.path('nested'))).toBe(0o700)
    expect(mode(temp.path('nested/deeper'))).toBe(0o700)
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect([path, mode(path)]).toEqual([path, 0o600])
  })

  it.runIf(posix)('tightens an existing journal copied in with looser permissions', () => {
    const file = temp.path()
    openJournalDatabase(file, { migrations: MIGRATIONS }).close()
    chmodSync(file, 0o644)
    temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    expect(mode(file)).toBe(0o600)
  })

  it('a folder that cannot be created is a JournalIoError', () => {
    writeFileSync(temp.path('not-a-folder'), 'x')
    const error = catchError(() => openJournalDatabase(temp.path('not-a-folder/journal.sqlite'), { migrations: MIGRATIONS }))
    expect(error).toBeInstanceOf(JournalIoError)
    expect(error).toMatchObject({ code: 'JOURNAL_IO', retryable: false })
  })
})

describe('openJournalDatabase: integrity check', () => {
  const temp = useTempJournals()

  it.each([
    ["the header of the sale table's root page (SQLite refuses the page)", (root: number) => root, 0, Buffer.alloc(24, 0xff)],
    ['the cells of a later page (quick_check lists the damage)', () => 20, 100, Buffer.alloc(200, 0)],
  ])('corrupting %s: JournalCorruptError naming the file, and the file stays byte-identical', (_, page, offset, bytes) => {
    const { good, bad, pageCount } = damagedCopy(temp, page, offset, bytes)
    expect(pageCount).toBeGreaterThan(20)
    const before = readFileSync(bad)

    const error = catchError(() => openJournalDatabase(bad, { migrations: MIGRATIONS }))
    expect(error).toBeInstanceOf(JournalCorruptError)
    const corrupt = error as JournalCorruptError
    expect(corrupt).toMatchObject({ code: 'JOURNAL_CORRUPT', file: bad, retryable: false })
    expect(corrupt.problems.length).toBeGreaterThan(0)
    expect(corrupt.message).toContain(bad)
    expect(corrupt.message).toContain(corrupt.problems[0])
    expect(readFileSync(bad).equals(before)).toBe(true)
    // The intact original still opens.
    expect(count(temp.track(openJournalDatabase(good, { migrations: MIGRATIONS })), 'sale')).toBe(500)
  })

  it('a file that is not a database at all is JournalCorruptError and is left alone', () => {
    const file = temp.path()
    writeFileSync(file, Buffer.alloc(8192, 0x41))
    const before = readFileSync(file)
    expect(catchError(() => openJournalDatabase(file, { migrations: MIGRATIONS }))).toBeInstanceOf(JournalCorruptError)
    expect(readFileSync(file).equals(before)).toBe(true)
  })
})

describe('runInTransaction', () => {
  const temp = useTempJournals()
  const open = (busyTimeoutMs?: number) => temp.track(openJournalDatabase(temp.path(), { migrations: MIGRATIONS, busyTimeoutMs }))

  it('commits and returns the value of fn', () => {
    const db = open()
    expect(runInTransaction(db, () => db.prepare("INSERT INTO sale (id, amount) VALUES ('s1', 5)").run().changes)).toBe(1)
    expect(count(db, 'sale')).toBe(1)
  })

  it('rolls back and rethrows what fn throws, unchanged; constraint errors stay inspectable', () => {
    const db = open()
    const thrown = new RangeError('cashier cancelled')
    const insert = db.prepare('INSERT INTO sale (id, amount) VALUES (?, ?)')
    runInTransaction(db, () => insert.run('s1', 1))
    expect(
      catchError(() =>
        runInTransaction(db, () => {
          insert.run('s2', 1)
          throw thrown
        }),
      ),
    ).toBe(thrown)
    expect(catchError(() => runInTransaction(db, () => insert.run('s1', 2)))).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })
    expect(db.prepare('SELECT id FROM sale').pluck().all()).toEqual(['s1'])
  })

  it('disk full (tiny max_page_count): JournalDiskFullError, and earlier committed rows are intact', () => {
    const db = open()
    const insert = db.prepare('INSERT INTO sale (id, amount) VALUES (?, ?)')
    runInTransaction(db, () => ['s1', 's2', 's3'].forEach((id, i) => insert.run(id, i)))
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`)

    const error = catchError(() =>
      runInTransaction(db, () => {
        insert.run('s4', 4)
        db.prepare("INSERT INTO queue (sale_id, payload) VALUES ('s4', ?)").run(Buffer.alloc(256 * 1024, 7))
      }),
    )
    expect(error).toBeInstanceOf(JournalDiskFullError)
    expect(error).toMatchObject({ code: 'JOURNAL_DISK_FULL', retryable: false, cause: { code: 'SQLITE_FULL' } })
    expect((error as Error).message).toContain('the disk holding the journal is full')
    expect((error as Error).message).toContain('no sale was lost because nothing was committed')
    expect(db.prepare('SELECT id FROM sale ORDER BY id').pluck().all()).toEqual(['s1', 's2', 's3'])
    db.close()

    const reopened = open()
    expect(reopened.prepare('SELECT id FROM sale ORDER BY id').pluck().all()).toEqual(['s1', 's2', 's3'])
    expect(count(reopened, 'queue')).toBe(0)
  })

  it('a write lock held past the busy timeout is a retryable JournalBusyError', () => {
    const holder = open()
    const waiter = open(50)
    holder.exec('BEGIN IMMEDIATE')
    try {
      const error = catchError(() => runInTransaction(waiter, () => waiter.prepare("INSERT INTO sale (id, amount) VALUES ('s1', 1)").run()))
      expect(error).toBeInstanceOf(JournalBusyError)
      expect(error).toMatchObject({ code: 'JOURNAL_BUSY', retryable: true })
    } finally {
      holder.exec('ROLLBACK')
    }
    expect(runInTransaction(waiter, () => waiter.prepare("INSERT INTO sale (id, amount) VALUES ('s1', 1)").run().changes)).toBe(1)
  })
})

describe('runInTransaction: how levels nest', () => {
  const temp = useTempJournals()
  const open = () => temp.track(openJournalDatabase(temp.path(), { migrations: MIGRATIONS }))
  const insert = (db: Database.Database, id: string) => db.prepare('INSERT INTO sale (id, amount) VALUES (?, 1)').run(id)
  const ids = (db: Database.Database) => db.prepare('SELECT id FROM sale ORDER BY id').pluck().all()

  it('by default each level inside is a savepoint: a failure caught inside rolls back that level alone', () => {
    const db = open()
    runInTransaction(db, () => {
      insert(db, 'outer')
      catchError(() =>
        runInTransaction(db, () => {
          insert(db, 'inner')
          throw new Error('inner fails')
        }),
      )
    })
    expect(ids(db)).toEqual(['outer'])
  })

  it("'whole': the levels inside take no savepoint, and a failure anywhere rolls back everything, announcing nothing", () => {
    const db = open()
    const told: string[] = []
    runInTransaction(
      db,
      () => {
        insert(db, 'a')
        runInTransaction(db, () => {
          insert(db, 'b')
          afterCommit(db, () => told.push('b'))
        })
      },
      'durable',
      'whole',
    )
    expect(ids(db)).toEqual(['a', 'b'])
    expect(told).toEqual(['b'])
    const error = catchError(() =>
      runInTransaction(
        db,
        () => {
          insert(db, 'c')
          runInTransaction(db, () => {
            afterCommit(db, () => told.push('d'))
            insert(db, 'a') // the primary key again: SQLite's own error, through the level inside
          })
        },
        'durable',
        'whole',
      ),
    )
    expect((error as { code?: string }).code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY')
    expect(ids(db)).toEqual(['a', 'b'])
    expect(told).toEqual(['b'])
    // No savepoint: a level's failure caught inside leaves that level's writes, which is why only a
    // transaction nothing inside catches in may be 'whole'.
    runInTransaction(
      db,
      () =>
        catchError(() =>
          runInTransaction(db, () => {
            insert(db, 'e')
            throw new Error('inner fails')
          }),
        ),
      'durable',
      'whole',
    )
    expect(ids(db)).toEqual(['a', 'b', 'e'])
  })

  it("'whole' is the outermost level's to give: inside a default transaction it changes nothing, and it ends with its transaction", () => {
    const db = open()
    runInTransaction(db, () =>
      catchError(() =>
        runInTransaction(
          db,
          () => {
            insert(db, 'inner')
            throw new Error('inner fails')
          },
          'durable',
          'whole',
        ),
      ),
    )
    expect(ids(db)).toEqual([])
    runInTransaction(db, () => insert(db, 'whole'), 'durable', 'whole')
    runInTransaction(db, () => {
      insert(db, 'after')
      catchError(() =>
        runInTransaction(db, () => {
          insert(db, 'rolled back')
          throw new Error('inner fails')
        }),
      )
    })
    expect(ids(db)).toEqual(['after', 'whole'])
  })
})

describe('afterCommit: what is announced, and when', () => {
  const temp = useTempJournals()
  const open = () => temp.track(openJournalDatabase(temp.path(), { migrations: MIGRATIONS }))

  it('outside a transaction at once; inside one after the outermost commit, in order, with the data committed', () => {
    const db = open()
    const told: string[] = []
    afterCommit(db, () => told.push('now'))
    expect(told).toEqual(['now'])
    runInTransaction(db, () => {
      db.prepare("INSERT INTO sale (id, amount) VALUES ('s1', 1)").run()
      afterCommit(db, () => told.push(`outer saw ${count(db, 'sale')} and inTransaction=${db.inTransaction}`))
      runInTransaction(db, () => afterCommit(db, () => told.push('inner')))
      expect(told).toEqual(['now'])
    })
    expect(told).toEqual(['now', 'outer saw 1 and inTransaction=false', 'inner'])
  })

  it('never for a level that rolls back: an inner savepoint the outer survives, or the whole transaction', () => {
    const db = open()
    const told: string[] = []
    runInTransaction(db, () => {
      afterCommit(db, () => told.push('kept'))
      catchError(() =>
        runInTransaction(db, () => {
          afterCommit(db, () => told.push('rolled back inner'))
          throw new Error('inner fails')
        }),
      )
    })
    expect(told).toEqual(['kept'])
    catchError(() =>
      runInTransaction(db, () => {
        afterCommit(db, () => told.push('rolled back outer'))
        throw new Error('outer fails')
      }),
    )
    expect(told).toEqual(['kept'])
    // Nothing is left waiting for a later commit either.
    runInTransaction(db, () => undefined)
    expect(told).toEqual(['kept'])
  })

  it('one announcement that throws does not silence the others; its error comes out after all ran', () => {
    const db = open()
    const told: string[] = []
    const failure = new Error('a listener failed')
    expect(
      catchError(() =>
        runInTransaction(db, () => {
          afterCommit(db, () => {
            throw failure
          })
          afterCommit(db, () => told.push('second'))
        }),
      ),
    ).toBe(failure)
    expect(told).toEqual(['second'])
  })
})
