/**
 * The audit trail's rows on a real journal file: appended in order, each linked to the one before;
 * SQLite refuses any change or removal; and a change made around SQLite's triggers (the file edited
 * with the triggers dropped) breaks the chain where it was made.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AuditStore, JOURNAL_MIGRATIONS, openJournalDatabase } from '../../../src-main/journal'

let dir: string
let db: Database.Database
let audit: AuditStore
let now = 1_790_000_000_000

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pos-audit-'))
  db = openJournalDatabase(join(dir, 'journal.sqlite'), { migrations: JOURNAL_MIGRATIONS })
  audit = new AuditStore(db, () => now++)
  audit.append({ action: 'signIn', door: 'counter', via: 'window:abc', subject: '17', ok: false, detail: 'PIN_WRONG' })
  audit.append({ action: 'signIn', door: 'counter', via: 'window:abc', actor: '17', subject: '17', ok: true })
  audit.append({ action: 'createToken', door: 'pos', via: 'token:installation', actor: '9', subject: 'Lane 2', ok: true })
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the audit trail', () => {
  it('keeps records in order with their door, way in, actor and outcome; the chain is intact', () => {
    const records = audit.between(0, Number.MAX_SAFE_INTEGER)
    expect(records.map((r) => [r.seq, r.action, r.door, r.actor, r.ok])).toEqual([
      [1, 'signIn', 'counter', undefined, false],
      [2, 'signIn', 'counter', '17', true],
      [3, 'createToken', 'pos', '9', true],
    ])
    expect(audit.between(0, Number.MAX_SAFE_INTEGER, 2).map((r) => r.seq)).toEqual([3])
    expect(audit.verify()).toBe(true)
  })

  it('SQLite refuses to change or remove a record', () => {
    expect(() => db.prepare('UPDATE audit SET ok = 1 WHERE seq = 1').run()).toThrow(/append-only/)
    expect(() => db.prepare('DELETE FROM audit WHERE seq = 2').run()).toThrow(/append-only/)
    expect(audit.verify()).toBe(true)
  })

  it.each([
    ['a record changed', 'UPDATE audit SET detail = NULL, ok = 1 WHERE seq = 1'],
    ['a record removed', 'DELETE FROM audit WHERE seq = 2'],
    ['a record slipped in', "INSERT INTO audit (seq, at, action, door, ok, prev_hash, hash) VALUES (4, 0, 'x', 'cli', 1, 'a', 'b')"],
  ])('%s around the triggers breaks the chain', (_what, sql) => {
    db.exec('DROP TRIGGER audit_never_changes; DROP TRIGGER audit_never_deleted')
    db.prepare(sql).run()
    expect(audit.verify()).toBe(false)
  })
})
