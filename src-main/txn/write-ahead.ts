/**
 * The write-ahead half of every step of a sale: ask the machine what an event means, then journal
 * the answer (state, event, sealed card data, queue items, purge) in one SQLite transaction. Only
 * what this returns, the reader and host effects, may run afterwards: the journal always knows
 * what the agent is about to do before it does it.
 */
import type { Logger } from 'pino'
import type { CardData } from '../device'
import type { JournalStore, NewOutboxItem, SaleChange, SaleRecord } from '../journal'
import type { SaleState } from '../../src-shared/sale'
import type { QueueReplica } from '../store'
import { queueCopyOf, queueTombstoneOf, type QueueCopy } from '../store/records'
import { PosError } from '../../src-shared/pos-error'
import type { CardVault } from './card-vault'
import type { QueueItems } from './queue-items'
import { REFUSAL_WORDS } from './refusal-words'
import { creditRoom, creditsOfTheDay } from './return-rules'
import type { SaleLimits } from './sale-request'
import { cardSummaryFields, eventDetail, fromSale, receiptFields, toSale } from './sale-record'
import { transition } from './txn-machine'
import {
  isIoEffect,
  type CardPurpose,
  type IoEffect,
  type JournalEffect,
  type Sale,
  type StoreCopyOfVoid,
  type TxnEvent,
} from './txn-types'
import type { Clock } from '../../src-shared/clock'

/** What a step brings besides its event: the card just read, fields of the host's answer, the queue item answered. */
export interface StepInput {
  /** The operator who took this step, when a person did (recorded on the sale's event). */
  by?: string | undefined
  card?: CardData
  answerPatch?: Partial<SaleRecord>
  settleOutbox?: SaleChange['settleOutbox']
  /**
   * The flow expects this step only to ask the reader or the card something (no bank, no queue, no
   * result for the cashier): its commit may be synced with the next one. Checked in the commit itself
   * (syncsWithNext); a step that turns out otherwise is written again, durably.
   */
  syncWithNext?: boolean
}

/** The parts of a journal change that effects add to, before it is written. */
export interface ChangeDraft {
  next: SaleRecord
  card: CardData | undefined
  enqueue: NewOutboxItem[]
  withdrawPending: boolean
  retryAttention: boolean
  purgeCard: boolean
  /** The answered queue item is parked for a manager instead of settled as done. */
  keepForManager: boolean
}

export interface WriteAheadDeps {
  journal: JournalStore
  vault: CardVault
  queueItems: QueueItems
  logger: Logger
  /** The limits a return's credit is checked against in the commit that queues it. */
  limits: SaleLimits
  /** The terminal's currency: the one `limits` are in. */
  currency: string
  /** Called with every journaled change (UI and API events, the counter, waiters). */
  published: (record: SaleRecord) => void
  /** Wakes the store-and-forward queue after something was enqueued. */
  onEnqueued?: (() => void) | undefined
  /** The store's copy of the queue (docs/store.md); absent when no store is configured. */
  replica?: QueueReplica | undefined
  /** What a queued item's store copy and its withdrawal are dated by: the engine's clock. */
  clock: Clock
}

/** One handler per effect written inside the commit: a new effect without one does not compile. */
export type JournalEffectHandlers = {
  readonly [K in JournalEffect['type']]: (draft: ChangeDraft, effect: Extract<JournalEffect, { type: K }>) => void
}

/** A journaled step: the effects left to carry out outside, and the state the sale is now in. */
export type Committed = { ok: true; io: IoEffect[]; state: SaleState } | { ok: false; refusal: PosError }

/** A transition decided and drafted, not yet written. */
type Prepared = { ok: true; id: string; event: TxnEvent; input: StepInput; before: SaleRecord; draft: ChangeDraft; io: IoEffect[] }

export class WriteAhead {
  /** Effects written inside the transition's own commit, one handler each: a missing one does not compile. */
  private readonly inCommit: JournalEffectHandlers = {
    enqueue: (draft, effect) =>
      draft.enqueue.push(this.deps.queueItems.build(draft.next, effect.operation, effect.reason ?? 'reversal', draft.card)),
    withdraw: (draft) => (draft.withdrawPending = true),
    retryQueued: (draft) => (draft.retryAttention = true),
    purgeCardData: (draft) => (draft.purgeCard = true),
    keepForManager: (draft) => (draft.keepForManager = true),
  }

  constructor(private readonly deps: WriteAheadDeps) {}

