/**
 * Response records (docs/gateway.md §D2): every record carries merchantTransInfo, svcTransInfo,
 * pspTransInfo and status, plus the failure fields when it failed. `result.code = S0000` means the
 * host processed the request; the record's status says what happened.
 *
 * Host failure codes: B0031, B0040 and B0041 are docs/gateway.md §D3's; the training host adds
 * B0042 (payment arrived after its reversal), B0044 (amount, currency or card does not match the
 * original) and B0050 (declined by the issuer; the ISO 8583 code is in pspFailureCode).
 * pspTransInfo.authorizationCode is present exactly when the record succeeded (Authorised, Captured,
 * Success); a payment keeps its code after it is cancelled or reversed.
 */
import type { Failure, MerchantTransInfo, PaymentState } from './host-state'
import type { LedgerDraft } from './ledger'
import type { PspTransInfo, SvcTransInfo } from './transaction-ids'

export const HOST_FAILURES = {
  duplicate: { code: 'B0031', reason: 'duplicate merchantTransID' },
  notFound: { code: 'B0040', reason: 'original transaction not found' },
  notAllowed: { code: 'B0041', reason: 'operation not allowed in the state of the original payment' },
  reversedFirst: { code: 'B0042', reason: 'transaction was reversed before it arrived' },
  mismatch: { code: 'B0044', reason: 'does not match the original payment' },
  issuerDecline: { code: 'B0050', reason: 'declined by the issuer' },
} as const

export type Body = Record<string, unknown>

export const SUCCESS = { code: 'S0000', message: 'Success' } as const

export function hostFailure(which: Exclude<keyof typeof HOST_FAILURES, 'issuerDecline'>, detail?: string): Failure {
  const { code, reason } = HOST_FAILURES[which]
  return { failureCode: code, failureReason: detail === undefined ? reason : `${reason}: ${detail}` }
}

export interface RecordParts {
  merchantTransInfo: MerchantTransInfo
  svcTransInfo: SvcTransInfo
  pspTransInfo: PspTransInfo
  status: string
  failure?: Failure | undefined
  extra?: Body
}

/** Field order follows the contract's listing; readers must not depend on it (docs/gateway.md §4 "Parameter rules"). */
export function record(parts: RecordParts): Body {
  return {
    merchantTransInfo: parts.merchantTransInfo,
    ...parts.extra,
    svcTransInfo: parts.svcTransInfo,
    pspTransInfo: parts.pspTransInfo,
    status: parts.status,
    ...parts.failure,
  }
}

/** The payment as it stands now, for the `payment` member of follow-up responses. */
export function paymentRecord(p: PaymentState): Body {
  return record({
    merchantTransInfo: p.merchantTransInfo,
    svcTransInfo: p.svcTransInfo,
    pspTransInfo: p.pspTransInfo,
    status: p.status,
    failure: p.failure,
    extra: { transAmount: p.transAmount, ...(p.tip ? { tipAmount: p.tip.amount } : {}) },
  })
}

/** pspResponseCode/pspMessage (docs/gateway.md §5) carry the ISO 8583 field 39 of an issuer answer. */
export function successResult(psp?: { code: string; message: string }): Body {
  return psp ? { ...SUCCESS, pspResponseCode: psp.code, pspMessage: psp.message } : { ...SUCCESS }
}

/** Only the merchantTransInfo members the request actually carried (null equals absent). */
export function merchantTransInfoOf(info: {
  merchantTransID: string
  merchantTransTime?: string | undefined
  merchantOrderReference?: string | undefined
}): MerchantTransInfo {
  const out: MerchantTransInfo = { merchantTransID: info.merchantTransID }
  if (info.merchantTransTime !== undefined) out.merchantTransTime = info.merchantTransTime
  if (info.merchantOrderReference !== undefined) out.merchantOrderReference = info.merchantOrderReference
  return out
}

/** What an operation handler returns to the dispatcher (process-operation.ts). */
export type Handled =
  | { type: 'rejected'; code: 'V0007' | 'V0008'; message: string }
  | {
      type: 'processed'
      response: Body
      entry: LedgerDraft
      /** The payment the operation concerns, to snapshot its state into the ledger entry. */
      payment?: PaymentState | undefined
      paymentId?: string | undefined
    }

export function rejected(message: string, code: 'V0007' | 'V0008' = 'V0008'): Handled {
  return { type: 'rejected', code, message }
}
