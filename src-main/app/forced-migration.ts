/**
 * A manager forces an update of the journal that cannot be undone while payments or reversals are
 * still owed to the bank (`pos-agent serve --force-migration <number>`): their number and PIN are
 * checked against the journal's operators as they stand before the update, the steps run (each
 * forced one recorded in its own commit, journal/migrations.ts), and the audit trail records who
 * forced it and over how many owed items. The owed items themselves are kept and sent afterwards.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import {
  FORCED_MIGRATION_TABLE,
  JOURNAL_FILE,
  JOURNAL_MIGRATIONS,
  authorizeForcedMigration,
  journalVersion,
  openAuditTrail,
  openJournalDatabase,
  owedToBank,
  type Migration,
} from '../journal'
import type { SecretStore } from '../keychain'
import { pinMatches } from '../operators'

export type ForcedMigrationOutcome =
  | { kind: 'noJournal' }
  /** Nothing was held back: the journal was up to date, or what it owed was nothing. */
  | { kind: 'notNeeded'; version: number }
  | { kind: 'forced'; from: number; to: number; owed: number }

export async function forceJournalMigration(
  secrets: SecretStore,
  dataDir: string,
  proof: { managerId: string; pin: string },
  migrations: readonly Migration[] = JOURNAL_MIGRATIONS,
): Promise<ForcedMigrationOutcome> {
  const file = join(dataDir, JOURNAL_FILE)
  if (!existsSync(file)) return { kind: 'noJournal' }
  const force = await authorizeForcedMigration(file, proof, pinMatches)
  const before = new Database(file, { readonly: true, fileMustExist: true })
  let from: number
  let owed: number
  try {
    from = journalVersion(before)
    owed = owedToBank(before)
  } finally {
    before.close()
  }
  const db = openJournalDatabase(file, { migrations, forceMigration: force })
  try {
    const to = journalVersion(db)
    const hasForced = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(FORCED_MIGRATION_TABLE) !== undefined
    const forced = hasForced
      ? (db.prepare(`SELECT version FROM ${FORCED_MIGRATION_TABLE} WHERE version > ? ORDER BY version`).pluck().all(from) as number[])
      : []
    if (forced.length === 0) return { kind: 'notNeeded', version: to }
    const trail = await openAuditTrail(db, secrets, file)
    trail.store.append({
      action: 'forceMigration',
      door: 'cli',
      actor: proof.managerId,
      subject: `journal version ${from} to ${to}`,
      ok: true,
      detail: `steps that cannot be undone (version ${forced.join(', ')}) forced by a manager while ${owed} ${owed === 1 ? 'item was' : 'items were'} owed to the bank; the items are kept and sent`,
    })
    await trail.anchor.flush()
    return { kind: 'forced', from, to, owed }
  } finally {
    db.close()
  }
}
