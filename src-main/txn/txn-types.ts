/**
 * The events that move a sale and the effects a transition asks for. The states and their classes
 * are the shared vocabulary (src-shared/sale); docs/transactions.md draws the machine as a table.
 */

import type { GatewayAnswer, HostAnswer } from '../gateway'
import type { CardPurpose } from '../journal'
import type { OfflinePolicy, QueueOperation, SaleCause, SaleState, TipState } from '../../src-shared/sale'

export { SALE_STATES as TXN_STATES, FINAL as FINAL_STATES } from '../../src-shared/sale'
export type { OfflinePolicy, TipState }
/** The machine's name for a sale state (the vocabulary is src-shared/sale). */
export type TxnState = SaleState

export type QueuedOperation = QueueOperation

/** Why the card is read: a sale, a void (the card presented again), a return (the card to credit). */
export type { CardPurpose } from '../journal'

/** What the machine knows about a sale. Card data is not here: it lives sealed in the journal. */
export interface Sale {
  id: string
  state: TxnState
  amountMinor: number
  currency: string
  autoCapture: boolean
  /** Approved offline at some point (stored and forwarded). */
  offline: boolean
  /** The card dialogue is a chip one, so it needs completion. */
  chip: boolean
  tipMinor: number
  tipState: TipState
  /** Why the sale is where it is, in words a cashier or manager can read. */
  reason?: string | undefined
  /** Why the payment ended as it did, recorded where it happens (for doors that do not read words). */
  cause?: SaleCause | undefined
  /** The state a needs-attention sale returns to when a manager retries. */
  attentionFrom?: TxnState | undefined
  authCode?: string | undefined
  /** A sale (absent: a sale) or a return crediting a card. */
  kind?: 'sale' | 'return' | undefined
  /** What the sale's returns credited or are crediting (read with the sale, never written by the machine). */
  returnedMinor?: number | undefined
  /** What the sale's returns still at the counter ask to credit (read with the sale, never written by the machine). */
  returningMinor?: number | undefined
  /**
   * A return: what it may still credit, read in the very commit that decides (write-ahead.ts): of the
   * sale it returns, amount plus tip less what is credited, crediting or asked at the counter by
   * other returns; of a return without a sale, what its limits per card and per day leave.
   */
  credit?: CreditRoom | undefined
}

/** What a return may still credit, and in plain words what limits it (for a refusal). */
export interface CreditRoom {
  leftMinor: number
  /** e.g. "of this sale", "to this card today": completes "only 12.00 is left to return …". */
  limit: string
}

/**
 * Answer of the host to the payment, as the machine decides on it: the gateway's reduction
 * (gateway/outcome.ts `answerOf`), except that a payment never delivered carries the offline decision.
 */
export type PaymentAnswer = Exclude<GatewayAnswer, { kind: 'notDelivered' }> | { kind: 'notDelivered'; offline: OfflineDecision }

/** The store-and-forward decision, computed by offline-policy.ts before the event is built. */
export type OfflineDecision = { eligible: true } | { eligible: false; reason: string }

/** Answer to a queued message, as the forwarder reports it: the host answered about the message itself. */
export type ForwardAnswer = HostAnswer

export type TxnEvent =
  | { type: 'readCard' }
  /** A return journaled at the counter asks for the card (return-flow.ts). */
  | { type: 'returnRequested' }
  | { type: 'cardRead'; chip: boolean; duplicate: boolean }
  | { type: 'cardNotRead'; reason: string }
  | { type: 'duplicateConfirmed' }
  | { type: 'duplicateRefused' }
  | { type: 'paymentAnswered'; answer: PaymentAnswer }
  | {
      type: 'cardCompleted'
      decision: 'approved' | 'declined' | 'none'
      evidence?: { cid: string; cryptogram: string; atc?: string; responseCode?: string }
    }
  /**
   * An offline approval the store's server did not copy in time (docs/store.md, `store.requireReplica`):
   * the payment is not stored, so nothing is charged, and the sale needs the bank now.
   */
  | { type: 'storeCopyMissing' }
  | { type: 'forwardAnswered'; operation: QueuedOperation; answer: ForwardAnswer }
  | { type: 'forwardGaveUp'; operation: QueuedOperation; reason: string }
  | { type: 'managerRetry' }
  /** A manager takes note that a stored payment the bank declined will not be paid. */
  | { type: 'attentionAcknowledged' }
  /** A manager closes the day while this sale still needs a manager (recorded on the sale). */
  | { type: 'closeOverridden' }
  /**
   * Where the sale's stored payment stands in the queue: `neverSent` (waiting, never handed to the
   * network: safe to withdraw), `maybeSent` (waiting again after a send whose answer never came, or
   * one cut short by a restart), `inflight` (on the wire now), `none` (not in the queue).
   */
  | { type: 'voidRequested'; paymentQueue: 'neverSent' | 'maybeSent' | 'inflight' | 'none'; storeCopy?: StoreCopyOfVoid }
  | { type: 'voidCardRead' }
  | { type: 'voidCardNotRead'; reason: string }
  /** A return: the card presented is the one the sale was paid with (or any card, unreferenced). */
  | { type: 'returnCardRead' }
  /** A return: no card, or not the card the sale was paid with. */
  | { type: 'returnCardNotRead'; reason: string }
  /**
   * `maxTotalMinor`: the most amount plus tip may come to, whatever a manager approved (the terminal's
   * maximum sale and the 12 digits of EMV's amount, tip-policy.ts).
   */
  | { type: 'tipRequested'; tipMinor: number; maxTotalMinor: number }
  | { type: 'captureRequested' }
  | { type: 'recovered' }

/**
 * Where the store's copy of a stored payment stands when it is voided (docs/store.md "A void while
 * cut off"): `none` (no store), `withdrawn` (the store acknowledged the withdrawal: a rescue will not
 * send it), `mayRemain` (the store did not answer: a rescue may still send the copy, so the void must
 * reach the bank as a reversal).
 */
export type StoreCopyOfVoid = 'none' | 'withdrawn' | 'mayRemain'

export type TxnEffect =
  | { type: 'readCard'; purpose: CardPurpose }
  | { type: 'cancelCardRead' }
  | { type: 'sendPayment' }
  | { type: 'completeCard'; result: 'approved' | 'declined' | 'unableToGoOnline' }
  | { type: 'enqueue'; operation: QueuedOperation; reason?: string }
  | { type: 'withdraw'; operation: 'payment' }
  | { type: 'retryQueued' }
  | { type: 'purgeCardData' }
  /** The answered queue item stays parked for a manager, so that a retry sends it again. */
  | { type: 'keepForManager' }

/**
 * The effects that talk to the card reader or the host: run after the journal committed the
 * transition that asked for them. Every other effect is written inside that same commit.
 */
export const IO_EFFECTS = ['readCard', 'cancelCardRead', 'sendPayment', 'completeCard'] as const
export type IoEffect = Extract<TxnEffect, { type: (typeof IO_EFFECTS)[number] }>
/** Written with the transition, in one SQLite transaction (queue items, withdrawals, purges). */
export type JournalEffect = Exclude<TxnEffect, IoEffect>

export function isIoEffect(effect: TxnEffect): effect is IoEffect {
  return (IO_EFFECTS as readonly string[]).includes(effect.type)
}

/**
 * A refusal's `reason` is for the log; `plain` marks one already written for the cashier (otherwise
 * the words come from the refused event, see refusal-words.ts).
 */
export type TransitionResult = { ok: true; sale: Sale; effects: TxnEffect[] } | { ok: false; reason: string; plain?: true }
