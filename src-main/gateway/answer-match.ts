/**
 * Is this answer about this request? A signed answer proves it came from the host, not that it
 * speaks of the message just sent (a host defect, a mix-up behind a proxy). The host contract
 * (docs/gateway.md §4: merchantTransID "used to match a request to later responses"; host contract
 * §1) decides what must match:
 * - a record answering a request with a `merchantTransInfo` of its own (payment, cancel, tips,
 *   capture, credit) names that merchantTransID, and a payment's or a credit's record its amount and
 *   currency;
 * - a reversal has no `merchantTransInfo` of its own: its record may name the original (the id in
 *   its path) or no id at all (a bare `status` and `svcTransInfo`), since the answer's signature
 *   covers the request's path and MsgID; it never names another;
 * - the original `payment` a follow-up's answer returns is the one named in the request's path.
 * An answer that names another id, amount or currency is not an answer: the outcome is `unknown`,
 * which reverses a payment and asks again for a queued message.
 */
import { parseAmount } from '../../src-shared/money'
import type { HostResponse } from './outcome'
import type { OperationKind } from './operations'

/** What a request is known by: its merchantTransID and, for money moved, its amount. */
export interface RequestIdentity {
  /** The id the answer's record names (a reversal's: its original's). */
  merchantTransID: string
  /** The record may name no id at all (a reversal, which has no merchantTransInfo of its own), never another. */
  recordMayNameNone?: boolean | undefined
  amount?: { currency: string; value: string } | undefined
  /** A follow-up's original (the id in its path): the `payment` its answer returns must be that one. */
  originalId?: string | undefined
}

/** The identity of a request body (for a reversal, the original's id from its path). */
export function identityOf(kind: OperationKind, body: unknown, originalId: string | undefined): RequestIdentity | undefined {
  const fields = body as { merchantTransInfo?: { merchantTransID?: unknown }; transAmount?: { currency?: unknown; value?: unknown } }
  const id = kind === 'reversal' ? originalId : fields.merchantTransInfo?.merchantTransID
  if (typeof id !== 'string') return undefined
  const amount = fields.transAmount
  const carriesAmount =
    (kind === 'payment' || kind === 'merchandiseCredit') && typeof amount?.currency === 'string' && typeof amount.value === 'string'
  return {
    merchantTransID: id,
    ...(kind === 'reversal' ? { recordMayNameNone: true } : {}),
    ...(carriesAmount ? { amount: { currency: amount.currency as string, value: amount.value as string } } : {}),
    ...(originalId !== undefined ? { originalId } : {}),
  }
}

type AnswerRecord = NonNullable<HostResponse['payment']>

/**
 * Why the answer does not answer this request, or undefined when it does. `record` is the
 * operation's own record; `original` the `payment` a follow-up's answer returns, if any.
 */
export function mismatch(record: AnswerRecord, request: RequestIdentity, original?: AnswerRecord | null): string | undefined {
  const named = namedId(record)
  if (named !== request.merchantTransID && !(named === undefined && request.recordMayNameNone === true))
    return `the answer names merchantTransID ${named === undefined ? '(none)' : `"${String(named)}"`}, not this request's "${request.merchantTransID}"`
  if (original != null && request.originalId !== undefined && record !== original) {
    const originalNamed = namedId(original)
    if (originalNamed !== undefined && originalNamed !== request.originalId)
      return `the answer returns the payment "${String(originalNamed)}", not this request's original "${request.originalId}"`
  }
  if (request.amount === undefined) return undefined
  const answered = record.transAmount as { currency?: unknown; value?: unknown } | null | undefined
  if (typeof answered?.currency !== 'string' || typeof answered.value !== 'string') return 'the answer carries no transAmount'
  if (answered.currency !== request.amount.currency)
    return `the answer's currency ${answered.currency} is not this request's ${request.amount.currency}`
  if (minorOf(answered.value, answered.currency) !== minorOf(request.amount.value, request.amount.currency))
    return `the answer's amount ${answered.value} is not this request's ${request.amount.value}`
  return undefined
}

/** The merchantTransID a record names: undefined when it names none (no merchantTransInfo, or no id in it). */
function namedId(record: AnswerRecord): unknown {
  const info = record.merchantTransInfo as { merchantTransID?: unknown } | null | undefined
  return info?.merchantTransID ?? undefined
}

function minorOf(value: string, currency: string): number | undefined {
  try {
    return parseAmount(value, currency)
  } catch {
    return undefined
  }
}
