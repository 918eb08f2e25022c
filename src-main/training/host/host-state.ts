/**
 * What the training host remembers, in memory only: payments and their current state, every
 * merchantTransID it has answered (for the duplicate rule, docs/gateway.md §D3), the first answer
 * to each reversal (reversal is idempotent, §3), and the ledger.
 *
 * No full card number or track is kept anywhere: payments hold first6/last4, and duplicate
 * detection keeps a SHA-256 of the canonical request body, not the body.
 */
import { createHash } from 'node:crypto'
import type { OperationKind } from '../../gateway'
import type { CardSummary } from './card-rules'
import { Ledger, type LedgerDraft } from './ledger'
import { TransactionIds, type PspTransInfo, type SvcTransInfo } from './transaction-ids'

export type PaymentStatus = 'Authorised' | 'Captured' | 'Failed' | 'Cancelled' | 'Reversed'

export interface Amount {
  currency: string
  value: string
}

export interface MerchantTransInfo {
  merchantTransID: string
  merchantTransTime?: string
  merchantOrderReference?: string
}

export interface Failure {
  failureCode: string
  failureReason: string
  pspFailureCode?: string
  pspFailureReason?: string
}

export interface PaymentState {
  aid: string
  merchantTransInfo: MerchantTransInfo
  transAmount: Amount
  amountMinor: number
  card: CardSummary
  svcTransInfo: SvcTransInfo
  pspTransInfo: PspTransInfo
  status: PaymentStatus
  failure?: Failure
  /** The current tip: a later tip replaces an earlier one (docs/gateway.md §D3 "Tips"). */
  tip?: { amount: Amount; minor: number }
}

/** A merchantTransID the host has answered: enough to replay the answer or refuse a conflict. */
export interface AnsweredTransaction {
  operation: OperationKind
  originalId?: string
  bodyHash: string
  responseBody: string
  /** The ledger entry of the first answer, repeated (marked replayed) for each duplicate. */
  entry: LedgerDraft
  /** The payment this transaction belongs to (itself for a payment). */
  paymentId?: string
}

export class HostState {
  readonly payments = new Map<string, PaymentState>()
  readonly answered = new Map<string, AnsweredTransaction>()
  /** First reversal record per original merchantTransID, also for originals never seen. */
  readonly reversals = new Map<string, { record: Record<string, unknown>; svcTransID: string }>()
  readonly ledger = new Ledger()
  readonly ids = new TransactionIds()

  /** Payment named by a path id: a payment's own id, or (for tips) the id of its successful capture. */
  findPayment(aid: string, id: string): PaymentState | undefined {
    const direct = this.payments.get(stateKey(aid, id))
    if (direct) return direct
    const answered = this.answered.get(stateKey(aid, id))
    const viaCapture = answered?.operation === 'capture' && answered.entry.status === 'Success' ? answered.paymentId : undefined
    return viaCapture === undefined ? undefined : this.payments.get(stateKey(aid, viaCapture))
  }
}

/** merchantTransIDs are unique per aid (the acquirer identifier in the path). */
export function stateKey(aid: string, merchantTransID: string): string {
  return `${aid}\u0000${merchantTransID}`
}

/**
 * SHA-256 of the body in canonical form: object keys sorted, null members dropped (docs/gateway.md §4 "Parameter rules":
 * key order is never significant and null equals absent); array order and every value still count.
 */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex')
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
    return `{${members.join(',')}}`
  }
  return JSON.stringify(value)
}
