/**
 * What a gateway call taught us, as data: a decline is a result, not an error (docs/architecture.md).
 *
 * The line between `notDelivered` and `unknown` decides between store-and-forward and reversal, so it
 * is drawn in this one file:
 * - notDelivered: the request provably never reached the host (connection refused, DNS failure, TLS
 *   handshake failure, connect timeout, or an HTTP 503 signed by the host, which docs/gateway.md §D1
 *   defines as "nothing recorded". An unsigned 503 may come from a proxy after the host processed it.
 * - unknown: it may have reached the host (timeout or reset after sending, a signature that does not
 *   verify, an unparsable body, an unexpected HTTP status or result code). docs/gateway.md §D1: "A
 *   response whose signature does not verify is treated exactly like no response".
 */
import { z } from 'zod'
import { mismatch, type RequestIdentity } from './answer-match'
import { GATEWAY_OPERATIONS, type OperationKind } from './operations'

interface OutcomeBase {
  operation: OperationKind
  msgId: string
  latencyMs: number
}

export type HostResponse = z.infer<typeof hostResponseSchema>

export type GatewayOutcome =
  | (OutcomeBase & { kind: 'approved'; status: string; authorizationCode?: string; svcTransID?: string; response: HostResponse })
  | (OutcomeBase & { kind: 'declined'; reason: string; failureCode?: string; pspFailureCode?: string; response: HostResponse })
  | (OutcomeBase & { kind: 'rejected'; code: string; field?: string; message: string; source: 'agent' | 'host'; response?: HostResponse })
  | (OutcomeBase & { kind: 'notDelivered'; reason: string })
  | (OutcomeBase & { kind: 'unknown'; reason: string; httpStatus?: number })

export type OutcomeKind = GatewayOutcome['kind']

const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined)

const recordSchema = z.looseObject({
  status: optionalText,
  failureCode: optionalText,
  failureReason: optionalText,
  pspFailureCode: optionalText,
  pspFailureReason: optionalText,
  svcTransInfo: z.looseObject({ svcTransID: optionalText }).nullish(),
  pspTransInfo: z.looseObject({ authorizationCode: optionalText }).nullish(),
})

export const hostResponseSchema = z.looseObject({
  result: z.looseObject({ code: z.string(), message: optionalText, pspResponseCode: optionalText, pspMessage: optionalText }),
  payment: recordSchema.nullish(),
  cancel: recordSchema.nullish(),
  reversal: recordSchema.nullish(),
  tips: recordSchema.nullish(),
  capture: recordSchema.nullish(),
  merchandiseCredit: recordSchema.nullish(),
})

/** Record statuses that mean the operation did what was asked (docs/gateway.md §D2). */
const DONE_STATUSES: Readonly<Record<OperationKind, readonly string[]>> = {
  payment: ['Authorised', 'Captured'],
  cancel: ['Success'],
  reversal: ['Success'],
  tips: ['Success'],
  capture: ['Success'],
  merchandiseCredit: ['Success'],
}

/** Result codes meaning "refused before processing, nothing recorded": safe to correct and resend. */
const REJECTION_CODES: Readonly<Record<string, string>> = {
  V0007: 'a required field is missing',
  V0008: 'a field breaks a type or length rule',
  A0001: 'the host could not verify the request signature',
  B0031: 'this merchantTransID was already used with a different body',
}

/**
 * Interprets a response whose signature has already been verified. `request`: what the request is
 * known by; an approval or a decline whose record is about another request is `unknown` (answer-match.ts).
 */
