/**
 * The machine's owner lets a locked operator sign in again from the command line (`pos-agent operators
 * unlock <number>`): for a shop whose only manager typed a wrong PIN five times, where no manager is
 * left to approve an unlock at the counter. The lockout and the count of wrong PINs are cleared in the
 * journal (the PIN stays), in a commit of its own the running agent reads at the next sign-in (SQLite's
 * WAL), and the audit trail records it as the owner's, from the command line.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { JOURNAL_FILE, JOURNAL_MIGRATIONS, OperatorStore, openAuditTrail, openJournalDatabase } from '../journal'
import type { SecretStore } from '../keychain'
import { AuditTrail, CLI } from '../service'

export type UnlockOutcome =
  { kind: 'unlocked'; name: string; role: string; wasLocked: boolean } | { kind: 'noJournal' } | { kind: 'noSuchOperator' }

export async function unlockFromCommandLine(
  secrets: SecretStore,
  dataDir: string,
  operatorId: string,
  now = Date.now(),
): Promise<UnlockOutcome> {
  const file = join(dataDir, JOURNAL_FILE)
  if (!existsSync(file)) return { kind: 'noJournal' }
  const db = openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS })
  try {
    const operators = new OperatorStore(db)
    // The record is sealed under the trail's key, and its head kept in the keychain, like every other
    // (journal/audit-seal.ts), by the trail's one writer; a record that cannot be written fails the command.
    const trail = await openAuditTrail(db, secrets, file)
    const audit = new AuditTrail(trail.store, (error) => {
      throw error
    })
    const operator = operators.get(operatorId)
    if (!operator || operator.disabledAt !== undefined) {
      audit.record(CLI, {
        action: 'unlockOperator',
        subject: operatorId,
        ok: false,
        detail: "no such operator; by the machine's owner",
      })
      await trail.anchor.flush()
      return { kind: 'noSuchOperator' }
    }
    const wasLocked = operator.lockedUntil !== undefined && operator.lockedUntil > now
    operators.clearAttempts(operatorId)
    audit.record(CLI, {
      action: 'unlockOperator',
      subject: operatorId,
      ok: true,
      detail: `${wasLocked ? 'lockout lifted' : 'was not locked'}; by the machine's owner from the command line`,
    })
    await trail.anchor.flush()
    return { kind: 'unlocked', name: operator.name, role: operator.role, wasLocked }
  } finally {
    db.close()
  }
}
