/**
 * The store-and-forward queue in SQLite. Items of one sale go strictly in order (a reversal first,
 * then the rest by age), items of different sales independently; an item past its limits waits in
 * `attention` for a manager and blocks the later items of its sale. Bodies are sealed under the sale's
 * own key (sale-keys.ts): a stored payment carries card data until the host acknowledges it.
 */
import type Database from 'better-sqlite3'
import { runInTransaction } from './database'
import type { SaleKeys } from './sale-keys'
import { sealedFieldAad, wipe } from './sealed-fields'
import type { QueueFailure, QueueOperation } from '../../src-shared/sale'
import { OPEN_SALE_PREDICATE } from './schema'

/**
 * A queue item's life: waiting, sent and not yet answered, answered, parked for a manager, or
 * withdrawn before it was ever sent. Declared once; the SQL below takes its lists from here.
 */
export const OUTBOX_STATES = ['pending', 'inflight', 'done', 'attention', 'withdrawn'] as const
export type OutboxState = (typeof OUTBOX_STATES)[number]
/** Still owed to the host: counted in the queue, blocking later items of the sale, kept across restarts. */
export const OWED_TO_HOST: readonly OutboxState[] = ['pending', 'inflight', 'attention']
/** Waiting or on the wire (not parked for a manager). */
const IN_QUEUE: readonly OutboxState[] = ['pending', 'inflight']
const sqlList = (states: readonly OutboxState[]) => states.map((s) => `'${s}'`).join(', ')
/** `state IN (...)` for the owed states, as the queries and the start-up probe write it. */
export const OWED_TO_HOST_SQL = `state IN (${sqlList(OWED_TO_HOST)})`

export interface NewOutboxItem {
  operation: QueueOperation
  /** merchantTransID carried by this message (the sale's own id for payment and reversal). */
  messageId: string
  /** The original merchantTransID in the path (cancel, reversal, tips, capture). */
  body: unknown
  /**
   * The same message without any card data, for a message that may go without it (a reversal). Kept
   * in clear: when the sealed body cannot be opened (the data key was lost), this one is sent, so a
   * charge standing at the host is never stranded. Must never hold card data.
   */
  cardFreeBody?: unknown
  amountMinor?: number
  currency?: string
}

export interface OutboxItem {
  seq: number
  saleId: string
  operation: QueueOperation
  messageId: string
  state: OutboxState
  attempts: number
  nextAttemptAt: number
  createdAt: number
  amountMinor: number
  currency: string | null
  /** Why the last attempt did not go through; null before any failure. */
  lastFailure: QueueFailure | null
  /** The last failure's technical detail, for the log. */
  lastError: string | null
}

export interface ClaimedItem extends OutboxItem {
  body: unknown
  /** The sealed body could not be opened (lost data key): `body` is the card-free copy. */
  withoutCard?: true
}

export interface QueueTotals {
  /** Items waiting or in flight. */
  count: number
  /** Stored payments waiting, per currency, in minor units. */
  storedAmountMinor: Record<string, number>
  storedCount: number
  oldestStoredAt: number | undefined
  oldestItemAt: number | undefined
  attentionCount: number
}

const PRIORITY: Readonly<Partial<Record<QueueOperation, number>>> = { reversal: 0 }
const SELECT =
  'seq, sale_id AS saleId, operation, message_id AS messageId, state, attempts, next_attempt_at AS nextAttemptAt, created_at AS createdAt, amount_minor AS amountMinor, currency, last_failure AS lastFailure, last_error AS lastError'

export class OutboxStore {
  private readonly sql

