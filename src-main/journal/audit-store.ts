/**
 * The audit trail's rows: append-only (triggers refuse any update or delete, schema.ts version 10)
 * and sealed, so that what the triggers cannot stop (the file edited by hand, the triggers dropped)
 * still shows: each record's seal is HMAC-SHA256 under the trail's key over the seal before it and
 * its own fields (audit-chain.ts), and `verify` reads the chain against the head kept outside the
 * file (audit-seal.ts). Persistence only: what is recorded, and when, is src-main/service.
 */
import type Database from 'better-sqlite3'
import { afterCommit, runInTransaction } from './database'
import {
  AUDIT_AGENT_DOOR,
  AUDIT_GENESIS,
  AUDIT_SEALED_ACTION,
  ChainCheck,
  isSealRecord,
  legacyHashOf,
  sealOf,
  type AuditAnchorHead,
  type AuditHead,
  type AuditVerdict,
  type ChainKey,
  type ChainRow,
} from './audit-chain'

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

export { AUDIT_GENESIS } from './audit-chain'

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

const chainRowOf = (row: AuditRow): ChainRow => ({ ...fromRow(row), prevHash: row.prev_hash, hash: row.hash })

/** How a check reads records the trail's current key did not seal (audit-chain.ts ChainCheck). */
export interface AuditCheckOptions {
  /** Heads kept outside the file to hold the trail against (default: the one `holdAgainst` names). */
  anchors?: readonly AuditAnchorHead[]
  /** A trail kept without an OS keychain: records of earlier runs are unprovable, not broken (default: as `holdAgainst` says). */
  keyOfThisRunOnly?: boolean
  /** Name every record that does not check out (`verdict.broken`), for a per-record column. */
  perRecord?: boolean
}

/** Rows read per step of a check aside: about 5 ms of work (some 20 µs a record) between two turns of the event loop. */
const ROWS_PER_STEP = 250

export class AuditStore {
  private readonly statements
  private readonly listeners = new Set<(head: AuditHead) => void>()
  /** What the trail is held against when a check names nothing else (anchorAuditTrail). */
  private outside: { anchor: () => AuditAnchorHead | undefined; keyOfThisRunOnly: boolean } | undefined

  constructor(
    private readonly db: Database.Database,
    private readonly key: ChainKey,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      last: db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1'),
      insert: db.prepare(
        'INSERT INTO audit (seq, at, action, door, via, actor, subject, ok, detail, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      between: db.prepare('SELECT * FROM audit WHERE at >= ? AND at < ? AND seq > ? ORDER BY seq LIMIT ?'),
      chain: db.prepare('SELECT * FROM audit ORDER BY seq'),
      chainStep: db.prepare('SELECT * FROM audit WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?'),
      lastSeal: db.prepare(
        `SELECT subject FROM audit WHERE action = '${AUDIT_SEALED_ACTION}' AND door = '${AUDIT_AGENT_DOOR}' ORDER BY seq DESC LIMIT 1`,
      ),
      headAt: db.prepare('SELECT seq, hash FROM audit WHERE at < ? ORDER BY seq DESC LIMIT 1'),
    }
  }

  /** The trail's key id (the first 8 hex digits of its SHA-256), as the `auditSealed` records name it. */
  get keyId(): string {
    return this.key.keyId
  }

  /**
   * Starts this key's part of the trail when it has none yet, with an `auditSealed` record saying so:
   * on a new trail, on records kept before the trail had a key (sealed here as they stand, once:
   * `firstKey`, the key was made just now), and after a change of key. Returns the record written.
   */
  seal(why: { firstKey: boolean; keptInMemory: boolean }): AuditRecord | undefined {
    const last = this.statements.lastSeal.get() as { subject: string | null } | undefined
    if (last?.subject === this.key.keyId) return undefined
    const count = (this.statements.last.get() as { seq: number } | undefined)?.seq ?? 0
    if (last === undefined && count > 0 && !why.firstKey) {
      // Records without any seal while the keychain already held this trail's key: they were written
      // around the agent. Sealing them now would vouch for them; the check says what they are instead.
      return undefined
    }
    let detail: string
    if (count === 0) detail = `the audit trail is sealed from here, under key ${this.key.keyId}`
    else if (last === undefined) {
      const legacy = this.legacyCheck()
      detail =
        `the ${count} records before this one were kept under the former unsealed chain` +
        (legacy === undefined ? ', intact when sealed here' : `, found broken when sealed here (${legacy})`) +
        `; sealed from here under key ${this.key.keyId}`
    } else
      detail = why.keptInMemory
        ? `a new run without an OS keychain: sealed from here under key ${this.key.keyId}; records before this one were sealed under a key that ended with its run`
        : `the key this trail was sealed under (${last.subject ?? '?'}) is not in the keychain: sealed from here under key ${this.key.keyId}; records before this one cannot be proven`
    return this.append({ action: AUDIT_SEALED_ACTION, door: AUDIT_AGENT_DOOR, subject: this.key.keyId, ok: true, detail })
  }

