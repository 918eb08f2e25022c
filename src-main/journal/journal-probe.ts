/**
 * A read-only look into a journal file without opening it for business: which terminals its sales
 * belong to, what still waits in its queue, and whether its audit trail proves itself. Used before start-up decisions (is this data folder a
 * production terminal's?) and by the doctor; it never migrates, writes or checkpoints.
 */
import { existsSync } from 'node:fs'
import Database from 'better-sqlite3'
import { OWED_TO_HOST_SQL } from './outbox-store'
import { AUDIT_SEALED_ACTION, type AuditAnchorHead, type AuditVerdict, type ChainKey } from './audit-chain'
import { AuditStore } from './audit-store'

/** The journal's file name inside the agent's data folder. */
export const JOURNAL_FILE = 'journal.sqlite'

export interface JournalSummary {
  /** A sale whose merchantTransID does not start with `<trainingTerminalId>-`, if any. */
  foreignSaleId: string | undefined
  /** Queue items still owed to the host (waiting, in flight, or needing a manager). */
  waitingItems: number
}

/** undefined when there is no journal file, or it is not a journal (no sale table yet). */
export function probeJournal(file: string, trainingTerminalId: string): JournalSummary | undefined {
  if (!existsSync(file)) return undefined
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('sale', 'outbox')")
      .pluck()
      .all() as string[]
    if (!tables.includes('sale')) return undefined
    // A range on the primary key, not LIKE (terminal ids may hold "_", a wildcard there) nor a scan:
    // every id starting with the prefix sorts in [prefix, prefix with its last character raised), so a
    // foreign sale is one below or above it, and each side is one index seek, whatever the journal holds.
    const prefix = `${trainingTerminalId}-`
    const above = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
    const foreign = (db.prepare('SELECT id FROM sale WHERE id < ? ORDER BY id DESC LIMIT 1').pluck().get(prefix) ??
      db.prepare('SELECT id FROM sale WHERE id >= ? ORDER BY id LIMIT 1').pluck().get(above)) as string | undefined
    const waiting = tables.includes('outbox')
      ? (db.prepare(`SELECT count(*) FROM outbox WHERE ${OWED_TO_HOST_SQL}`).pluck().get() as number)
      : 0
    return { foreignSaleId: foreign, waitingItems: waiting }
  } finally {
    db.close()
  }
}

export interface QueueSummary {
  /** Items waiting or on the wire. */
  waiting: number
  oldestWaitingAt: number | undefined
  /** Sales that need a manager: a queued item parked, or a sale the host's answer put there. */
  needsManager: number
}

/** What the doctor reports of the queue, read-only; undefined when there is no journal yet. */
export function probeQueue(file: string): QueueSummary | undefined {
  if (!existsSync(file)) return undefined
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const row = db
      .prepare(
        `SELECT
           (SELECT count(*) FROM outbox WHERE state IN ('pending', 'inflight')) AS waiting,
           (SELECT min(created_at) FROM outbox WHERE state IN ('pending', 'inflight')) AS oldest,
           (SELECT count(*) FROM (SELECT sale_id FROM outbox WHERE state = 'attention'
              UNION SELECT id FROM sale WHERE state = 'needsAttention')) AS needsManager`,
      )
      .get() as { waiting: number; oldest: number | null; needsManager: number }
    return { waiting: row.waiting, oldestWaitingAt: row.oldest ?? undefined, needsManager: row.needsManager }
  } finally {
    db.close()
  }
}

/** What a read-only look finds of a journal's audit trail (`pos-agent audit verify`, the doctor). */
export interface AuditTrailSummary {
  records: number
  /** Whether any record was sealed under a key (the agent seals the trail at its first start with a key). */
  sealed: boolean
  /** The check against `key` and the heads kept outside the file; absent without a key. */
  verdict?: AuditVerdict
}

/** undefined when there is no journal file, or it has no audit trail yet. Never writes. */
export function probeAuditTrail(
  file: string,
  key: ChainKey | undefined,
  anchors: readonly AuditAnchorHead[],
): AuditTrailSummary | undefined {
  if (!existsSync(file)) return undefined
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'audit'").pluck().get()
    if (table === undefined) return undefined
    const records = db.prepare('SELECT count(*) FROM audit').pluck().get() as number
    const sealed = db.prepare(`SELECT 1 FROM audit WHERE action = '${AUDIT_SEALED_ACTION}' LIMIT 1`).pluck().get() !== undefined
    if (key === undefined) return { records, sealed }
    return { records, sealed, verdict: new AuditStore(db, key).verify({ anchors, keyOfThisRunOnly: false }) }
  } finally {
    db.close()
  }
}