  constructor(
    private readonly db: Database.Database,
    private readonly keys: SaleKeys,
    private readonly now: () => number,
  ) {
    this.sql = {
      insert: db.prepare(
        "INSERT INTO outbox (sale_id, operation, message_id, priority, state, body, key_id, amount_minor, currency, next_attempt_at, created_at, card_free_body) VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)",
      ),
      // Items sealed under a data key the keychain no longer holds wait (never deleted) until it is
      // restored, unless they have a card-free copy to go with (a reversal).
      due: db.prepare(`SELECT ${SELECT}, body, key_id AS keyId, card_free_body AS cardFreeBody FROM outbox o
        WHERE o.state = 'pending' AND o.next_attempt_at <= @now AND (o.key_id = @key OR o.card_free_body IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.sale_id = o.sale_id AND p.${OWED_TO_HOST_SQL}
                        AND (p.priority < o.priority OR (p.priority = o.priority AND p.seq < o.seq)))
        ORDER BY o.priority, o.seq LIMIT @limit`),
      // What only undoes (a reversal, a void's cancel), each still its sale's first owed item.
      dueUndoing: db.prepare(`SELECT ${SELECT}, body, key_id AS keyId, card_free_body AS cardFreeBody FROM outbox o
        WHERE o.state = 'pending' AND o.operation IN ('reversal', 'cancel') AND o.next_attempt_at <= @now AND (o.key_id = @key OR o.card_free_body IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.sale_id = o.sale_id AND p.${OWED_TO_HOST_SQL}
                        AND (p.priority < o.priority OR (p.priority = o.priority AND p.seq < o.seq)))
        ORDER BY o.priority, o.seq LIMIT @limit`),
      markInflight: db.prepare("UPDATE outbox SET state = 'inflight', attempts = attempts + 1 WHERE seq = ?"),
      complete: db
        .prepare(
          "UPDATE outbox SET state = 'done', body = NULL, card_free_body = NULL, done_at = ?, last_failure = NULL, last_error = NULL WHERE seq = ? RETURNING sale_id",
        )
        .pluck(),
      retryLater: db.prepare("UPDATE outbox SET state = 'pending', next_attempt_at = ?, last_failure = ?, last_error = ? WHERE seq = ?"),
      toAttention: db.prepare("UPDATE outbox SET state = 'attention', last_failure = ?, last_error = ? WHERE seq = ?"),
      withdraw: db.prepare(
        "UPDATE outbox SET state = 'withdrawn', body = NULL, card_free_body = NULL, done_at = ? WHERE sale_id = ? AND state = 'pending'",
      ),
      retryAttention: db.prepare(
        "UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = ?, created_at = ?, last_failure = NULL, last_error = NULL WHERE sale_id = ? AND state = 'attention'",
      ),
      recoverInflight: db.prepare("UPDATE outbox SET state = 'pending' WHERE state = 'inflight'"),
      release: db.prepare("UPDATE outbox SET state = 'pending' WHERE seq = ? AND state = 'inflight'"),
      releaseUnsent: db.prepare(
        "UPDATE outbox SET state = 'pending', attempts = max(attempts - 1, 0) WHERE seq = ? AND state = 'inflight'",
      ),
      dueNow: db.prepare("UPDATE outbox SET next_attempt_at = ? WHERE state = 'pending' AND next_attempt_at > ?"),
      totals: db.prepare(`SELECT
          (SELECT count(*) FROM outbox WHERE state IN (${sqlList(IN_QUEUE)})) AS count,
          -- sales that need a manager: a queued item parked, or a sale the host's answer put there
          -- (a stored payment declined when forwarded has no item left, and still needs one)
          (SELECT count(*) FROM (SELECT sale_id FROM outbox WHERE state = 'attention'
             -- the open-sale predicate lets SQLite use the partial index sale_open, not scan every sale
             UNION SELECT id FROM sale WHERE state = 'needsAttention' AND ${OPEN_SALE_PREDICATE})) AS attentionCount,
          (SELECT min(created_at) FROM outbox WHERE state IN (${sqlList(IN_QUEUE)})) AS oldestItemAt`),
      stored: db.prepare(`SELECT currency, count(*) AS n, sum(amount_minor) AS total, min(created_at) AS oldest FROM outbox
          WHERE operation = 'payment' AND ${OWED_TO_HOST_SQL} GROUP BY currency`),
      lockedCount: db.prepare(
        `SELECT count(*) AS n FROM outbox WHERE ${OWED_TO_HOST_SQL} AND key_id IS NOT ? AND body IS NOT NULL AND card_free_body IS NULL`,
      ),
      // The first owed item of each sale, queued before a time: what an age limit may have passed.
      agedHeads: db.prepare(`SELECT ${SELECT} FROM outbox o
        WHERE o.state = 'pending' AND o.created_at <= @before
        AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.sale_id = o.sale_id AND p.${OWED_TO_HOST_SQL}
                        AND (p.priority < o.priority OR (p.priority = o.priority AND p.seq < o.seq)))
        ORDER BY o.priority, o.seq LIMIT @limit`),
      waiting: db.prepare(`SELECT ${SELECT} FROM outbox WHERE ${OWED_TO_HOST_SQL} ORDER BY priority, seq LIMIT ?`),
      owedKeys: db.prepare(`SELECT seq, operation, message_id AS messageId FROM outbox WHERE ${OWED_TO_HOST_SQL} ORDER BY priority, seq`),
      ofSale: db.prepare(`SELECT ${SELECT} FROM outbox WHERE sale_id = ? ORDER BY seq`),
      bySeq: db.prepare(`SELECT ${SELECT} FROM outbox WHERE seq = ?`),
      bodyOf: db.prepare(
        `SELECT sale_id AS saleId, operation, message_id AS messageId, body, key_id AS keyId, card_free_body AS cardFreeBody FROM outbox WHERE seq = ? AND ${OWED_TO_HOST_SQL}`,
      ),
    }
  }

