/**
 * The audit trail's rows on a real journal file: appended in order, each sealed under the trail's key
 * and linked to the one before; SQLite refuses any change or removal; and a change made around
 * SQLite's triggers (the file edited with the triggers dropped) is found and said where: a record
 * changed, records deleted, the end cut off (against the head kept outside the file), a trail
 * rewritten without the key. Records kept before the trail had a key are sealed once, with a record
 * saying so, and stay checked.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AuditStore, ephemeralAuditKey, JOURNAL_MIGRATIONS, openJournalDatabase, type ChainKey } from '../../../src-main/journal'

let dir: string
let db: Database.Database
let key: ChainKey
let audit: AuditStore
let now = 1_790_000_000_000

const dropTriggers = () => db.exec('DROP TRIGGER audit_never_changes; DROP TRIGGER audit_never_deleted')
const kinds = (store = audit, anchors?: Parameters<AuditStore['verify']>[0]) =>
  store.verify(anchors).problems.map((p) => [p.kind, p.from, p.to])

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pos-audit-'))
  db = openJournalDatabase(join(dir, 'journal.sqlite'), { migrations: JOURNAL_MIGRATIONS })
  key = ephemeralAuditKey()
  audit = new AuditStore(db, key, () => now++)
  audit.seal({ firstKey: true, keptInMemory: false })
  audit.append({ action: 'signIn', door: 'counter', via: 'window:abc', subject: '17', ok: false, detail: 'PIN_WRONG' })
  audit.append({ action: 'signIn', door: 'counter', via: 'window:abc', actor: '17', subject: '17', ok: true })
  audit.append({ action: 'createToken', door: 'pos', via: 'token:installation', actor: '9', subject: 'Lane 2', ok: true })
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the audit trail', () => {
  it('keeps records in order with their door, way in, actor and outcome, after the record that seals it; it proves itself', () => {
    const records = audit.between(0, Number.MAX_SAFE_INTEGER)
    expect(records.map((r) => [r.seq, r.action, r.door, r.actor, r.ok])).toEqual([
      [1, 'auditSealed', 'agent', undefined, true],
      [2, 'signIn', 'counter', undefined, false],
      [3, 'signIn', 'counter', '17', true],
      [4, 'createToken', 'pos', '9', true],
    ])
    expect(audit.between(0, Number.MAX_SAFE_INTEGER, 3).map((r) => r.seq)).toEqual([4])
    expect(audit.verify()).toMatchObject({ intact: true, records: 4, problems: [], head: audit.head() })
    // A second start under the same key seals nothing again.
    expect(audit.seal({ firstKey: false, keptInMemory: false })).toBeUndefined()
  })

  it('SQLite refuses to change or remove a record', () => {
    expect(() => db.prepare('UPDATE audit SET ok = 1 WHERE seq = 1').run()).toThrow(/append-only/)
    expect(() => db.prepare('DELETE FROM audit WHERE seq = 2').run()).toThrow(/append-only/)
    expect(audit.verify().intact).toBe(true)
  })

  it.each([
    ['a record changed', 'UPDATE audit SET detail = NULL, ok = 1 WHERE seq = 2', [['edited', 2, 2]]],
    ['a record removed', 'DELETE FROM audit WHERE seq = 3', [['deleted', 3, 3]]],
    [
      'a record slipped in',
      "INSERT INTO audit (seq, at, action, door, ok, prev_hash, hash) VALUES (5, 0, 'x', 'cli', 1, 'a', 'b')",
      [['edited', 5, 5]],
    ],
  ])('%s around the triggers: found, and where', (_what, sql, problems) => {
    dropTriggers()
    db.prepare(sql).run()
    const verdict = audit.verify({ perRecord: true })
    expect(verdict.intact).toBe(false)
    expect(verdict.problems.map((p) => [p.kind, p.from, p.to])).toEqual(problems)
    expect(verdict.problems[0]!.words).toMatch(/record \d+ (was changed after it was written|is missing: it was deleted)/)
  })

  it('a record changed and re-hashed the unsealed way: the seal no longer matches', () => {
    dropTriggers()
    const row = db.prepare('SELECT * FROM audit WHERE seq = 3').get() as Record<string, unknown>
    const fields = JSON.stringify([3, row.at, 'signIn', 'counter', 'window:abc', '18', '17', true, null])
    const hash = createHash('sha256')
      .update(`${row.prev_hash as string}\n${fields}`)
      .digest('hex')
    db.prepare("UPDATE audit SET actor = '18', hash = ? WHERE seq = 3").run(hash)
    // Record 4 still carries its own seal; that it no longer follows from 3 points at 3 again.
    expect(kinds()).toEqual([['edited', 3, 3]])
    expect(audit.verify().problems[0]!.words).toBe('record 3 was changed after it was written')
  })

  it('the end cut off: found against the head kept outside the file, not by the chain alone', () => {
    const kept = { ...audit.head()!, keptIn: 'the keychain' }
    dropTriggers()
    db.prepare('DELETE FROM audit WHERE seq > 2').run()
    expect(audit.verify({ anchors: [] }).intact).toBe(true)
    const verdict = audit.verify({ anchors: [kept] })
    expect(verdict.problems.map((p) => [p.kind, p.from, p.to])).toEqual([['truncated', 3, 4]])
    expect(verdict.problems[0]!.words).toBe(
      'the trail ends at record 2, but the keychain kept record 4 as its last: the last 2 records were removed',
    )
  })

  it('a head from a printed Z-report (its first 8 hex digits) holds the trail too', () => {
    const head = audit.head()!
    expect(audit.verify({ anchors: [{ seq: head.seq, mac: head.mac.slice(0, 8).toUpperCase(), keptIn: 'the Z-report' }] }).intact).toBe(
      true,
    )
    expect(kinds(audit, { anchors: [{ seq: head.seq, mac: '00000000', keptIn: 'the Z-report' }] })).toEqual([['anchor', 4, 4]])
  })

  it('the same trail read under another key proves nothing: every record is one it cannot vouch for', () => {
    const other = new AuditStore(db, ephemeralAuditKey())
    expect(kinds(other)).toEqual([['keyLost', 1, 4]])
    // Training without a keychain: records of an earlier run are said apart, not a break.
    const training = other.verify({ keyOfThisRunOnly: true })
    expect(training.intact).toBe(true)
    expect(training.unprovable).toMatchObject({ from: 1, to: 4 })
  })

  it('a new key starts its own part with a record saying so; the part before cannot be proven', () => {
    const next = new AuditStore(db, ephemeralAuditKey(), () => now++)
    const sealed = next.seal({ firstKey: true, keptInMemory: false })
    expect(sealed).toMatchObject({ seq: 5, action: 'auditSealed' })
    expect(sealed!.detail).toMatch(/is not in the keychain.*cannot be proven/)
    expect(kinds(next)).toEqual([['keyLost', 1, 4]])
    next.append({ action: 'signIn', door: 'counter', ok: true })
    expect(kinds(next)).toEqual([['keyLost', 1, 4]])
  })
})

describe('records kept before the trail had a key', () => {
  /** A trail as the former unsealed chain wrote it: SHA-256 over the previous hash and the fields. */
  function legacyTrail(count: number): void {
    db.close()
    rmSync(join(dir, 'journal.sqlite'))
    db = openJournalDatabase(join(dir, 'journal.sqlite'), { migrations: JOURNAL_MIGRATIONS })
    let previous = '0'.repeat(64)
    const insert = db.prepare(
      "INSERT INTO audit (seq, at, action, door, via, actor, subject, ok, detail, prev_hash, hash) VALUES (?, ?, 'approve', 'pos', NULL, NULL, 'M2', 0, 'PIN_WRONG', ?, ?)",
    )
    for (let seq = 1; seq <= count; seq++) {
      const fields = JSON.stringify([seq, 1_000 + seq, 'approve', 'pos', null, null, 'M2', false, 'PIN_WRONG'])
      const hash = createHash('sha256').update(`${previous}\n${fields}`).digest('hex')
      insert.run(seq, 1_000 + seq, previous, hash)
      previous = hash
    }
  }

  it('are sealed once as they stand, with a record saying so; changing them afterwards is found', () => {
    legacyTrail(5)
    const store = new AuditStore(db, key, () => now++)
    const sealed = store.seal({ firstKey: true, keptInMemory: false })
    expect(sealed).toMatchObject({ seq: 6, action: 'auditSealed', door: 'agent' })
    expect(sealed!.detail).toMatch(/the 5 records before this one were kept under the former unsealed chain, intact when sealed here/)
    expect(store.verify().intact).toBe(true)
    dropTriggers()
    db.prepare('DELETE FROM audit WHERE seq = 2').run()
    expect(kinds(store)).toEqual([['deleted', 2, 2]])
  })

  it('without any seal, while the keychain already held the trail key: nothing is vouched for, the check says so', () => {
    legacyTrail(3)
    const store = new AuditStore(db, key, () => now++)
    expect(store.seal({ firstKey: false, keptInMemory: false })).toBeUndefined()
    expect(kinds(store)).toEqual([['unsealed', 1, 3]])
  })
})