export function classifyResponse(base: OutcomeBase, httpStatus: number, payload: unknown, request?: RequestIdentity): GatewayOutcome {
  const parsed = hostResponseSchema.safeParse(payload)
  if (!parsed.success) return { ...base, kind: 'unknown', httpStatus, reason: 'the response has no readable result' }
  const response = parsed.data
  const { code, message } = response.result
  const rejection = REJECTION_CODES[code]
  if (rejection !== undefined) {
    const field = message?.match(/^([A-Za-z][\w.[\]]*)\b/)?.[1]
    return {
      ...base,
      kind: 'rejected',
      code,
      source: 'host',
      message: message ?? rejection,
      response,
      ...(field !== undefined && code.startsWith('V') ? { field } : {}),
    }
  }
  if (httpStatus !== 200)
    return { ...base, kind: 'unknown', httpStatus, reason: `unexpected HTTP status ${httpStatus} with result ${code}` }
  if (code !== 'S0000')
    return { ...base, kind: 'unknown', httpStatus, reason: `unrecognised result code ${code}${message ? ` (${message})` : ''}` }

  const record = response[GATEWAY_OPERATIONS[base.operation].record]
  const status = record?.status
  if (record == null || status === undefined)
    return { ...base, kind: 'unknown', httpStatus, reason: `S0000 without a ${GATEWAY_OPERATIONS[base.operation].record} status` }
  const notOurs = request === undefined ? undefined : mismatch(record, request, response.payment)
  if (notOurs !== undefined) return { ...base, kind: 'unknown', httpStatus, reason: `not an answer to this request: ${notOurs}` }
  if (DONE_STATUSES[base.operation].includes(status)) {
    const authorizationCode = record.pspTransInfo?.authorizationCode
    const svcTransID = record.svcTransInfo?.svcTransID
    return {
      ...base,
      kind: 'approved',
      status,
      response,
      ...(authorizationCode ? { authorizationCode } : {}),
      ...(svcTransID ? { svcTransID } : {}),
    }
  }
  if (status === 'Failed') {
    // The host's words first, then the issuer's, e.g. "declined by the issuer: insufficient funds"
    const reason = [record.failureReason, record.pspFailureReason].filter(Boolean).join(': ') || message || 'declined by the bank'
    return {
      ...base,
      kind: 'declined',
      reason,
      response,
      ...(record.failureCode ? { failureCode: record.failureCode } : {}),
      ...(record.pspFailureCode ? { pspFailureCode: record.pspFailureCode } : {}),
    }
  }
  return { ...base, kind: 'unknown', httpStatus, reason: `unrecognised ${GATEWAY_OPERATIONS[base.operation].record} status "${status}"` }
}

/**
 * A transport error is `notDelivered` only when it happened while the connection was being set up
 * (DNS, TCP connect, TLS handshake: the connector marks those) or before any I/O at all; everything
 * else (reset, socket closed, timeout after connect) may have reached the host and is `unknown`.
 */
export function classifyTransportError(base: OutcomeBase, error: unknown, duringConnect: boolean): GatewayOutcome {
  const code = errorCode(error)
  const text = error instanceof Error ? error.message : String(error)
  const reason = `${code ?? 'error'}: ${text}`
  return duringConnect ? { ...base, kind: 'notDelivered', reason } : { ...base, kind: 'unknown', reason }
}

/**
 * A gateway call's outcome, reduced to what the domain decides on: the sale at the counter, the
 * queue's forwarder and the rescue of a dead terminal's queue each read this, never the outcome's
 * transport fields. The shape is journaled as the sale's event detail (txn/sale-record.ts), so it
 * carries nothing else: a `declined` reason is the bank's words; a `rejected` one the host's code and
 * message; `notDelivered` and `unknown` the technical cause, for the log (NOT_ANSWERED_WORDS says it
 * plainly).
 */
export type GatewayAnswer =
  | { kind: 'approved'; authCode?: string | undefined }
  | { kind: 'declined'; reason: string }
  | { kind: 'rejected'; code: string; message: string }
  | { kind: 'notDelivered'; reason: string }
  | { kind: 'unknown'; reason: string }

/** The host answered about the message itself: what a queued message settles on. */
export type HostAnswer = Extract<GatewayAnswer, { kind: 'approved' | 'declined' | 'rejected' }>

/** Nothing the message could settle on came back: what a cashier or a manager reads for each. */
export const NOT_ANSWERED_WORDS: Readonly<Record<Exclude<GatewayAnswer, HostAnswer>['kind'], string>> = {
  notDelivered: 'the bank could not be reached',
  unknown: 'no valid answer came back',
}

/** The one reduction of an outcome (a rejection by the agent's own check reads as the host's: nothing was recorded). */
export function answerOf(outcome: GatewayOutcome): GatewayAnswer {
  switch (outcome.kind) {
    case 'approved':
      return { kind: 'approved', authCode: outcome.authorizationCode }
    case 'declined':
      return { kind: 'declined', reason: outcome.reason }
    case 'rejected':
      return { kind: 'rejected', code: outcome.code, message: outcome.message }
    case 'notDelivered':
      return { kind: 'notDelivered', reason: outcome.reason }
    case 'unknown':
      return { kind: 'unknown', reason: outcome.reason }
  }
}

/** An answer in plain words, as a report line says what the bank said (`declined: …`, `refused by the bank: …`). */
export function answerWords(answer: GatewayAnswer): string {
  switch (answer.kind) {
    case 'approved':
      return 'approved'
    case 'declined':
      return `declined: ${answer.reason}`
    case 'rejected':
      return `refused by the bank: ${answer.message}`
    case 'notDelivered':
    case 'unknown':
      return NOT_ANSWERED_WORDS[answer.kind]
  }
}

/** The innermost error code in a cause chain (undici wraps socket errors). */
export function errorCode(error: unknown): string | undefined {
  let found: string | undefined
  let current: unknown = error
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown }
    if (typeof code === 'string') found = code
    current = cause
  }
  return found
}