  enqueue(saleId: string, item: NewOutboxItem): void {
    const at = this.now()
    const envelope = this.keys.seal(saleId, outboxBodyAad(saleId, item.operation, item.messageId), JSON.stringify(item.body))
    this.sql.insert.run(
      saleId,
      item.operation,
      item.messageId,
      PRIORITY[item.operation] ?? 1,
      envelope,
      this.keys.dataKeyId,
      item.amountMinor ?? 0,
      item.currency ?? null,
      at,
      at,
      item.cardFreeBody === undefined ? null : JSON.stringify(item.cardFreeBody),
    )
  }

  /**
   * Claims up to `limit` due items (one per sale), marks them in flight and opens their bodies.
   * `undoingOnly`: a terminal whose queue a rescue took still sends what only undoes a payment, its
   * reversals and its voids' cancels (docs/store.md).
   */
  claimDue(limit: number, undoingOnly = false): ClaimedItem[] {
    return runInTransaction(this.db, () => this.claimInTransaction(limit, undoingOnly))
  }

  private claimInTransaction(limit: number, undoingOnly: boolean): ClaimedItem[] {
    type DueRow = OutboxItem & { body: Buffer; keyId: string; cardFreeBody: string | null }
    const due = undoingOnly ? this.sql.dueUndoing : this.sql.due
    const rows = due.all({ now: this.now(), key: this.keys.dataKeyId, limit }) as DueRow[]
    return rows.map(({ body, keyId, cardFreeBody, ...item }) => {
      this.sql.markInflight.run(item.seq)
      const claimed = { ...item, state: 'inflight' as const, attempts: item.attempts + 1 }
      if (keyId !== this.keys.dataKeyId) return { ...claimed, body: JSON.parse(cardFreeBody!) as unknown, withoutCard: true as const }
      const plain = this.keys.open(item.saleId, outboxBodyAad(item.saleId, item.operation, item.messageId), body)
      try {
        return { ...claimed, body: JSON.parse(plain.toString('utf8')) as unknown }
      } finally {
        wipe(plain)
      }
    })
  }

  /**
   * The item answered: its body is gone, and its sale's key with it once nothing sealed needs it.
   * `keysLater`: the caller destroys the sale's keys itself in the same transaction (a purge), so
   * they are not looked at twice.
   */
  complete(seq: number, keysLater = false): void {
    const saleId = this.sql.complete.get(this.now(), seq) as string | undefined
    if (saleId !== undefined && !keysLater) this.keys.retire(saleId)
  }

  /** A failed attempt to be tried again at `at`: why (`failure`) and the technical detail (`error`). */
  retryLater(seq: number, at: number, failure: QueueFailure, error: string): void {
    this.sql.retryLater.run(at, failure, error, seq)
  }

  /** An item parked for a manager: why (`failure`) and the technical detail (`reason`). */
  toAttention(seq: number, failure: QueueFailure, reason: string): void {
    this.sql.toAttention.run(failure, reason, seq)
  }

  withdrawPending(saleId: string): void {
    if (this.sql.withdraw.run(this.now(), saleId).changes > 0) this.keys.retire(saleId)
  }

  retryAttention(saleId: string): void {
    const at = this.now()
    this.sql.retryAttention.run(at, at, saleId)
  }

  /**
   * Claimed items whose answers were not journaled go back to waiting (they are resent as they were);
   * `notSent` ones were never sent, so their counted attempt is taken back.
   */
  release(seqs: readonly number[], notSent: readonly number[] = []): void {
    runInTransaction(this.db, () => {
      seqs.forEach((seq) => this.sql.release.run(seq))
      notSent.forEach((seq) => this.sql.releaseUnsent.run(seq))
    })
  }

