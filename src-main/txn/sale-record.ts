/**
 * The three shapes of one sale, joined in one place without casts: the journal's `SaleRecord` (every
 * column), the machine's `Sale` (what a transition decides on) and the `SaleView` the UI and the
 * local API see (sale-view.ts). States are the shared vocabulary in all three.
 */
import { receiptFacts, type CardData } from '../device'
import type { SaleRecord } from '../journal'
import type { Sale, TxnEvent } from './txn-types'

/** What the machine needs of a journaled sale. */
export function toSale(record: SaleRecord): Sale {
  const {
    id,
    state,
    amountMinor,
    currency,
    autoCapture,
    offline,
    chip,
    tipMinor,
    tipState,
    reason,
    cause,
    attentionFrom,
    authCode,
    returnedMinor,
    returningMinor,
    kind,
  } = record
  return {
    id,
    state,
    amountMinor,
    currency,
    autoCapture,
    offline,
    chip,
    tipMinor,
    tipState,
    reason,
    cause,
    attentionFrom,
    authCode,
    returnedMinor,
    returningMinor,
    kind,
  }
}

/** The machine's decision, as columns of the record (undefined clears a column). */
export function fromSale(sale: Sale): Partial<SaleRecord> {
  const { state, offline, chip, tipMinor, tipState, reason, cause, attentionFrom, authCode } = sale
  return { state, offline, chip, tipMinor, tipState, reason, cause, attentionFrom, authCode }
}

/** What the journal keeps of a card in clear: masked, never the number or the tracks; what its receipt prints. */
export function cardSummaryFields(card: CardData, fingerprint: string): Partial<SaleRecord> {
  return {
    maskedPan: card.summary.maskedPan,
    brand: card.summary.brand,
    readMethod: card.method,
    applicationId: card.summary.applicationId,
    applicationLabel: card.summary.applicationLabel,
    cardSequence: card.cardSequenceNum,
    cardFingerprint: fingerprint,
    ...receiptFields(card),
  }
}

/** The receipt's chip facts as they stand: after the card completed, its final TVR and TSI. */
export function receiptFields(card: CardData): Partial<SaleRecord> {
  const { tvr, tsi, cvm } = receiptFacts({ method: card.method, icCardData: card.icCardData, onlinePin: card.summary.onlinePin })
  return { cvm, ...(tvr !== undefined ? { tvr } : {}), ...(tsi !== undefined ? { tsi } : {}) }
}

/**
 * The part of an event worth keeping in the sale's history (never card data). The card's final
 * cryptogram is kept as evidence of its decision: a cryptogram is not sensitive authentication data.
 */
export function eventDetail(event: TxnEvent): unknown {
  switch (event.type) {
    case 'paymentAnswered':
      return event.answer
    case 'forwardAnswered':
      return { operation: event.operation, answer: event.answer }
    case 'forwardGaveUp':
      return { operation: event.operation, reason: event.reason }
    case 'cardNotRead':
    case 'voidCardNotRead':
    case 'returnCardNotRead':
      return { reason: event.reason }
    case 'tipRequested':
      return { tipMinor: event.tipMinor }
    case 'cardRead':
      return { chip: event.chip, duplicate: event.duplicate }
    case 'cardCompleted':
      return { decision: event.decision, ...(event.evidence ? { evidence: event.evidence } : {}) }
    default:
      return undefined
  }
}
