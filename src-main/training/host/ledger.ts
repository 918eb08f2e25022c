/**
 * The host's own view of what happened, for tests and trainers: one entry per processed operation
 * (docs/gateway.md §D1: validation failures and bad signatures record nothing, so they are absent),
 * and the current state of every payment. Card numbers appear masked only (first6, stars, last4).
 */
import type { OperationKind } from '../../gateway'
import type { FaultKind } from './faults'
import type { Amount, PaymentState, PaymentStatus } from './host-state'

export interface LedgerEntry {
  seq: number
  /** Host clock, ISO 8601 UTC. */
  time: string
  aid: string
  operation: OperationKind
  /** The request's own merchantTransID; for a reversal (which has none) the original's. */
  merchantTransID: string
  /** From the path of cancel, reversal, tips and capture. */
  originalMerchantTransID?: string
  amount?: Amount
  /** The record's status: Authorised/Captured/Failed for payment, Success/Failed otherwise. */
  status?: string
  resultCode: string
  svcTransID?: string
  maskedPan?: string
  /**
   * A payment's chip data (cardInfo.icCardData) as it arrived, so a trainer or a test can see which
   * cryptogram reached the host (an ARQC, or the TC of an offline approval). It never holds the card
   * number: the agent's deny-list keeps 5A, 57 and the other cardholder tags out.
   */
  icCardData?: string
  /** A duplicate answered with the first response (docs/gateway.md §D3). */
  replayed?: true
  /** A fault that changed how this answer reached the client (or that it never did). */
  fault?: FaultKind
  /** The payment after this operation. */
  payment?: { merchantTransID: string; status: PaymentStatus; tipAmount?: Amount }
}

export interface PaymentView {
  aid: string
  merchantTransID: string
  maskedPan: string
  paymentBrand: string
  transAmount: Amount
  tipAmount?: Amount
  status: PaymentStatus
  svcTransID: string
  authorizationCode?: string
  failureCode?: string
  pspFailureCode?: string
}

export interface LedgerSnapshot {
  entries: LedgerEntry[]
  payments: PaymentView[]
}

export type LedgerDraft = Omit<LedgerEntry, 'seq' | 'time' | 'payment'>

export class Ledger {
  private readonly entries: LedgerEntry[] = []

  /** Appends an entry and returns it, so that the server can still note a fault on it. */
  append(draft: LedgerDraft, now: Date, payment?: PaymentState): LedgerEntry {
    const entry: LedgerEntry = { seq: this.entries.length + 1, time: now.toISOString(), ...draft }
    if (payment) entry.payment = paymentAfter(payment)
    this.entries.push(entry)
    return entry
  }

  get size(): number {
    return this.entries.length
  }

  /** A deep copy: callers can neither see later changes nor change the host's records. */
  snapshot(payments: Iterable<PaymentState>): LedgerSnapshot {
    return structuredClone({ entries: this.entries, payments: [...payments].map(viewOf) })
  }
}

function paymentAfter(p: PaymentState): NonNullable<LedgerEntry['payment']> {
  const after: NonNullable<LedgerEntry['payment']> = { merchantTransID: p.merchantTransInfo.merchantTransID, status: p.status }
  if (p.tip) after.tipAmount = { ...p.tip.amount }
  return after
}

function viewOf(p: PaymentState): PaymentView {
  const view: PaymentView = {
    aid: p.aid,
    merchantTransID: p.merchantTransInfo.merchantTransID,
    maskedPan: p.card.maskedPan,
    paymentBrand: p.card.paymentBrand,
    transAmount: p.transAmount,
    status: p.status,
    svcTransID: p.svcTransInfo.svcTransID,
  }
  if (p.tip) view.tipAmount = p.tip.amount
  if (p.pspTransInfo.authorizationCode !== undefined) view.authorizationCode = p.pspTransInfo.authorizationCode
  if (p.failure) {
    view.failureCode = p.failure.failureCode
    if (p.failure.pspFailureCode !== undefined) view.pspFailureCode = p.failure.pspFailureCode
  }
  return view
}