  /** Journals what `event` means for sale `id`; a refusal changes nothing and says why in plain words. */
  commit(id: string, event: TxnEvent, input: StepInput = {}): Committed {
    const { journal } = this.deps
    // What the machine decides on is read in the same SQLite transaction that writes its decision.
    // A step is all or nothing: nothing in it catches a failure and goes on ('whole', database.ts).
    if (input.syncWithNext !== true || journal.inTransaction)
      return journal.batch(
        () => {
          const prepared = this.prepare(id, event, input)
          return prepared.ok ? this.write(prepared) : prepared
        },
        'durable',
        'whole',
      )
    try {
      return journal.batch(
        () => {
          const prepared = this.prepare(id, event, input)
          if (!prepared.ok) return prepared
          // SQLite fixes how a commit syncs before it begins: a decision that needs the disk (a refusal,
          // a result, a queue item, the bank) is rolled back here and written again, durably.
          if (!syncsWithNext(prepared)) throw NEEDS_DURABLE_COMMIT
          return this.write(prepared)
        },
        'withNext',
        'whole',
      )
    } catch (error) {
      if (error !== NEEDS_DURABLE_COMMIT) throw error
      return this.commit(id, event, { ...input, syncWithNext: false })
    }
  }

  /** A store whose copy an offline approval waits for (`store.requireReplica`). */
  get copiesFirst(): boolean {
    return this.deps.replica?.required === true
  }

  /**
   * As `commit`, but a stored payment is journaled only once the store's stream acknowledged its
   * copy (docs/store.md). `copyMissing` when the store did not answer in time: nothing was written,
   * and the caller decides the sale another way (it needs the bank now).
   */
  async commitAfterCopy(id: string, event: TxnEvent, input: StepInput = {}): Promise<Committed | { ok: false; copyMissing: true }> {
    const prepared = this.prepare(id, event, input)
    if (!prepared.ok) return prepared
    const replica = this.deps.replica
    const stored = prepared.draft.enqueue.filter((item) => item.operation === 'payment')
    // A step that stores no payment is committed as any other: decided and written in one
    // transaction, synced with the next when it only asks the reader (syncsWithNext).
    if (!replica?.required || stored.length === 0) return this.commit(id, event, input)
    const copies = stored.map((item) => this.copyOf(id, item))
    if (!(await replica.confirm(copies))) return { ok: false, copyMissing: true }
    try {
      // Decided again in the commit that writes it (what the machine reads may have changed while the
      // store acknowledged): the copy's message id is the item's own, so a changed item replaces it.
      const written = this.commit(id, event, input)
      if (written.ok) replica.journaled(copies)
      else replica.discard(copies)
      return written
    } catch (error) {
      replica.discard(copies)
      throw error
    }
  }

  /**
   * Before a stored payment that never left the terminal is withdrawn by a void, the store's copies
   * of the sale's waiting items are withdrawn too (docs/store.md "A void while cut off"): otherwise a
   * rescue could still send what the cashier told the customer was voided. `step` journals the void
   * knowing where the copies stand: none (no store), withdrawn (the store acknowledged), or maybe
   * still there (the store did not answer in time, or this terminal is fenced: the machine then voids
   * through the bank). Whatever the step decides, the store is then brought to the journal again.
   */
  async voidAtStore(saleId: string, step: (storeCopy: StoreCopyOfVoid) => Promise<void>): Promise<void> {
    const replica = this.deps.replica
    const withdrawnAt = this.deps.clock.now()
    const tombstones = this.deps.journal.outbox
      .ofSale(saleId)
      .filter((item) => item.state === 'pending')
      .map((item) => queueTombstoneOf(this.deps.queueItems.merchant, saleId, item, withdrawnAt))
    if (replica === undefined || tombstones.length === 0) return step('none')
    try {
      await step((await replica.withdraw(tombstones)) ? 'withdrawn' : 'mayRemain')
    } finally {
      replica.withdrawalSettled(tombstones)
    }
  }

  /** Sealed before the journal gives the item its sequence (queue-replica.ts: `seq` 0). */
  private copyOf(saleId: string, item: NewOutboxItem): QueueCopy {
    return queueCopyOf(this.deps.queueItems.merchant, saleId, item, this.deps.clock.now())
  }

  private prepare(id: string, event: TxnEvent, input: StepInput): Prepared | { ok: false; refusal: PosError } {
    const { vault } = this.deps
    const before = this.sale(id)
    const result = transition(this.machineSale(before, event, input.card), event)
    if (!result.ok) {
      this.deps.logger.warn({ sale: id, event: event.type, state: before.state }, result.reason)
      return { ok: false, refusal: new PosError('INVALID_STEP', result.plain ? result.reason : REFUSAL_WORDS[event.type]) }
    }
    const next: SaleRecord = { ...before, ...input.answerPatch, ...fromSale(result.sale) }
    const card = input.card
    // A return keeps what its receipt prints of the card, the same as a sale.
    if (card && (event.type === 'cardRead' || event.type === 'returnCardRead'))
      Object.assign(next, cardSummaryFields(card, vault.fingerprint(card)))
    if (card && event.type === 'cardCompleted') Object.assign(next, receiptFields(card))
    const draft: ChangeDraft = {
      next,
      card,
      enqueue: [],
      withdrawPending: false,
      retryAttention: false,
      purgeCard: false,
      keepForManager: false,
    }
    const io: IoEffect[] = []
    for (const effect of result.effects) {
      if (isIoEffect(effect)) io.push(effect)
      else this.apply(draft, effect)
    }
    return { ok: true, id, event, input, before, draft, io }
  }

