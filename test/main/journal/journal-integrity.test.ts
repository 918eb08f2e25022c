import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fullCheckPending, markJournalDamaged, openJournalDatabase, runInTransaction } from '../../../src-main/journal/database'
import { JournalCorruptError } from '../../../src-main/journal/journal-error'
import { checkIntegrityAside } from '../../../src-main/journal/journal-integrity'
import { probeJournal } from '../../../src-main/journal/journal-probe'
import { MIGRATIONS, catchError, damagedCopy, useTempJournals } from './journal-harness'

describe('a large journal: structural check at open, full check aside', () => {
  const temp = useTempJournals()

  it('damage deep in the file: the open goes on, and the check aside finds it; an intact file passes', async () => {
    const { good, bad } = damagedCopy(temp, () => 20, 100, Buffer.alloc(200, 0))
    const db = temp.track(openJournalDatabase(bad, { migrations: MIGRATIONS, fullCheckAtOpenMaxBytes: 0 }))
    expect(fullCheckPending(db)).toBe(true)
    const error = await checkIntegrityAside(bad).done.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(JournalCorruptError)
    expect((error as JournalCorruptError).problems.length).toBeGreaterThan(0)
    expect((error as JournalCorruptError).message).toContain(bad)

    await expect(checkIntegrityAside(good).done).resolves.toBeUndefined()
  })

  it('a damaged root page is refused at open even when the full check would go aside, the file untouched', () => {
    const { bad } = damagedCopy(temp, (root) => root, 0, Buffer.alloc(24, 0xff))
    const before = readFileSync(bad)
    const error = catchError(() => openJournalDatabase(bad, { migrations: MIGRATIONS, fullCheckAtOpenMaxBytes: 0 }))
    expect(error).toBeInstanceOf(JournalCorruptError)
    expect(readFileSync(bad).equals(before)).toBe(true)
  })

  it('a journal under the size, or one not in WAL mode, is checked whole at open', () => {
    const { bad } = damagedCopy(temp, () => 20, 100, Buffer.alloc(200, 0))
    const error = catchError(() => openJournalDatabase(bad, { migrations: MIGRATIONS, fullCheckAtOpenMaxBytes: 1 << 30 }))
    expect(error).toBeInstanceOf(JournalCorruptError)
  })

  it('once marked damaged, the journal refuses every write and still reads', () => {
    const db = temp.track(openJournalDatabase(temp.path(), { migrations: MIGRATIONS }))
    runInTransaction(db, () => db.prepare("INSERT INTO sale (id, amount) VALUES ('s1', 5)").run())
    const damage = new JournalCorruptError('journal.sqlite', ['page 20: btreeInitPage() returns error code 11'])
    markJournalDamaged(db, damage)
    expect(catchError(() => runInTransaction(db, () => db.prepare("INSERT INTO sale (id, amount) VALUES ('s2', 5)").run()))).toBe(damage)
    expect(db.prepare('SELECT count(*) FROM sale').pluck().get()).toBe(1)
  })
})

describe('probeJournal: a foreign sale found by the key, not a scan', () => {
  const temp = useTempJournals()

  it.each([
    ['none: only the training terminal', ['TRAIN-T01-1', 'TRAIN-T01-2'], undefined],
    ['one sorting before the prefix', ['TRAIN-T01-1', 'SHOP-9-1'], 'SHOP-9-1'],
    ['one sorting after it', ['TRAIN-T01-1', 'TRAIN-T01.X', 'TRAIN-T02-1'], 'TRAIN-T01.X'],
    ['an id that is the prefix without its dash', ['TRAIN-T01', 'TRAIN-T01-1'], 'TRAIN-T01'],
  ])('%s', (_, ids, foreign) => {
    const file = temp.path()
    const db = openJournalDatabase(file, { migrations: MIGRATIONS })
    const insert = db.prepare('INSERT INTO sale (id, amount) VALUES (?, 1)')
    for (const id of ids) insert.run(id)
    db.close()
    expect(probeJournal(file, 'TRAIN-T01')?.foreignSaleId).toBe(foreign)
  })
})
