/**
 * The vocabulary of a sale's life: its states, the events that move it, and the effects a
 * transition asks for. docs/transactions.md draws the same thing as a table.
 */

export const TXN_STATES = [
  'created', // journaled, nothing asked of the device yet
  'readingCard', // the reader waits for / reads the card
  'awaitingConfirmation', // duplicate guard: the cashier must confirm before anything is sent
  'sending', // the payment request is journaled and on its way to the host
  'completingCard', // the host answered (or could not be reached); the chip gets the answer
  'approved', // approved online
  'declined', // declined online, or declined offline (not eligible for store-and-forward)
  'abandoned', // ended before anything reached the host (cashier cancel, no card, device error)
  'storedOffline', // approved locally, waiting in the store-and-forward queue
  'forwarded', // a stored payment the host has acknowledged
  'reversalPending', // a reversal is queued (timeout, card declined after approval, ...)
  'reversed', // the host acknowledged the reversal
  'voidReadingCard', // the customer presents the card again to cancel an approved payment
  'cancelPending', // the cancel is queued for the host
  'cancelled', // cancelled at the host, or withdrawn from the queue before it was ever sent
  'capturePending', // restaurant close: capture of base + tip queued
  'captured', // capture acknowledged
  'needsAttention', // a queued message went past its limits or the host said something we cannot act on
] as const
export type TxnState = (typeof TXN_STATES)[number]

/** States in which no further host message is expected for the payment itself. */
export const FINAL_STATES: ReadonlySet<TxnState> = new Set(['declined', 'abandoned', 'reversed', 'cancelled'])

export type OfflinePolicy = 'preferOnline' | 'requireOnline' | 'forceOffline'

export type QueuedOperation = 'payment' | 'reversal' | 'tips' | 'cancel' | 'capture'

/** The parallel region for tips: a tip can be entered while the payment itself is still stored. */
export type TipState = 'none' | 'pending' | 'adjusted' | 'failed'

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
  /** The state a needs-attention sale returns to when a manager retries. */
  attentionFrom?: TxnState | undefined
  authCode?: string | undefined
}

/** Answer of the host to the payment, reduced to what the machine decides on. */
export type PaymentAnswer =
  | { kind: 'approved'; authCode?: string | undefined }
  | { kind: 'declined'; reason: string }
  | { kind: 'rejected'; code: string; message: string }
  | { kind: 'notDelivered'; offline: OfflineDecision }
  | { kind: 'unknown'; reason: string }

/** The store-and-forward decision, computed by offline-policy.ts before the event is built. */
export type OfflineDecision = { eligible: true } | { eligible: false; reason: string }

/** Answer to a queued message, as the forwarder reports it. */
export type ForwardAnswer =
  | { kind: 'approved'; authCode?: string | undefined }
  | { kind: 'declined'; reason: string }
  | { kind: 'rejected'; code: string; message: string }

export type TxnEvent =
  | { type: 'readCard' }
  | { type: 'cardRead'; chip: boolean; duplicate: boolean }
  | { type: 'cardNotRead'; reason: string }
  | { type: 'duplicateConfirmed' }
  | { type: 'duplicateRefused' }
  | { type: 'paymentAnswered'; answer: PaymentAnswer }
  | { type: 'cardCompleted'; decision: 'approved' | 'declined' | 'none' }
  | { type: 'forwardAnswered'; operation: QueuedOperation; answer: ForwardAnswer }
  | { type: 'forwardGaveUp'; operation: QueuedOperation; reason: string }
  | { type: 'managerRetry' }
  | { type: 'voidRequested'; paymentQueue: 'pending' | 'inflight' | 'none' }
  | { type: 'voidCardRead' }
  | { type: 'voidCardNotRead'; reason: string }
  | { type: 'tipRequested'; tipMinor: number }
  | { type: 'captureRequested' }
  | { type: 'recovered' }

export type TxnEffect =
  | { type: 'readCard'; purpose: 'purchase' | 'void' }
  | { type: 'cancelCardRead' }
  | { type: 'sendPayment' }
  | { type: 'completeCard'; result: 'approved' | 'declined' | 'unableToGoOnline' }
  | { type: 'enqueue'; operation: QueuedOperation; reason?: string }
  | { type: 'withdraw'; operation: 'payment' }
  | { type: 'retryQueued' }
  | { type: 'purgeCardData' }

export type TransitionResult = { ok: true; sale: Sale; effects: TxnEffect[] } | { ok: false; reason: string }
