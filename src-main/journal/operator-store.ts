/**
 * The operator rows: who may work at this terminal, their role, their PIN's hash and its lockout
 * state. Persistence only; the rules (PIN shape, hashing, lockout) are src-main/operators.
 */
import type Database from 'better-sqlite3'

export type OperatorRole = 'cashier' | 'manager'

export interface OperatorRecord {
  id: string
  name: string
  role: OperatorRole
  pinHash: string
  failedAttempts: number
  lockedUntil?: number
  createdAt: number
  disabledAt?: number
}

interface OperatorRow {
  id: string
  name: string
  role: OperatorRole
  pin_hash: string
  failed_attempts: number
  locked_until: number | null
  created_at: number
  disabled_at: number | null
}

const fromRow = (row: OperatorRow): OperatorRecord => ({
  id: row.id,
  name: row.name,
  role: row.role,
  pinHash: row.pin_hash,
  failedAttempts: row.failed_attempts,
  createdAt: row.created_at,
  ...(row.locked_until !== null ? { lockedUntil: row.locked_until } : {}),
  ...(row.disabled_at !== null ? { disabledAt: row.disabled_at } : {}),
})

export class OperatorStore {
  private readonly statements

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare('INSERT INTO operator (id, name, role, pin_hash, created_at) VALUES (?, ?, ?, ?, ?)'),
      get: db.prepare('SELECT * FROM operator WHERE id = ?'),
      list: db.prepare('SELECT * FROM operator ORDER BY role DESC, id'),
      activeManagers: db.prepare("SELECT count(*) AS n FROM operator WHERE role = 'manager' AND disabled_at IS NULL"),
      attempts: db.prepare('UPDATE operator SET failed_attempts = ?, locked_until = ? WHERE id = ?'),
      pin: db.prepare('UPDATE operator SET pin_hash = ?, failed_attempts = 0, locked_until = NULL WHERE id = ?'),
      disable: db.prepare('UPDATE operator SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL'),
      // One statement, so parallel guesses cannot all read the same count: an attempt is counted
      // before its PIN is checked. A lockout that has run out starts the count again.
      claim: db.prepare(`UPDATE operator SET
          failed_attempts = (CASE WHEN locked_until IS NOT NULL THEN 0 ELSE failed_attempts END) + 1,
          locked_until = CASE WHEN (CASE WHEN locked_until IS NOT NULL THEN 0 ELSE failed_attempts END) + 1 >= @max
            THEN @lockUntil ELSE NULL END
        WHERE id = @id AND disabled_at IS NULL AND (locked_until IS NULL OR locked_until <= @now)
        RETURNING failed_attempts, locked_until`),
      unlock: db.prepare('UPDATE operator SET failed_attempts = 0, locked_until = NULL WHERE id = ?'),
    }
  }

  add(record: Pick<OperatorRecord, 'id' | 'name' | 'role' | 'pinHash' | 'createdAt'>): void {
    this.statements.insert.run(record.id, record.name, record.role, record.pinHash, record.createdAt)
  }

  get(id: string): OperatorRecord | undefined {
    const row = this.statements.get.get(id) as OperatorRow | undefined
    return row ? fromRow(row) : undefined
  }

  list(): OperatorRecord[] {
    return (this.statements.list.all() as OperatorRow[]).map(fromRow)
  }

  activeManagerCount(): number {
    return (this.statements.activeManagers.get() as { n: number }).n
  }

  /** Wrong PINs so far, and until when the operator is locked out (undefined: not locked). */
  setAttempts(id: string, failedAttempts: number, lockedUntil: number | undefined): void {
    this.statements.attempts.run(failedAttempts, lockedUntil ?? null, id)
  }

  /**
   * Counts one PIN attempt before the PIN is checked, atomically: the attempt's number, and the lock
   * it set (`lockedUntil`) when it is the `max`th in a row. Undefined when the operator is unknown,
   * disabled or locked now: nothing is to be checked.
   */
  claimAttempt(id: string, now: number, max: number, lockUntil: number): { attempt: number; lockedUntil?: number } | undefined {
    const row = this.statements.claim.get({ id, now, max, lockUntil }) as
      { failed_attempts: number; locked_until: number | null } | undefined
    if (!row) return undefined
    return { attempt: row.failed_attempts, ...(row.locked_until !== null ? { lockedUntil: row.locked_until } : {}) }
  }

  /** The PIN was right: the count of wrong ones, and any lock the attempt set, are cleared. */
  clearAttempts(id: string): void {
    this.statements.unlock.run(id)
  }

  /** A new PIN; clears the wrong attempts and any lockout. */
  setPin(id: string, pinHash: string): void {
    this.statements.pin.run(pinHash, id)
  }

  disable(id: string, at: number): void {
    this.statements.disable.run(at, id)
  }
}
