/**
 * What a cashier reads when the sale cannot do what was asked: one sentence per request, in plain
 * words (the machine's own reason, which names states and events, goes to the log). Typed over every
 * event, so a new event without words does not compile.
 */
import type { TxnEvent } from './txn-types'

export const REFUSAL_WORDS: { readonly [K in TxnEvent['type']]: string } = {
  readCard: 'This sale is no longer waiting for a card.',
  returnRequested: 'This return is no longer waiting for a card.',
  cardRead: 'This sale is no longer waiting for a card.',
  cardNotRead: 'This sale is no longer waiting for a card.',
  duplicateConfirmed: 'This sale is not waiting for a confirmation.',
  duplicateRefused: 'This sale is not waiting for a confirmation.',
  paymentAnswered: 'This sale is not waiting for the bank.',
  cardCompleted: 'This sale is not waiting for the card.',
  storeCopyMissing: 'This sale is not waiting for the store server.',
  forwardAnswered: 'This sale is not waiting for the bank.',
  forwardGaveUp: 'This sale has nothing waiting to be sent.',
  managerRetry: 'Nothing on this sale is waiting for a manager.',
  attentionAcknowledged: 'Nothing on this sale is waiting for a manager.',
  closeOverridden: 'Nothing on this sale is waiting for a manager.',
  voidRequested: 'This sale cannot be voided: only an approved payment can be.',
  voidCardNotRead: 'This sale is not waiting for the card to void it.',
  voidCardRead: 'This sale is not waiting for the card to void it.',
  returnCardRead: 'This return is not waiting for the card.',
  returnCardNotRead: 'This return is not waiting for the card.',
  tipRequested: 'A tip can only be added to an approved payment.',
  captureRequested: 'Only an approved payment that was not yet captured can be captured.',
  recovered: 'This sale has nothing to recover.',
}
