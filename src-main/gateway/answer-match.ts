/**
 * Is this answer about this request? A signed answer proves it came from the host, not that it
 * speaks of the message just sent (a host defect, a mix-up behind a proxy): the record must name the
 * request's merchantTransID (docs/gateway.md §4: merchantTransID "used to match a request to later
 * responses"; a reversal has none of its own and its record carries the original's), and a payment's
 * or a credit's record the request's amount and currency. An answer about anything else is not an
 * answer: the outcome is `unknown`, which reverses a payment and asks again for a queued message.
 */
import { parseAmount } from '../../src-shared/money'
import type { HostResponse } from './outcome'
import type { OperationKind } from './operations'

/** What a request is known by: its merchantTransID and, for money moved, its amount. */
export interface RequestIdentity {
  merchantTransID: string
  amount?: { currency: string; value: string } | undefined
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
    ...(carriesAmount ? { amount: { currency: amount.currency as string, value: amount.value as string } } : {}),
  }
}

type AnswerRecord = NonNullable<HostResponse['payment']>

/** Why the record does not answer this request, or undefined when it does. */
export function mismatch(record: AnswerRecord, request: RequestIdentity): string | undefined {
  const info = record.merchantTransInfo as { merchantTransID?: unknown } | null | undefined
  const named = info?.merchantTransID
  if (named !== request.merchantTransID)
    return `the answer names merchantTransID ${typeof named === 'string' ? `"${named}"` : '(none)'}, not this request's "${request.merchantTransID}"`
  if (request.amount === undefined) return undefined
  const answered = record.transAmount as { currency?: unknown; value?: unknown } | null | undefined
  if (typeof answered?.currency !== 'string' || typeof answered.value !== 'string') return 'the answer carries no transAmount'
  if (answered.currency !== request.amount.currency)
    return `the answer's currency ${answered.currency} is not this request's ${request.amount.currency}`
  if (minorOf(answered.value, answered.currency) !== minorOf(request.amount.value, request.amount.currency))
    return `the answer's amount ${answered.value} is not this request's ${request.amount.value}`
  return undefined
}

function minorOf(value: string, currency: string): number | undefined {
  try {
    return parseAmount(value, currency)
  } catch {
    return undefined
  }
}
