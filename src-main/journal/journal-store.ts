/**
 * JournalStore: the sales and their history in SQLite. The state column is the truth; every change
 * of it is one SQLite transaction that also appends the event, seals or purges card data and
 * enqueues or withdraws queue items, so the journal alone tells what the agent did and meant to do.
 */
import type Database from 'better-sqlite3'
import { afterCommit, runInTransaction, type CommitSync, type Nesting } from './database'
import { sealedFieldAad, wipe, type FieldSealer } from './sealed-fields'
import { OutboxStore, type NewOutboxItem } from './outbox-store'
import { SaleKeys } from './sale-keys'
import { merchantTransId } from './transaction-ids'
import {
  CREDITING,
  FINAL,
  RETURN_AT_COUNTER,
  sqlStateList,
  type CardholderVerification,
  type QueueFailure,
  type SaleCause,
  type SaleKind,
  type SaleOrigin,
  type SaleState,
  type TipState,
} from '../../src-shared/sale'
import { OPEN_SALE_PREDICATE } from './schema'
import { BatchStore } from './batch-store'
import { OperatorStore } from './operator-store'
import { ShiftStore } from './shift-store'
import { AuditStore } from './audit-store'
import type { ChainKey } from './audit-chain'
import { ephemeralAuditKey } from './audit-seal'
import { NexoStore } from './nexo-store'
import { WindowStore } from './window-store'

/** Distinct column sets given their own UPDATE statement (journal.apply with `previous`). */
const MAX_PARTIAL_UPDATES = 256

/** Why a card was read, and under which name the journal seals it. */
export type CardPurpose = 'purchase' | 'void' | 'return'

/** A sale as stored. The states are the shared vocabulary (src-shared/sale). */
export interface SaleRecord {
  id: string
  state: SaleState
  createdAt: number
  updatedAt: number
  businessDay: string
  transTime: string
  amountMinor: number
  currency: string
  autoCapture: boolean
  offline: boolean
  chip: boolean
  tipMinor: number
  tipState: TipState
  reason?: string | undefined
  /** Why the payment ended as it did, as the machine recorded it (SALE_CAUSES). */
  cause?: SaleCause | undefined
  attentionFrom?: SaleState | undefined
  authCode?: string | undefined
  svcTransID?: string | undefined
  maskedPan?: string | undefined
  brand?: string | undefined
  readMethod?: string | undefined
  applicationId?: string | undefined
  applicationLabel?: string | undefined
  /** A chip card's sequence number (EMV 5F34), two digits: not cardholder data. */
  cardSequence?: string | undefined
  /** Receipt facts (src-main/device receiptFacts): chip verification results and the cardholder verification. */
  tvr?: string | undefined
  tsi?: string | undefined
  cvm?: CardholderVerification | undefined
  cardFingerprint?: string | undefined
  reference?: string | undefined
  requestHash?: string | undefined
  options?: string | undefined
  /** Who rang the sale up. */
  startedBy?: SaleOrigin | undefined
  /** The operator signed in at the counter when it was rung up (operators, src-main/operators). */
  operatorId?: string | undefined
  /** The closed batch the sale belongs to; absent while its batch is open. Only a close sets it (batch-store.ts). */
  readonly batchNumber?: number | undefined
  /** A sale (absent on rows read before returns existed) or a return crediting a card. */
  kind?: SaleKind | undefined
  /** A return: the sale it credits (absent for an unreferenced return). */
  originalId?: string | undefined
  /** A sale: what its crediting returns add up to (CREDITING), kept by its returns' commits, never written by its own. */
  readonly returnedMinor?: number | undefined
  /** A sale: what its returns still at the counter ask to credit (RETURN_AT_COUNTER), kept as returnedMinor is. */
  readonly returningMinor?: number | undefined
}

export type NewSale = Omit<
  SaleRecord,
  'id' | 'createdAt' | 'updatedAt' | 'offline' | 'chip' | 'tipMinor' | 'tipState' | 'batchNumber' | 'returnedMinor' | 'returningMinor'