  private write({ id, event, input, before, draft, io }: Prepared): Committed {
    const { journal, vault } = this.deps
    const { next, card } = draft
    // A card whose use ends in this very commit (a return that no longer fits) is never sealed.
    const sealCard = card && !draft.purgeCard ? vault.sealing(card, sealedAs(event)) : undefined
    const saved = journal.apply({
      event: { type: event.type, detail: eventDetail(event), operator: input.by },
      next,
      expectedState: before.state,
      previous: before,
      enqueue: draft.enqueue,
      withdrawPending: draft.withdrawPending,
      retryAttention: draft.retryAttention,
      purgeCard: draft.purgeCard,
      ...(sealCard ? { sealCard } : {}),
      ...(input.settleOutbox !== undefined ? { settleOutbox: this.settlement(input.settleOutbox, draft) } : {}),
    })
    // Told once committed: inside a caller's batch (the forwarder's), that is when the batch commits.
    journal.afterCommit(() => {
      if (draft.purgeCard) vault.purged(id)
      this.deps.published(saved)
      if (draft.enqueue.length > 0 || draft.retryAttention) this.deps.onEnqueued?.()
    })
    return { ok: true, io, state: saved.state }
  }

  /**
   * The sale as the machine sees it. The card of a return brings what may still be credited, read
   * now: of its sale (every other return, the tip as it stands), or of its limits for this card and day.
   */
  private machineSale(record: SaleRecord, event: TxnEvent, card: CardData | undefined): Sale {
    const sale = toSale(record)
    if (event.type !== 'returnCardRead' || record.kind !== 'return') return sale
    const { journal, vault, limits, currency } = this.deps
    const original = record.originalId === undefined ? undefined : journal.get(record.originalId)
    const fingerprint = card ? vault.fingerprint(card) : undefined
    const today = creditsOfTheDay(journal.unreferencedCredits(record.businessDay, fingerprint), currency)
    return { ...sale, credit: creditRoom(record, original, limits, today) }
  }

  /** The journaled sale, or a plain "no such sale". */
  sale(id: string): SaleRecord {
    const sale = this.deps.journal.get(id)
    if (!sale) throw new PosError('NO_SUCH_SALE', `There is no sale ${id} on this terminal.`)
    return sale
  }

  /** A queue item the machine keeps for a manager is parked (a retry sends it again), not settled as done. */
  private settlement(settle: NonNullable<SaleChange['settleOutbox']>, draft: ChangeDraft): NonNullable<SaleChange['settleOutbox']> {
    if (!draft.keepForManager || settle.result === 'attention') return settle
    return { seq: settle.seq, result: 'attention', failure: settle.failure ?? 'refused', reason: draft.next.reason ?? 'needs a manager' }
  }

  private apply<E extends JournalEffect>(draft: ChangeDraft, effect: E): void {
    ;(this.inCommit[effect.type] as (draft: ChangeDraft, effect: E) => void)(draft, effect)
  }
}

/** Thrown inside a relaxed commit to roll it back; never leaves WriteAhead.commit. */
const NEEDS_DURABLE_COMMIT = new Error('this step needs a durable commit')

/**
 * A commit that may wait for the next one's sync (CommitSync 'withNext', database.ts): it only asks
 * the reader or the chip, and writes nothing the agent would act on after a power cut: no queue item,
 * no purge, no card data, no settled queue answer. Lost in a power cut, the sale reads as its step
 * before, and recovery ends it the safe way from there (txn-machine.ts onRecovered):
 * - the sale created and the reader asked (readingCard): lost, the sale never existed; no card was
 *   journaled, nothing reached the bank, the merchantTransID is never issued again (transaction-ids.ts).
 * - the bank's approval and the chip asked for its last word (completingCard): the sale reads
 *   `sending`, which recovery reverses, as it reverses a lost completingCard; the card sealed by the
 *   durable cardRead commit builds the reversal, and a reversal of a payment the bank never recorded
 *   is safe (docs/gateway.md §D3). The chip's answer is journaled by a durable commit before the
 *   cashier sees the result.
 * Every other step (the bank called, a result, a queue item) waits for its sync as before.
 */
function syncsWithNext({ draft, io, input }: Prepared): boolean {
  const asksOnlyTheCounter = io.length > 0 && io.every((effect) => effect.type === 'readCard' || effect.type === 'completeCard')
  return (
    asksOnlyTheCounter &&
    input.card === undefined &&
    input.settleOutbox === undefined &&
    draft.enqueue.length === 0 &&
    !draft.withdrawPending &&
    !draft.retryAttention &&
    !draft.purgeCard &&
    !draft.keepForManager
  )
}

/** The card of each reading event is sealed under its own purpose (a void's and a return's are not a purchase's). */
function sealedAs(event: TxnEvent): CardPurpose {
  if (event.type === 'voidCardRead') return 'void'
  if (event.type === 'returnCardRead') return 'return'
  return 'purchase'
}
