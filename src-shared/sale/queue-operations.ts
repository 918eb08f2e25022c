/**
 * The messages a sale can leave in the store-and-forward queue, declared once: the journal's
 * `outbox.operation` column, the forwarder, the queue screen and the local API use this list. A
 * return's credit (`merchandiseCredit`) is queued like a stored payment and never reversed.
 */
export const QUEUE_OPERATIONS = ['payment', 'reversal', 'tips', 'cancel', 'capture', 'merchandiseCredit'] as const
export type QueueOperation = (typeof QUEUE_OPERATIONS)[number]

/** The parallel region of a sale for its tip: a tip may be entered while the payment is still stored. */
export const TIP_STATES = ['none', 'pending', 'adjusted', 'failed'] as const
export type TipState = (typeof TIP_STATES)[number]

/** How the integrator lets the agent treat an unreachable host for one sale. */
export const OFFLINE_POLICIES = ['preferOnline', 'requireOnline', 'forceOffline'] as const
export type OfflinePolicy = (typeof OFFLINE_POLICIES)[number]

/**
 * Why a queued message has not gone through, as the forwarder records it with each failed attempt
 * (the journal's `outbox.last_failure`): the bank could not be reached, did not answer in time,
 * refused the message, or declined it. The queue's `lastError` keeps the technical detail for the log.
 */
export const QUEUE_FAILURES = ['bankUnreachable', 'noAnswer', 'refused', 'declined'] as const
export type QueueFailure = (typeof QUEUE_FAILURES)[number]

/** A queue failure as a cashier or manager reads it. */
export const QUEUE_FAILURE_WORDS: Readonly<Record<QueueFailure, string>> = {
  bankUnreachable: 'The bank could not be reached.',
  noAnswer: 'The bank did not answer in time.',
  refused: 'The bank refused the message.',
  declined: 'The bank declined it.',
}

/** A queued message as it is named inside a sentence for a cashier or manager ("the bank refused the tip"). */
export const QUEUE_OPERATION_NOUNS: Readonly<Record<QueueOperation, string>> = {
  payment: 'payment',
  reversal: 'reversal',
  tips: 'tip',
  cancel: 'void',
  capture: 'settlement with tip',
  merchandiseCredit: 'return',
}