>

/** Everything one transition writes, atomically. */
export interface SaleChange {
  /** `operator`: the operator who took this step, when a person took it. */
  event: { type: string; detail?: unknown; operator?: string | undefined }
  /** The new record (full); the store checks the previous state to refuse lost updates. */
  next: SaleRecord
  expectedState: SaleState
  /**
   * The record as read in this same transaction, when the caller has it: only the columns that
   * differ from it are written. A full-row UPDATE rewrites every index of the sale table and runs its
   * foreign-key checks and batch triggers, about three times the cost of the columns that changed.
   */
  previous?: SaleRecord
  sealCard?: { purpose: CardPurpose; data: unknown }
  purgeCard?: boolean
  enqueue?: NewOutboxItem[]
  withdrawPending?: boolean
  retryAttention?: boolean
  /** The queue item whose answer caused this change, settled in the same transaction. */
  /**
   * The queue item this change answers: done, or parked for a manager with why (`failure`) and the
   * technical detail (`reason`). A done item names the failure to record should the sale keep it for
   * a manager after all (an answer the sale cannot live with).
   */
  settleOutbox?:
    { seq: number; result: 'done'; failure?: QueueFailure } | { seq: number; result: 'attention'; failure: QueueFailure; reason: string }
}

export interface JournalStoreOptions {
  /** The middle part of every merchantTransID this store issues (transaction-ids.ts: openIdEpoch). */
  idEpoch: string
  now?: () => number
  /** Sealed data was deleted or a sale's key destroyed: the WAL should be truncated soon (checkpointer.ts). */
  onErase?: () => void
  /** The audit trail's key from the keychain (audit-seal.ts); without one, a key that lives as long as this store. */
  auditKey?: ChainKey
  /**
   * A sale was found by its `reference` only through the second way in (`byReference`): the reference
   * index is damaged. The journal's full check should run now, not at the next idle moment.
   */
  onReferenceIndexMiss?: () => void
}

/**
 * What listSales searches by (docs/local-api.md "Finding sales"): every field given must match. The
 * scope is a local day, a batch (a closed one by number, or the open one), or both; the rest narrow it.
 */
export interface SaleSearch {
  day?: string | undefined
  batch?: number | 'open' | undefined
  /** The sale's amount, or its amount with the tip: what the customer saw charged. */
  amountMinor?: number | undefined
  /** The last four digits of the card, as the masked PAN shows them. */
  last4?: string | undefined
  /** The POS's own reference (startSale's `reference`). */
  reference?: string | undefined
  operatorId?: string | undefined
}

/**
 * The query of a search, oldest first. The scope reads through sale_by_day or sale_by_batch, a
 * reference through its unique index (a test asks SQLite's query plan); the other filters narrow the
 * rows the index found. Only fixed SQL text: every value is a bound parameter.
 */
export function saleSearchQuery(search: SaleSearch): { sql: string; params: Record<string, string | number> } {
  const where: string[] = []
  const params: Record<string, string | number> = {}
  if (search.day !== undefined) {
    where.push('sale.business_day = @day')
    params.day = search.day
  }
  if (search.batch === 'open') where.push('sale.batch IS NULL')
  else if (search.batch !== undefined) {
    where.push('sale.batch = @batch')
    params.batch = search.batch
  }
  if (search.reference !== undefined) {
    where.push('sale.reference = @reference')
    params.reference = search.reference
  }
  if (search.amountMinor !== undefined) {
    where.push('(sale.amount_minor = @amount OR sale.amount_minor + sale.tip_minor = @amount)')
    params.amount = search.amountMinor
  }
  if (search.last4 !== undefined) {
    where.push('substr(sale.masked_pan, -4) = @last4')
    params.last4 = search.last4
  }
  if (search.operatorId !== undefined) {
    where.push('sale.operator_id = @operator')
    params.operator = search.operatorId
  }
  const sql = `${SELECT_SALE}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY sale.created_at`
  return { sql, params }
}

