/**
 * The port the transaction engine talks to: every item the terminal must later send leaves its disk
 * twice. The engine asks for a confirmed copy before it approves a payment offline (with
 * `requireReplica`); everything else is copied in the background from the journal, which stays the
 * truth (replica-sync.ts), and erased once the bank answered.
 *
 * The records the store holds are declared here, and built here only (`queueCopyOf`,
 * `queueTombstoneOf`): what the terminal seals and what the rescue reads are one shape.
 */
import type { QueueOperation } from '../../src-shared/sale'

/** What a copy holds: enough for the rescue to send the item as the terminal would have. */
export interface QueueCopy {
  v: 2
  kind: 'copy'
  storeId: string
  terminalId: string
  saleId: string
  operation: QueueOperation
  /** The merchantTransID the message carries (the host de-duplicates by it). */
  messageId: string
  body: unknown
  amountMinor: number
  currency: string | null
  /** When the terminal queued it (ms since the epoch): the rescue keeps a sale's items in this order. */
  queuedAt: number
  /**
   * The journal's outbox sequence; 0 for a copy sealed before the journal gave it one (an offline
   * approval's copy is confirmed by the store before the sale is written).
   */
  seq: number
  /** For a return's credit: what its sale was approved for (minor units), so the rescue never credits more. */
  saleAmountMinor?: number
}

/**
 * A withdrawal: the terminal voided an item whose copy is at the store (a stored payment that never
 * left it). Published on the item's own subject, it replaces the copy there (one message per
 * subject); the rescue sends nothing for it.
 */
export interface QueueTombstone {
  v: 2
  kind: 'withdrawn'
  storeId: string
  terminalId: string
  saleId: string
  operation: QueueOperation
  messageId: string
  /** When the terminal withdrew it (ms since the epoch). */
  withdrawnAt: number
}

/** What a sealed envelope at the store holds. */
export type CopyRecord = QueueCopy | QueueTombstone

/** The queued item as the journal has it. */
export interface CopiedItem {
  operation: QueueOperation
  messageId: string
  body: unknown
  amountMinor?: number | null | undefined
  currency?: string | null | undefined
  seq?: number | undefined
}

/** The one place a copy is built: by the offline approval (before the journal) and by the copy pass (from it). */
export function queueCopyOf(
  merchant: { storeId: string; terminalId: string },
  saleId: string,
  item: CopiedItem,
  queuedAt: number,
  extra: { saleAmountMinor?: number | undefined } = {},
): QueueCopy {
  return {
    v: 2,
    kind: 'copy',
    storeId: merchant.storeId,
    terminalId: merchant.terminalId,
    saleId,
    operation: item.operation,
    messageId: item.messageId,
    body: item.body,
    amountMinor: item.amountMinor ?? 0,
    currency: item.currency ?? null,
    queuedAt,
    seq: item.seq ?? 0,
    ...(extra.saleAmountMinor !== undefined ? { saleAmountMinor: extra.saleAmountMinor } : {}),
  }
}

/** The withdrawal of one item, for the store's copy of it. */
export function queueTombstoneOf(
  merchant: { storeId: string; terminalId: string },
  saleId: string,
  item: CopyKey,
  withdrawnAt: number,
): QueueTombstone {
  return {
    v: 2,
    kind: 'withdrawn',
    storeId: merchant.storeId,
    terminalId: merchant.terminalId,
    saleId,
    operation: item.operation,
    messageId: item.messageId,
    withdrawnAt,
  }
}

export interface CopyKey {
  operation: QueueOperation
  messageId: string
}

export interface QueueReplica {
  /** Offline approvals wait for the stream's acknowledgement (`store.requireReplica`). */
  readonly required: boolean
  /**
   * Publishes the copies and waits for the stream's acknowledgement, at most the configured time.
   * False when the store did not answer in time, or this terminal's queue was rescued.
   */
  confirm(copies: QueueCopy[]): Promise<boolean>
  /** Confirmed copies whose items are now journaled (owed): from here on the journal keeps them. */
  journaled(keys: CopyKey[]): void
  /** Copies confirmed for an item the journal then refused: erased again. */
  discard(keys: CopyKey[]): void
  /** The journal's queue changed: copy what is new, erase what the bank answered (soon, in the background). */
  queueChanged(): void
  /**
   * Publishes tombstones for these items and waits for the stream's acknowledgement (ackTimeoutMs).
   * True when every tombstone is at the store: the items may be withdrawn locally.
   */
  withdraw(tombstones: QueueTombstone[]): Promise<boolean>
  /** The void that asked for these withdrawals was journaled or refused: the store is brought to the journal again. */
  withdrawalSettled(keys: CopyKey[]): void
}
