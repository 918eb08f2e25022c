/**
 * Close-of-day batches. Sales belong to the open batch until a close; the close numbers the batch,
 * records its totals as closed and moves exactly the sales it counted into it, in one transaction.
 * From then on nothing changes it: later sales go to the next batch, and SQLite triggers (schema.ts,
 * version 4) refuse any update or delete of a closed batch and any change of a sale's batch, so no
 * code path, present or future, can reopen a day. The close also ends the shift still open and takes
 * the open batch's shifts into the batch, in the same transaction.
 */
import type Database from 'better-sqlite3'
import { runInTransaction } from './database'

/** A closed batch as recorded; `summary` is the caller's own totals (JSON), kept verbatim. */
export interface ClosedBatch {
  number: number
  closedAt: number
  businessDay: string
  managerOverride: boolean
  saleCount: number
  summary: string
  /** The operator who closed it (absent before operators existed, or with none signed in). */
  closedBy?: string
}

export interface BatchClose {
  /** The sales the close counted: they, and only they, join the batch. */
  saleIds: readonly string[]
  closedAt: number
  businessDay: string
  managerOverride: boolean
  summary: string
  closedBy?: string | undefined
}

export class BatchClosedMeanwhileError extends Error {
  override readonly name = 'BatchClosedMeanwhileError'
  readonly code = 'BATCH_CLOSED_MEANWHILE'
}

export class BatchStore {
  private readonly statements

  constructor(private readonly db: Database.Database) {
    this.statements = {
      lastNumber: db.prepare('SELECT coalesce(max(number), 0) AS n FROM batch'),
      insert: db.prepare(
        'INSERT INTO batch (number, closed_at, business_day, manager_override, sale_count, summary, closed_by) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      join: db.prepare('UPDATE sale SET batch = ? WHERE batch IS NULL AND id IN (SELECT value FROM json_each(?))'),
      // The close ends the shift still open (schema.ts, version 9) and takes the open batch's shifts.
      endShift: db.prepare('UPDATE shift SET ended_at = max(started_at, ?) WHERE ended_at IS NULL AND batch IS NULL'),
      joinShifts: db.prepare('UPDATE shift SET batch = ? WHERE batch IS NULL'),
      get: db.prepare('SELECT * FROM batch WHERE number = ?'),
      list: db.prepare('SELECT * FROM batch ORDER BY number DESC LIMIT ?'),
    }
  }

  /** The number the open batch will get when it closes. */
  openNumber(): number {
    return (this.statements.lastNumber.get() as { n: number }).n + 1
  }

  /**
   * Closes the open batch with exactly `close.saleIds`. Refused (nothing written) if any of them
   * already belongs to a batch: another close got there first.
   */
  close(close: BatchClose): ClosedBatch {
    return runInTransaction(this.db, () => {
      const number = this.openNumber()
      const batch: ClosedBatch = {
        number,
        closedAt: close.closedAt,
        businessDay: close.businessDay,
        managerOverride: close.managerOverride,
        saleCount: close.saleIds.length,
        summary: close.summary,
        ...(close.closedBy !== undefined ? { closedBy: close.closedBy } : {}),
      }
      this.statements.insert.run(
        number,
        batch.closedAt,
        batch.businessDay,
        batch.managerOverride ? 1 : 0,
        batch.saleCount,
        batch.summary,
        close.closedBy ?? null,
      )
      const joined = this.statements.join.run(number, JSON.stringify(close.saleIds)).changes
      if (joined !== close.saleIds.length) {
        throw new BatchClosedMeanwhileError(`batch ${number}: ${close.saleIds.length - joined} of its sales were already in a closed batch`)
      }
      this.statements.endShift.run(close.closedAt)
      this.statements.joinShifts.run(number)
      return batch
    })
  }

  get(number: number): ClosedBatch | undefined {
    const row = this.statements.get.get(number)
    return row ? fromRow(row) : undefined
  }

  /** Closed batches, newest first. */
  list(limit = 100): ClosedBatch[] {
    return this.statements.list.all(limit).map(fromRow)
  }
}

function fromRow(row: unknown): ClosedBatch {
  const r = row as {
    number: number
    closed_at: number
    business_day: string
    manager_override: number
    sale_count: number
    summary: string
    closed_by: string | null
  }
  return {
    number: r.number,
    closedAt: r.closed_at,
    businessDay: r.business_day,
    managerOverride: r.manager_override === 1,
    saleCount: r.sale_count,
    summary: r.summary,
    ...(r.closed_by !== null ? { closedBy: r.closed_by } : {}),
  }
}