export class StaleSaleError extends Error {
  override readonly name = 'StaleSaleError'
  readonly code = 'STALE_SALE'
}

const COLUMNS: ReadonlyArray<[keyof SaleRecord, string]> = [
  ['id', 'id'],
  ['state', 'state'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
  ['businessDay', 'business_day'],
  ['transTime', 'trans_time'],
  ['amountMinor', 'amount_minor'],
  ['currency', 'currency'],
  ['autoCapture', 'auto_capture'],
  ['offline', 'offline'],
  ['chip', 'chip'],
  ['tipMinor', 'tip_minor'],
  ['tipState', 'tip_state'],
  ['reason', 'reason'],
  ['attentionFrom', 'attention_from'],
  ['authCode', 'auth_code'],
  ['svcTransID', 'svc_trans_id'],
  ['maskedPan', 'masked_pan'],
  ['brand', 'brand'],
  ['readMethod', 'read_method'],
  ['applicationId', 'application_id'],
  ['applicationLabel', 'application_label'],
  ['cardSequence', 'card_sequence'],
  ['tvr', 'tvr'],
  ['tsi', 'tsi'],
  ['cvm', 'cvm'],
  ['cardFingerprint', 'card_fingerprint'],
  ['reference', 'reference'],
  ['requestHash', 'request_hash'],
  ['options', 'options'],
  ['startedBy', 'started_by'],
  ['operatorId', 'operator_id'],
  ['kind', 'kind'],
  ['originalId', 'original_id'],
  ['cause', 'cause'],
]
/**
 * Read, never written by a sale's own change: a close of day moves sales into a batch (batch-store.ts);
 * what was returned of a sale is summed from its returns' rows by the commit that changes a return
 * (RETURN_SUMS), so that reading a sale is one row, not two sums over its returns.
 */
const READ_ONLY_COLUMNS: ReadonlyArray<[keyof SaleRecord, string]> = [
  ['batchNumber', 'batch'],
  ['returnedMinor', 'returned_minor'],
  ['returningMinor', 'returning_minor'],
]
/** Every column a read gives back, listed once rather than on every read. */
const READ_COLUMNS: ReadonlyArray<[keyof SaleRecord, string]> = [...COLUMNS, ...READ_ONLY_COLUMNS]
/** The columns a step may change (all but the id), in the order the full-row UPDATE names them. */
const UPDATED_COLUMNS: readonly string[] = COLUMNS.map(([, column]) => column).filter((column) => column !== 'id')
const SELECT_SALE = 'SELECT sale.* FROM sale'
/**
 * A sale's returned amounts summed again from its returns' rows (the partial index sale_by_original
 * serves the sums), in the same commit as the return's change: the credit's own commit reads the
 * sale (write-ahead.ts) and so finds every other return as it stands, exact as a sum at read time.
 */
const RETURN_SUMS = `UPDATE sale SET
    returned_minor = (SELECT coalesce(sum(r.amount_minor), 0) FROM sale r
      WHERE r.original_id = @id AND r.state IN (${sqlStateList(CREDITING)})),
    returning_minor = (SELECT coalesce(sum(r.amount_minor), 0) FROM sale r
      WHERE r.original_id = @id AND r.state IN (${sqlStateList(RETURN_AT_COUNTER)}))
  WHERE id = @id`
const BOOLEAN_FIELDS = new Set<keyof SaleRecord>(['autoCapture', 'offline', 'chip'])

export class JournalStore {
  readonly outbox: OutboxStore
  readonly batches: BatchStore
  /** Who may work at this terminal (src-main/operators holds the rules). */
  readonly operators: OperatorStore
  /** Who was signed in at the counter, when, in which batch. */
  readonly shifts: ShiftStore
  /** Who did what to the terminal's people, keys, tokens and windows (append-only, hash-chained). */
  readonly audit: AuditStore
  /** What a nexo POS's logins, aborts and reversals left, for answers that survive a restart. */
  readonly nexo: NexoStore
  /** The browser windows launch links opened (paired windows), by the hash of their secret. */
  readonly windows: WindowStore
  private readonly statements
  private readonly keys: SaleKeys
  private readonly now: () => number
  private readonly idEpoch: string
  private readonly onReferenceIndexMiss: (() => void) | undefined

  constructor(
    private readonly db: Database.Database,
    private readonly sealer: FieldSealer,
    options: JournalStoreOptions,
  ) {
    this.now = options.now ?? Date.now
    this.idEpoch = options.idEpoch
    this.keys = new SaleKeys(db, sealer, this.now, options.onErase)
    this.outbox = new OutboxStore(db, this.keys, this.now)
    this.batches = new BatchStore(db)
    this.operators = new OperatorStore(db)
    this.shifts = new ShiftStore(db)
    this.audit = new AuditStore(db, options.auditKey ?? ephemeralAuditKey(), this.now)
    this.onReferenceIndexMiss = options.onReferenceIndexMiss
    this.nexo = new NexoStore(db, this.now)
    this.windows = new WindowStore(db)
    const list = COLUMNS.map(([, c]) => c)
    this.statements = {
      bumpCounter: db.prepare(
        'INSERT INTO counter (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value',
      ),
      insertSale: db.prepare(`INSERT INTO sale (${list.join(', ')}) VALUES (${list.map((c) => `@${c}`).join(', ')})`),
      updateSale: db.prepare(
        `UPDATE sale SET ${UPDATED_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND state = @expected_state`,
      ),
      insertEvent: db.prepare(
        'INSERT INTO sale_event (sale_id, at, type, from_state, to_state, detail, operator_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      getSale: db.prepare(`${SELECT_SALE} WHERE id = ?`),
      returnSums: db.prepare(RETURN_SUMS),
      stateOf: db.prepare('SELECT state FROM sale WHERE id = ?').pluck(),
      byReference: db.prepare(`${SELECT_SALE} WHERE reference = ?`),
      // The second way to a reference: another B-tree than the unique index's (schema.ts version 14).
      byReferenceCheck: db.prepare(`${SELECT_SALE} INDEXED BY sale_reference_check WHERE reference = ?`),
      byDay: db.prepare(`${SELECT_SALE} WHERE business_day = ? ORDER BY created_at`),
      byBatch: db.prepare(`${SELECT_SALE} WHERE batch = ? ORDER BY created_at`),
      ofOpenBatch: db.prepare(`${SELECT_SALE} WHERE batch IS NULL ORDER BY created_at`),
      openSales: db.prepare(
        // The same text as the partial index sale_open (schema.ts), so the query uses it.
        `SELECT * FROM sale WHERE ${OPEN_SALE_PREDICATE}`,
      ),
      // Only sales: a return of the same card and amount is no sign of a charge made twice.
      recentByFingerprint: db.prepare(
        `SELECT * FROM sale WHERE card_fingerprint = ? AND created_at >= ? AND amount_minor = ? AND currency = ? AND id <> ? AND state NOT IN (${sqlStateList(FINAL)}) AND kind = 'sale' LIMIT 1`,
      ),
      // Returns without a sale that credit or will credit, of one business day (and one card), per currency.
      unreferencedCredits: db.prepare(
        `SELECT currency, coalesce(sum(amount_minor), 0) AS total,
            coalesce(sum(CASE WHEN card_fingerprint = @fingerprint THEN amount_minor ELSE 0 END), 0) AS card
          FROM sale WHERE business_day = @day AND kind = 'return' AND original_id IS NULL
            AND state IN (${sqlStateList(CREDITING)}) GROUP BY currency`,
      ),
      sealCard: db.prepare('INSERT OR REPLACE INTO sealed_card (sale_id, purpose, envelope, key_id, created_at) VALUES (?, ?, ?, ?, ?)'),
      getCard: db.prepare('SELECT envelope FROM sealed_card WHERE sale_id = ? AND purpose = ?'),
      purgeCard: db.prepare('DELETE FROM sealed_card WHERE sale_id = ?'),
      events: db.prepare(
        'SELECT seq, at, type, from_state AS fromState, to_state AS toState, detail, operator_id AS operatorId FROM sale_event WHERE sale_id = ? ORDER BY seq',
      ),
    }
  }

  /**
   * `<terminalId>-<epoch>-<sequence>` (transaction-ids.ts): the epoch is new at every start, so a
   * rebuilt, restored or copied journal never issues an id that it or its predecessor issued.
   */
  createSale(terminalId: string, input: NewSale): SaleRecord {
    return runInTransaction(this.db, () => {
      const { value } = this.statements.bumpCounter.get('merchantTransID') as { value: number }
      const at = this.now()
      const record: SaleRecord = {
        ...input,
        kind: input.kind ?? 'sale',
        id: merchantTransId(terminalId, this.idEpoch, value),
        createdAt: at,
        updatedAt: at,
        offline: false,
        chip: false,
        tipMinor: 0,
        tipState: 'none',
      }
      this.statements.insertSale.run(toRow(record))
      this.statements.insertEvent.run(record.id, at, 'created', null, record.state, null, record.operatorId ?? null)
      if (record.originalId !== undefined) this.statements.returnSums.run({ id: record.originalId })
      return record
    })
  }

  /**
   * Runs several changes in one SQLite transaction: one disk sync for a batch of acknowledgements.
   * `withNext`: the commit is not synced on its own but with the next durable one (database.ts).
   * `whole`: nothing inside catches a failure and goes on, so the steps inside take no savepoints.
   */
  batch<T>(work: () => T, sync: CommitSync = 'durable', nesting: Nesting = 'savepoints'): T {
    return runInTransaction(this.db, work, sync, nesting)
  }

  /** Whether a transaction is open on the journal (nothing may be announced while one is). */
  get inTransaction(): boolean {
    return this.db.inTransaction
  }

  /** Runs `announce` once the changes written so far are committed; never if they roll back (database.ts). */
  afterCommit(announce: () => void): void {
    afterCommit(this.db, announce)
  }

  /** Applies one transition atomically: state, event, card data, queue. */
  apply(change: SaleChange): SaleRecord {
    return runInTransaction(this.db, () => {
      const at = this.now()
      const next = { ...change.next, updatedAt: at }
      const row = toRow(next)
      const result = (change.previous ? this.updateOf(row, toRow(change.previous)) : this.statements.updateSale).run({
        ...row,
        expected_state: change.expectedState,
      })
      if (result.changes !== 1) throw new StaleSaleError(`sale ${next.id} is no longer ${change.expectedState}`)
      this.statements.insertEvent.run(
        next.id,
        at,
        change.event.type,
        change.expectedState,
        next.state,
        change.event.detail === undefined ? null : JSON.stringify(change.event.detail),
        change.event.operator ?? null,
      )
      // A return's change moves its amount between its sale's sums (CREDITING, RETURN_AT_COUNTER).
      if (next.originalId !== undefined) this.statements.returnSums.run({ id: next.originalId })
      if (change.sealCard) {
        const envelope = this.keys.seal(
          next.id,
          sealedFieldAad('sealed_card', next.id, change.sealCard.purpose),
          JSON.stringify(change.sealCard.data),
        )
        this.statements.sealCard.run(next.id, change.sealCard.purpose, envelope, this.keys.dataKeyId, at)
      }
      if (change.withdrawPending) this.outbox.withdrawPending(next.id)
      if (change.retryAttention) this.outbox.retryAttention(next.id)
      // A purge below destroys the sale's keys anyway (shred ends with retire).
      if (change.settleOutbox?.result === 'done') this.outbox.complete(change.settleOutbox.seq, change.purgeCard === true)
      else if (change.settleOutbox?.result === 'attention')
        this.outbox.toAttention(change.settleOutbox.seq, change.settleOutbox.failure, change.settleOutbox.reason)
      // The purge before the new queue items: what this change enqueues (a reversal) is sealed under a
      // fresh key, not under the one the purge destroys.
      if (change.purgeCard) {
        this.statements.purgeCard.run(next.id)
        this.keys.shred(next.id)
      }
      for (const item of change.enqueue ?? []) this.outbox.enqueue(next.id, item)
      return next
    })
  }

  /** An UPDATE of the columns whose values differ, prepared once per set of columns. */
  private updateOf(row: Record<string, unknown>, previous: Record<string, unknown>): Database.Statement {
    const changed = UPDATED_COLUMNS.filter((column) => row[column] !== previous[column])
    const key = changed.join(',')
    let statement = this.partialUpdates.get(key)
    if (statement === undefined) {
      // The sets a sale's steps produce are few; past a bound, the full-row statement does the same work.
      if (this.partialUpdates.size >= MAX_PARTIAL_UPDATES || changed.length === 0) return this.statements.updateSale
      statement = this.db.prepare(
        `UPDATE sale SET ${changed.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND state = @expected_state`,
      )
      this.partialUpdates.set(key, statement)
    }
    return statement
  }

  private readonly partialUpdates = new Map<string, Database.Statement>()

  /** The sealed card data of a sale, or undefined once purged. The caller must not keep it. */
  openCard<T>(saleId: string, purpose: CardPurpose): T | undefined {
    const row = this.statements.getCard.get(saleId, purpose) as { envelope: Buffer } | undefined
    if (!row) return undefined
    const plain = this.keys.open(saleId, sealedFieldAad('sealed_card', saleId, purpose), row.envelope)
    try {
      return JSON.parse(plain.toString('utf8')) as T
    } finally {
      wipe(plain)
    }
  }

  /** A sale's state alone (a flow asking whether its step is still due), without reading the row. */
  stateOf(id: string): SaleState | undefined {
    return this.statements.stateOf.get(id) as SaleState | undefined
  }

  get(id: string): SaleRecord | undefined {
    const row = this.statements.getSale.get(id)
    return row ? fromRow(row) : undefined
  }

  /**
   * The sale a POS's `reference` names. The reference is the idempotency key: a retry that misses its
   * sale charges the card again. SQLite answers a lookup from the unique index alone, and a damaged
   * index page can make it miss (the integrity check at idle finds it, but only later). So a miss is
   * checked through a second index of the references, on other pages of the file, before it is
   * believed: only when both miss is there no such sale. The check costs one more index seek, and
   * only when the sale is new.
   */
  byReference(reference: string): SaleRecord | undefined {
    const row = this.statements.byReference.get(reference)
    if (row) return fromRow(row)
    const checked = this.statements.byReferenceCheck.get(reference)
    if (!checked) return undefined
    this.onReferenceIndexMiss?.()
    return fromRow(checked)
  }

  salesOfDay(day: string): SaleRecord[] {
    return this.statements.byDay.all(day).map(fromRow)
  }

  /** The sales a search finds (saleSearchQuery), oldest first. */
  searchSales(search: SaleSearch): SaleRecord[] {
    const { sql, params } = saleSearchQuery(search)
    let statement = this.searchStatements.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.searchStatements.set(sql, statement)
    }
    return statement.all(params).map(fromRow)
  }

  /** One prepared statement per combination of filters (at most 2^7 texts). */
  private readonly searchStatements = new Map<string, Database.Statement>()

  /** The sales of the open batch (those no close has counted yet), oldest first. */
  salesOfOpenBatch(): SaleRecord[] {
    return this.statements.ofOpenBatch.all().map(fromRow)
  }

  /** The sales of closed batch `number`, oldest first. */
  salesOfBatch(number: number): SaleRecord[] {
    return this.statements.byBatch.all(number).map(fromRow)
  }

  /** Sales not in a settled state: what recovery looks at on start. */
  openSales(): SaleRecord[] {
    return this.statements.openSales.all().map(fromRow)
  }

  /** Duplicate guard: an earlier live sale of the same card and amount since `since`. */
  recentSameCard(fingerprint: string, amountMinor: number, currency: string, since: number, exceptId: string): SaleRecord | undefined {
    const row = this.statements.recentByFingerprint.get(fingerprint, since, amountMinor, currency, exceptId)
    return row ? fromRow(row) : undefined
  }

  /**
   * What returns without a sale credited or are crediting on business day `day`, in each currency
   * they were made in: in all, and to the card of `fingerprint` (the per-day and per-card limits
   * count every one of them, return-rules.ts).
   */
  unreferencedCredits(day: string, fingerprint: string | undefined): Array<{ currency: string; totalMinor: number; cardMinor: number }> {
    const rows = this.statements.unreferencedCredits.all({ day, fingerprint: fingerprint ?? null }) as Array<{
      currency: string
      total: number
      card: number
    }>
    return rows.map((row) => ({ currency: row.currency, totalMinor: row.total, cardMinor: row.card }))
  }

  /** How many sealed rows exist (card data or queued bodies): they need the data key. */
  sealedRowCount(): number {
    return countSealedRows(this.db)
  }

  events(saleId: string): Array<{
    seq: number
    at: number
    type: string
    fromState: string | null
    toState: string
    detail: string | null
    /** Who took the step, when a person did. */
    operatorId: string | null
  }> {
    return this.statements.events.all(saleId) as never
  }

  /**
   * What an event stream that dropped at journal position `afterSeq` missed (docs/local-api.md): each
   * sale changed since, once, at its latest change, oldest first, at most `limit`; and the newest
   * position. Read-only and indexed: `seq` is the rowid (a range read from `afterSeq`), a sale's latest
   * change comes from sale_event_by_sale, and the newest position is the last rowid.
   */
  saleChangesAfter(afterSeq: number, limit: number): { changes: Array<{ seq: number; saleId: string }>; lastSeq: number } {
    this.changesAfterSql ??= {
      changes: this.db.prepare(
        `SELECT e.seq AS seq, e.sale_id AS saleId FROM sale_event e
          WHERE e.seq > ? AND e.seq = (SELECT max(l.seq) FROM sale_event l WHERE l.sale_id = e.sale_id)
          ORDER BY e.seq LIMIT ?`,
      ),
      lastSeq: this.db.prepare('SELECT coalesce(max(seq), 0) FROM sale_event').pluck(),
    }
    const changes = this.changesAfterSql.changes.all(afterSeq, limit) as Array<{ seq: number; saleId: string }>
    return { changes, lastSeq: this.changesAfterSql.lastSeq.get() as number }
  }

  private changesAfterSql: { changes: Database.Statement; lastSeq: Database.Statement } | undefined

  fingerprint(pan: string): string {
    return this.sealer.keyedHash('card-fingerprint', pan)
  }
}

/** Rows that can only be read with the data key: checked before the key is fetched or created. */
export function countSealedRows(db: Database.Database): number {
  return (
    db.prepare('SELECT (SELECT count(*) FROM sealed_card) + (SELECT count(*) FROM outbox WHERE body IS NOT NULL) AS n').get() as {
      n: number
    }
  ).n
}

function toRow(record: SaleRecord): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (const [field, column] of COLUMNS) {
    const value = record[field]
    row[column] = BOOLEAN_FIELDS.has(field) ? (value ? 1 : 0) : (value ?? null)
  }
  return row
}

function fromRow(row: unknown): SaleRecord {
  const source = row as Record<string, unknown>
  const record: Record<string, unknown> = {}
  for (const [field, column] of READ_COLUMNS) {
    const value = source[column]
    if (BOOLEAN_FIELDS.has(field)) record[field] = value === 1
    else if (value !== null) record[field] = value
  }
  // The one place a row becomes a typed record: the journal only ever writes vocabulary states.
  return record as unknown as SaleRecord
}
