/**
 * What the migration runner's guard needs from the journal itself (migrations.ts stays schema-free):
 * how many queue items are still owed to the bank, and a manager's proof for forcing an irreversible
 * step over them. The proof is checked against the journal's own operators, as they stand before the
 * upgrade, with a read-only connection that changes nothing in the file.
 */
import Database from 'better-sqlite3'
import { PosError } from '../../src-shared/errors'
import type { ForcedMigration, MigrationGuard } from './migrations'
import { OWED_TO_HOST_SQL } from './outbox-store'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

/** Queue items the bank has not acknowledged (waiting, in flight, or parked for a manager); 0 before the queue exists. */
export function owedToBank(db: Database.Database): number {
  const hasQueue = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'outbox'").get() !== undefined
  return hasQueue ? (db.prepare(`SELECT count(*) FROM outbox WHERE ${OWED_TO_HOST_SQL}`).pluck().get() as number) : 0
}

/** The guard every open of the journal runs with: owed items counted from its queue. */
export function queueGuard(force?: ForcedMigration): MigrationGuard {
  return { owed: owedToBank, force }
}

export interface ManagerProof {
  managerId: string
  pin: string
}

/**
 * A manager's number and PIN, checked against the journal before it is upgraded. `pinMatches` is the
 * operators' own check (operators/pin-hash.ts), given by the caller: the journal does not hash PINs.
 * Refuses an unknown, disabled, locked or non-manager operator, and a wrong PIN, in the counter's words.
 */
export async function authorizeForcedMigration(
  file: string,
  proof: ManagerProof,
  pinMatches: (pin: string, stored: string) => Promise<boolean>,
  now = SYSTEM_CLOCK.now(),
): Promise<ForcedMigration> {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  let row: { role: string; pin_hash: string; locked_until: number | null; disabled_at: number | null } | undefined
  try {
    const hasOperators = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'operator'").get() !== undefined
    row = hasOperators
      ? (db.prepare('SELECT role, pin_hash, locked_until, disabled_at FROM operator WHERE id = ?').get(proof.managerId) as typeof row)
      : undefined
  } finally {
    db.close()
  }
  if (!row || row.disabled_at !== null || row.role !== 'manager')
    throw new PosError(
      'MANAGER_REQUIRED',
      `operator ${proof.managerId} is not a manager of this terminal: only a manager may force the update`,
    )
  if (row.locked_until !== null && row.locked_until > now)
    throw new PosError('OPERATOR_LOCKED', `manager ${proof.managerId} is locked after wrong PINs: the update was not forced`)
  if (!(await pinMatches(proof.pin, row.pin_hash)))
    throw new PosError('PIN_WRONG', `the PIN does not match manager ${proof.managerId}: the update was not forced`)
  return { managerId: proof.managerId }
}