  /** Appends one record, sealed and linked to the last one, in its own commit. */
  append(entry: AuditEntry): AuditRecord {
    return runInTransaction(this.db, () => {
      const last = this.statements.last.get() as { seq: number; hash: string } | undefined
      const record: AuditRecord = { ...entry, seq: (last?.seq ?? 0) + 1, at: this.now() }
      const previous = last?.hash ?? AUDIT_GENESIS
      const hash = sealOf(this.key, previous, record)
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
      // The head leaves the file only once the record is in it.
      afterCommit(this.db, () => this.listeners.forEach((listener) => listener({ seq: record.seq, mac: hash })))
      return fromRow({ ...rowOf(record), prev_hash: previous, hash })
    })
  }

  /** The head kept outside the file that every check holds the trail against, and whether the key lives only in this run. */
  holdAgainst(anchor: () => AuditAnchorHead | undefined, keyOfThisRunOnly: boolean): void {
    this.outside = { anchor, keyOfThisRunOnly }
  }

  /** Called with the new head after each record is committed (the keychain, the store's events). */
  onHead(listener: (head: AuditHead) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The last record's number and seal; undefined for an empty trail. */
  head(): AuditHead | undefined {
    const last = this.statements.last.get() as { seq: number; hash: string } | undefined
    return last ? { seq: last.seq, mac: last.hash } : undefined
  }

  /**
   * The head as it stood at `time` (a batch's close): the last record written before that millisecond,
   * so that what is written in the close's own millisecond, before or after it, never moves a reprint.
   */
  headAt(time: number): AuditHead | undefined {
    const row = this.statements.headAt.get(time) as { seq: number; hash: string } | undefined
    return row ? { seq: row.seq, mac: row.hash } : undefined
  }

  /** Records from `from` (inclusive) to `to` (exclusive), after journal position `afterSeq`, oldest first. */
  between(from: number, to: number, afterSeq = 0, limit = 5000): AuditRecord[] {
    return (this.statements.between.all(from, to, afterSeq, limit) as AuditRow[]).map(fromRow)
  }

  /** The whole trail read against its key and the heads kept outside the file, here and now. */
  verify(options: AuditCheckOptions = {}): AuditVerdict & { broken?: ReadonlySet<number> } {
    const check = this.check(options)
    for (const row of this.statements.chain.iterate() as IterableIterator<AuditRow>) check.feed(chainRowOf(row))
    return { ...check.finish(), ...(check.broken ? { broken: check.broken } : {}) }
  }

  /**
   * The same check a step at a time, the event loop turning between steps: the check at start and at
   * idle, which a long trail must not make the counter wait for. It reads the trail as far as it
   * reached when the check began; records appended meanwhile are the next check's.
   */
  async verifyAside(options: AuditCheckOptions = {}): Promise<AuditVerdict> {
    const check = this.check(options)
    const until = this.head()?.seq ?? 0
    let after = 0
    for (;;) {
      const rows = this.statements.chainStep.all(after, until, ROWS_PER_STEP) as AuditRow[]
      for (const row of rows) check.feed(chainRowOf(row))
      if (rows.length < ROWS_PER_STEP) break
      after = rows[rows.length - 1]!.seq
      await new Promise((resolve) => setImmediate(resolve))
    }
    return check.finish()
  }

  private check(options: AuditCheckOptions): ChainCheck {
    const kept = this.outside?.anchor()
    const anchors = options.anchors ?? (kept ? [kept] : [])
    const thisRunOnly = options.keyOfThisRunOnly ?? this.outside?.keyOfThisRunOnly ?? false
    return new ChainCheck(this.key, anchors, thisRunOnly ? 'earlierRuns' : 'broken', options.perRecord ?? false)
  }

  /** The records kept before the trail had a key, read as their own unsealed chain: what breaks first, if anything. */
  private legacyCheck(): string | undefined {
    let previous = AUDIT_GENESIS
    let expected = 1
    for (const row of this.statements.chain.iterate() as IterableIterator<AuditRow>) {
      const record = chainRowOf(row)
      if (isSealRecord(record)) break
      if (record.seq !== expected) return `record ${expected} is missing`
      if (record.prevHash !== previous || legacyHashOf(previous, record) !== record.hash) return `record ${record.seq} was changed`
      previous = record.hash
      expected++
    }
    return undefined
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
