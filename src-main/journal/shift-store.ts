/**
 * The shift rows: who was signed in at the counter, from when to when, and in which batch. A shift
 * belongs to the open batch until a close ends it and moves it into the batch it closed
 * (batch-store.ts, in the close's commit); from then on SQLite triggers (schema.ts, version 9) refuse
 * any change to it. Persistence only: when a shift starts and ends is src-main/operators.
 */
import type Database from 'better-sqlite3'
import { runInTransaction } from './database'

export interface ShiftRecord {
  operatorId: string
  startedAt: number
  /** Absent while the operator is still signed in. */
  endedAt?: number
  /** The closed batch it belongs to; absent while it belongs to the open batch. */
  batch?: number
}

interface ShiftRow {
  operator_id: string
  started_at: number
  ended_at: number | null
  batch: number | null
}

const fromRow = (row: ShiftRow): ShiftRecord => ({
  operatorId: row.operator_id,
  startedAt: row.started_at,
  ...(row.ended_at !== null ? { endedAt: row.ended_at } : {}),
  ...(row.batch !== null ? { batch: row.batch } : {}),
})

export class ShiftStore {
  private readonly statements

  constructor(private readonly db: Database.Database) {
    this.statements = {
      open: db.prepare('SELECT * FROM shift WHERE ended_at IS NULL'),
      end: db.prepare('UPDATE shift SET ended_at = max(started_at, ?) WHERE ended_at IS NULL'),
      insert: db.prepare('INSERT INTO shift (operator_id, started_at) VALUES (?, ?)'),
      ofOpenBatch: db.prepare('SELECT * FROM shift WHERE batch IS NULL ORDER BY started_at, id'),
      ofBatch: db.prepare('SELECT * FROM shift WHERE batch = ? ORDER BY started_at, id'),
    }
  }

  /** The shift still open, if any (there is at most one). */
  open(): ShiftRecord | undefined {
    const row = this.statements.open.get() as ShiftRow | undefined
    return row ? fromRow(row) : undefined
  }

  /** Ends the open shift at `at`, if there is one, and starts one for `operatorId`: one commit. */
  start(operatorId: string, at: number): void {
    runInTransaction(this.db, () => {
      this.statements.end.run(at)
      this.statements.insert.run(operatorId, at)
    })
  }

  /** Ends the open shift at `at`, if there is one. */
  end(at: number): void {
    this.statements.end.run(at)
  }

  /** The shifts of the open batch, oldest first. */
  ofOpenBatch(): ShiftRecord[] {
    return (this.statements.ofOpenBatch.all() as ShiftRow[]).map(fromRow)
  }

  /** The shifts of closed batch `batch`, oldest first. */
  ofBatch(batch: number): ShiftRecord[] {
    return (this.statements.ofBatch.all(batch) as ShiftRow[]).map(fromRow)
  }
}
