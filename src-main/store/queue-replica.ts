/**
 * The port the transaction engine talks to: every item the terminal must later send leaves its disk
 * twice. The engine asks for a confirmed copy before it approves a payment offline (with
 * `requireReplica`); everything else is copied in the background from the journal, which stays the
 * truth (replica-sync.ts), and erased once the bank answered.
 */
import type { QueueOperation } from '../../src-shared/sale'

/** What a copy holds: enough for the rescue to send the item as the terminal would have. */
export interface QueueCopy {
  v: 1
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
}

/**
 * A withdrawal: published on the subject of the item it withdraws (the stream keeps one message per
 * subject, so it replaces the copy). The rescue sends nothing for it.
 */
export interface QueueTombstone {
  v: 2
  kind: 'withdrawn'
  storeId: string
  terminalId: string
  saleId: string
  operation: QueueOperation
  messageId: string
  withdrawnAt: number
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
   * Publishes these withdrawals and waits for the stream's acknowledgement, at most the configured
   * time. True when every one is at the store: no rescue will send those items, so they may be
   * withdrawn locally. False when the store did not answer in time, or this terminal is fenced.
   */
  withdraw(tombstones: QueueTombstone[]): Promise<boolean>
}
