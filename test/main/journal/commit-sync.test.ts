/**
 * A commit synced with the next one (CommitSync 'withNext', database.ts): it runs at
 * synchronous=NORMAL, only the outermost transaction decides, and the journal is back at FULL after
 * it, whether it committed or rolled back.
 */
import { describe, expect, it } from 'vitest'
import { openJournalDatabase, runInTransaction } from '../../../src-main/journal/database'
import { MIGRATIONS, useTempJournals } from './journal-harness'

const NORMAL = 1
const FULL = 2

describe('commits synced with the next one', () => {
  const temp = useTempJournals()
  const open = () => temp.track(openJournalDatabase(temp.path(), { migrations: MIGRATIONS }))
  const level = (db: ReturnType<typeof open>) => db.pragma('synchronous', { simple: true })

  it('runs at NORMAL and leaves the journal at FULL', () => {
    const db = open()
    const inside = runInTransaction(
      db,
      () => {
        db.prepare('INSERT INTO sale (id, amount) VALUES (?, ?)').run('s1', 100)
        return level(db)
      },
      'withNext',
    )
    expect(inside).toBe(NORMAL)
    expect(level(db)).toBe(FULL)
    expect(db.prepare('SELECT amount FROM sale WHERE id = ?').pluck().get('s1')).toBe(100)
    expect(runInTransaction(db, () => level(db))).toBe(FULL)
  })

  it('is back at FULL after a rollback', () => {
    const db = open()
    expect(() =>
      runInTransaction(
        db,
        () => {
          db.prepare('INSERT INTO sale (id, amount) VALUES (?, ?)').run('s1', 100)
          throw new Error('refused')
        },
        'withNext',
      ),
    ).toThrow('refused')
    expect(level(db)).toBe(FULL)
    expect(db.prepare('SELECT count(*) FROM sale').pluck().get()).toBe(0)
  })

  it('inside a durable transaction stays durable: the outermost decides', () => {
    const db = open()
    const levels = runInTransaction(db, () => [level(db), runInTransaction(db, () => level(db), 'withNext'), level(db)])
    expect(levels).toEqual([FULL, FULL, FULL])
    expect(runInTransaction(db, () => runInTransaction(db, () => level(db)), 'withNext')).toBe(NORMAL)
    expect(level(db)).toBe(FULL)
  })
})
