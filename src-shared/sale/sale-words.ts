/**
 * Every sale state in words a cashier or a manager understands (meanings from docs/transactions.md
 * "States"), and the other values of a sale a person reads: one table for the screens and the
 * exports. `tone` drives colour only; the words carry the meaning on their own.
 */
import type { QueueOperation } from './queue-operations'
import { STANDING_PAYMENT, type SaleState } from './sale-states'

export type Tone = 'ok' | 'warn' | 'error' | 'info'

export interface SaleWords {
  title: string
  detail: string
  tone: Tone
}

export const SALE_WORDS: Readonly<Record<SaleState, SaleWords>> = {
  created: { title: 'Starting the sale', detail: 'Getting the card reader ready.', tone: 'info' },
  readingCard: { title: 'Waiting for the card', detail: 'The customer inserts, taps or swipes the card.', tone: 'info' },
  awaitingConfirmation: { title: 'Possible duplicate', detail: 'Same card and amount as a recent sale.', tone: 'warn' },
  sending: { title: 'Processing', detail: 'Waiting for the bank to answer.', tone: 'info' },
  completingCard: { title: 'Processing', detail: 'Finishing with the card. Leave it in the reader.', tone: 'info' },
  approved: { title: 'Approved', detail: 'The payment went through.', tone: 'ok' },
  declined: { title: 'Declined', detail: 'The payment did not go through. Nothing was charged.', tone: 'error' },
  abandoned: { title: 'Not completed', detail: 'The sale stopped before reaching the bank. Nothing was charged.', tone: 'error' },
  storedOffline: {
    title: 'Approved offline (stored)',
    detail: 'The bank could not be reached. The payment is stored on this terminal and will be sent to the bank automatically.',
    tone: 'warn',
  },
  forwarded: { title: 'Approved offline, sent to the bank', detail: 'The stored payment has reached the bank.', tone: 'ok' },
  reversalPending: {
    title: 'Not completed (being reversed)',
    detail: 'The first charge is being reversed: the customer does not pay for it. Charge again to take the payment.',
    tone: 'error',
  },
  reversed: {
    title: 'Not completed (reversed)',
    detail: 'The first charge was reversed: the customer does not pay for it. Charge again to take the payment.',
    tone: 'error',
  },
  voidReadingCard: { title: 'Voiding: present the card again', detail: 'Ask the customer to present the same card again.', tone: 'info' },
  cancelPending: { title: 'Void being sent', detail: 'The void is stored and will be sent to the bank.', tone: 'warn' },
  cancelled: { title: 'Voided', detail: 'The sale was voided. The customer does not pay for it.', tone: 'info' },
  capturePending: { title: 'Settling with tip', detail: 'The sale and its tip are being sent to the bank.', tone: 'warn' },
  captured: { title: 'Settled with tip', detail: 'The bank has the sale and its tip.', tone: 'ok' },
  needsAttention: {
    title: 'Needs a manager',
    detail: 'This sale could not be finished automatically. A manager must look at it on the Queue screen.',
    tone: 'error',
  },
  notReceived: {
    title: 'Not paid by the bank',
    detail: 'The payment was approved offline, but the bank declined it when the terminal sent it. The store did not receive the money.',
    tone: 'error',
  },
  returnReadingCard: {
    title: 'Return: present the card',
    detail: 'Ask the customer to present the card the sale was paid with.',
    tone: 'info',
  },
  creditPending: {
    title: 'Return being sent',
    detail: 'The return is stored on this terminal and will be sent to the bank automatically.',
    tone: 'warn',
  },
  credited: { title: 'Returned', detail: 'The bank credited the amount back to the card.', tone: 'ok' },
}

/** A return that ended without a credit says so in its own words, never "nothing was charged". */
const RETURN_ENDINGS: Partial<Record<SaleState, SaleWords>> = {
  declined: { title: 'Return declined', detail: 'The bank did not accept the return. Nothing was credited.', tone: 'error' },
  abandoned: { title: 'Return not completed', detail: 'The return stopped before reaching the bank. Nothing was credited.', tone: 'error' },
}

/**
 * A sale refused because the bank could not be reached (and it could not be approved offline) is not
 * a decline: the card may be perfectly good, and a cashier who reads "Declined" tells the customer so.
 * The agent marks every sale decided without the bank `offline`; a declined one never reached it.
 */
export function bankUnreachable(sale: { state: SaleState; offline: boolean }): boolean {
  return sale.state === 'declined' && sale.offline
}

export const UNREACHABLE_WORDS: SaleWords = {
  title: 'Could not reach the bank',
  detail: 'Nothing was charged, and this sale cannot be approved offline. Try again, or take another payment.',
  tone: 'error',
}

/**
 * A payment only authorised (restaurant mode: `autoCapture` false): approved, but nothing is taken
 * until close of day, with its tip.
 */
export const AUTHORISED_WORDS: SaleWords = {
  title: 'Approved',
  detail: 'Authorised: add the tip on the Tips screen. The payment is taken with its tip at close of day.',
  tone: 'ok',
}

/** The words for one sale: its state's, except a refusal for want of the bank, which says so, and an authorisation. */
export function saleWords(sale: {
  state: SaleState
  offline: boolean
  kind?: 'sale' | 'return' | undefined
  autoCapture?: boolean | undefined
}): SaleWords {
  if (sale.kind === 'return') return RETURN_ENDINGS[sale.state] ?? SALE_WORDS[sale.state]
  if (sale.state === 'approved' && sale.autoCapture === false) return AUTHORISED_WORDS
  return bankUnreachable(sale) ? UNREACHABLE_WORDS : SALE_WORDS[sale.state]
}

/** The authorisation code means something only while the payment stands or is being settled. */
export function showsAuthCode(sale: { state: SaleState; authCode?: string | undefined }): boolean {
  return sale.authCode !== undefined && (STANDING_PAYMENT.has(sale.state) || sale.state === 'capturePending' || sale.state === 'captured')
}

/** What a queued message does for its sale, in words (the queue screen). */
export const QUEUE_OPERATION_WORDS: Readonly<Record<QueueOperation, string>> = {
  payment: 'Stored payment',
  reversal: 'Reversal',
  tips: 'Tip',
  cancel: 'Void',
  capture: 'Settlement with tip',
  merchandiseCredit: 'Return',
}

export const TIP_STATE_WORDS: Readonly<Record<string, string>> = {
  none: 'No tip',
  pending: 'Tip waiting to be sent',
  adjusted: 'Tip sent',
  failed: 'Tip not accepted',
}

export const READ_METHOD_WORDS: Readonly<Record<string, string>> = {
  chip: 'Chip',
  contactlessChip: 'Contactless',
  contactlessMagstripe: 'Contactless (stripe)',
  swipe: 'Swiped',
  fallbackSwipe: 'Swiped (chip failed)',
  keyed: 'Keyed',
}

export function readMethodWords(method: string | undefined): string {
  if (!method) return 'Unknown'
  return READ_METHOD_WORDS[method] ?? method
}

export function tipStateWords(tipState: string): string {
  return TIP_STATE_WORDS[tipState] ?? tipState
}
