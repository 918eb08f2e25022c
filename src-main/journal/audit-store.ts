/**
 * The audit trail's rows: append-only (triggers refuse any update or delete, schema.ts version 10)
 * and hash-chained, so that what the triggers cannot stop (the file edited by hand) still shows:
 * each record's hash is SHA-256 over the previous record's hash and this record's fields, and
 * `verify` recomputes the chain. Persistence only: what is recorded, and when, is src-main/service.
 */
import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import { runInTransaction } from './database'

export interface AuditEntry {
  action: string
  door: string
  via?: string | undefined
  actor?: string | undefined
  subject?: string | undefined
  ok: boolean
  detail?: string | undefined
}

export interface AuditRecord extends AuditEntry {
  seq: number
  at: number
}

interface AuditRow {
  seq: number
  at: number
  action: string
  door: string
  via: string | null
  actor: string | null
  subject: string | null
  ok: number
  detail: string | null
  prev_hash: string
  hash: string
}

/** The chain's first link: what the first record's `prev_hash` is. */
export const AUDIT_GENESIS = '0'.repeat(64)

function linkHash(previous: string, record: AuditRecord): string {
  const fields: unknown[] = [record.seq, record.at, record.action, record.door, record.via ?? null, record.actor ?? null]
  fields.push(record.subject ?? null, record.ok, record.detail ?? null)
  return createHash('sha256').update(previous).update('\n').update(JSON.stringify(fields)).digest('hex')
}

const fromRow = (row: AuditRow): AuditRecord => ({
  seq: row.seq,
  at: row.at,
  action: row.action,
  door: row.door,
  ok: row.ok === 1,
  ...(row.via !== null ? { via: row.via } : {}),
  ...(row.actor !== null ? { actor: row.actor } : {}),
  ...(row.subject !== null ? { subject: row.subject } : {}),
  ...(row.detail !== null ? { detail: row.detail } : {}),
})

export class AuditStore {
  private readonly statements

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      last: db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1'),
      insert: db.prepare(
        'INSERT INTO audit (seq, at, action, door, via, actor, subject, ok, detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      between: db.prepare('SELECT * FROM audit WHERE at >= ? AND at < ? AND seq > ? ORDER BY seq LIMIT ?'),
      chain: db.prepare('SELECT * FROM audit ORDER BY seq'),
    }
  }

  /** Appends one record, linked to the last one, in its own commit. */
  append(entry: AuditEntry): AuditRecord {
    return runInTransaction(this.db, () => {
      const last = this.statements.last.get() as { seq: number; hash: string } | undefined
      const record: AuditRecord = { ...entry, seq: (last?.seq ?? 0) + 1, at: this.now() }
      const previous = last?.hash ?? AUDIT_GENESIS
      const hash = linkHash(previous, record)
      this.statements.insert.run(
        record.seq,
        record.at,
        record.action,
        record.door,
        record.via ?? null,
        record.actor ?? null,
        record.subject ?? null,
        record.ok ? 1 : 0,
        record.detail ?? null,
        previous,
        hash,
      )
      return fromRow({ ...rowOf(record), prev_hash: previous, hash })
    })
  }

  /** Records from `from` (inclusive) to `to` (exclusive), after journal position `afterSeq`, oldest first. */
  between(from: number, to: number, afterSeq = 0, limit = 5000): AuditRecord[] {
    return (this.statements.between.all(from, to, afterSeq, limit) as AuditRow[]).map(fromRow)
  }

  /** Whether every record still follows from the one before (nothing changed, removed or slipped in). */
  verify(): boolean {
    let previous = AUDIT_GENESIS
    let seq = 0
    for (const row of this.statements.chain.iterate() as IterableIterator<AuditRow>) {
      if (row.seq !== seq + 1 || row.prev_hash !== previous || linkHash(previous, fromRow(row)) !== row.hash) return false
      previous = row.hash
      seq = row.seq
    }
    return true
  }
}

function rowOf(record: AuditRecord): Omit<AuditRow, 'prev_hash' | 'hash'> {
  return {
    seq: record.seq,
    at: record.at,
    action: record.action,
    door: record.door,
    via: record.via ?? null,
    actor: record.actor ?? null,
    subject: record.subject ?? null,
    ok: record.ok ? 1 : 0,
    detail: record.detail ?? null,
  }
}
