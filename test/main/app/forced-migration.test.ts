/**
 * `serve --force-migration <number>` (app/forced-migration.ts): a manager's number and PIN force a
 * journal update that cannot be undone over owed items; the items stay, to be sent, and the audit
 * trail records who forced it. A wrong PIN changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { forceJournalMigration } from '../../../src-main/app'
import {
  AuditStore,
  JOURNAL_FILE,
  JOURNAL_MIGRATIONS,
  MigrationWouldStrandQueueError,
  journalVersion,
  migrateTo,
  openAuditKey,
  openJournalDatabase,
  type Migration,
} from '../../../src-main/journal'
import { MemorySecretStore } from '../../../src-main/keychain'
import { hashPin } from '../../../src-main/operators'

const SHIPPED = JOURNAL_MIGRATIONS.length
const DROPS_A_COLUMN: Migration = {
  version: SHIPPED + 1,
  description: "the queue's technical failure detail is no longer kept",
  irreversible: 'the detail of every failed attempt is dropped',
  up: (db) => db.exec('ALTER TABLE outbox DROP COLUMN last_error'),
}
const LIST = [...JOURNAL_MIGRATIONS, DROPS_A_COLUMN]

describe('a manager forcing an update over owed items', () => {
  let dir = ''
  let file = ''
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-forced-'))
    file = join(dir, JOURNAL_FILE)
    const db = new Database(file)
    migrateTo(db, JOURNAL_MIGRATIONS, SHIPPED)
    db.prepare(
      `INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture)
       VALUES ('S-1', 'storedOffline', 1, 1, '2026-11-28', '20261128100000', 1250, 'USD', 1)`,
    ).run()
    db.prepare(
      `INSERT INTO outbox (sale_id, operation, message_id, priority, state, body, next_attempt_at, created_at)
       VALUES ('S-1', 'payment', 'S-1', 1, 'pending', x'00', 0, 1)`,
    ).run()
    db.prepare("INSERT INTO operator (id, name, role, pin_hash, created_at) VALUES ('7', 'Mara', 'manager', ?, 1)").run(
      await hashPin('2468', { N: 2 ** 10, r: 8, p: 1 }),
    )
    db.close()
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is needed: without it the agent refuses to open the journal', () => {
    expect(() => openJournalDatabase(file, { migrations: LIST })).toThrow(MigrationWouldStrandQueueError)
  })

  it('updates the journal, keeps the owed payment, and the audit trail names the manager', async () => {
    const secrets = new MemorySecretStore()
    const outcome = await forceJournalMigration(secrets, dir, { managerId: '7', pin: '2468' }, LIST)
    expect(outcome).toEqual({ kind: 'forced', from: SHIPPED, to: SHIPPED + 1, owed: 1 })
    const db = openJournalDatabase(file, { migrations: LIST })
    try {
      expect(journalVersion(db)).toBe(SHIPPED + 1)
      expect(db.prepare("SELECT count(*) FROM outbox WHERE state = 'pending'").pluck().get()).toBe(1)
      const audit = new AuditStore(db, (await openAuditKey(secrets, file)).key)
      const records = audit.between(0, Date.now() + 1).filter((r) => r.action === 'forceMigration')
      expect(records).toHaveLength(1)
      expect(records[0]).toMatchObject({ door: 'cli', actor: '7', ok: true, subject: `journal version ${SHIPPED} to ${SHIPPED + 1}` })
      expect(records[0]!.detail).toContain('while 1 item was owed to the bank')
    } finally {
      db.close()
    }
  })

  it('with a wrong PIN is refused and the journal stays as it was', async () => {
    await expect(forceJournalMigration(new MemorySecretStore(), dir, { managerId: '7', pin: '1111' }, LIST)).rejects.toMatchObject({
      code: 'PIN_WRONG',
    })
    const db = new Database(file, { readonly: true })
    expect(journalVersion(db)).toBe(SHIPPED)
    db.close()
  })
})