  /** Every waiting item due at once (a manager's "forward now"); the order within a sale is kept by the claim. */
  makeAllDue(): number {
    const now = this.now()
    return this.sql.dueNow.run(now, now).changes
  }

  /** At start: whatever was in flight when the agent stopped is sent again (the host de-duplicates). */
  recoverInflight(): number {
    return this.sql.recoverInflight.run().changes
  }

  totals(): QueueTotals {
    const head = this.sql.totals.get() as { count: number; attentionCount: number; oldestItemAt: number | null }
    return { count: head.count, attentionCount: head.attentionCount, oldestItemAt: head.oldestItemAt ?? undefined, ...this.storedTotals() }
  }

  /** The stored offline payments alone, what the offline limits weigh a new one against (every offline sale asks). */
  storedTotals(): Pick<QueueTotals, 'storedAmountMinor' | 'storedCount' | 'oldestStoredAt'> {
    const storedAmountMinor: Record<string, number> = {}
    let storedCount = 0
    let oldestStoredAt: number | undefined
    for (const row of this.sql.stored.all() as Array<{ currency: string; n: number; total: number; oldest: number }>) {
      // SQLite sums in 64 bits; past 2^53 the number read here would be rounded: refused, never wrong.
      if (!Number.isSafeInteger(row.total)) throw new RangeError(`the stored ${row.currency} total passes what a number counts exactly`)
      storedAmountMinor[row.currency] = row.total
      storedCount += row.n
      oldestStoredAt = oldestStoredAt === undefined ? row.oldest : Math.min(oldestStoredAt, row.oldest)
    }
    return { storedAmountMinor, storedCount, oldestStoredAt }
  }

  /** Queued items sealed under another data key: they wait for that key to be restored. */
  lockedCount(): number {
    return (this.sql.lockedCount.get(this.keys.dataKeyId) as { n: number }).n
  }

  /**
   * Waiting items queued at or before `before` that are first of their sale (nothing earlier of it is
   * owed): those a queue that cannot reach the bank may have to give up by age without a try.
   */
  agedHeads(before: number, limit = 500): OutboxItem[] {
    return this.sql.agedHeads.all({ before, limit }) as OutboxItem[]
  }

  /**
   * Every item still owed to the host, by its keys alone: the store's copies are checked against it
   * several times a second while a counter is busy, and the whole rows of a long queue were most of
   * that check's time (and garbage).
   */
  owedKeys(): Array<Pick<OutboxItem, 'seq' | 'operation' | 'messageId'>> {
    return this.sql.owedKeys.all() as Array<Pick<OutboxItem, 'seq' | 'operation' | 'messageId'>>
  }

  waiting(limit = 500): OutboxItem[] {
    return this.sql.waiting.all(limit) as OutboxItem[]
  }

  ofSale(saleId: string): OutboxItem[] {
    return this.sql.ofSale.all(saleId) as OutboxItem[]
  }

  get(seq: number): OutboxItem | undefined {
    return this.sql.bySeq.get(seq) as OutboxItem | undefined
  }

  /**
   * An owed item's body, opened, for the store's sealed copy of it (docs/store.md); its card-free
   * copy when the sealed one waits for a lost data key; undefined once the item is no longer owed.
   */
  openBody(seq: number): unknown {
    type Row = { saleId: string; operation: string; messageId: string; body: Buffer | null; keyId: string; cardFreeBody: string | null }
    const row = this.sql.bodyOf.get(seq) as Row | undefined
    if (!row || row.body === null) return undefined
    if (row.keyId !== this.keys.dataKeyId) return row.cardFreeBody === null ? undefined : (JSON.parse(row.cardFreeBody) as unknown)
    const plain = this.keys.open(row.saleId, outboxBodyAad(row.saleId, row.operation, row.messageId), row.body)
    try {
      return JSON.parse(plain.toString('utf8')) as unknown
    } finally {
      wipe(plain)
    }
  }
}

/** A queued body's AAD: the sale, the operation and the message id it was built for. */
export function outboxBodyAad(saleId: string, operation: string, messageId: string): string {
  return sealedFieldAad('outbox', `${saleId}|${operation}|${messageId}`, 'body')
}
