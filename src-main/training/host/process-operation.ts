/**
 * One authenticated operation request, from body bytes to response body (docs/gateway.md §D1, §D3):
 *
 * 1. The body must be UTF-8 JSON and pass the shared request schema (request-schemas.ts): otherwise
 *    V0007 (missing field) or V0008 (type or length rule), the field named in result.message, and
 *    nothing recorded (docs/gateway.md §7: failed validation saves nothing). A member whose
 *    value is null counts as absent (docs/gateway.md §4 "Parameter rules": null may be omitted).
 * 2. Duplicate rule for requests with their own merchantTransInfo (payment, cancel, tips, capture,
 *    merchandiseCredit;
 *    merchantTransIDs share one namespace per aid): the same operation, path and canonical body gets
 *    the first response body again, byte for byte; anything else under a known id gets B0031 and
 *    changes nothing. Both are still noted in the ledger (replayed, or resultCode B0031).
 * 3. The operation's handler decides and changes state; the answer is remembered for duplicates.
 */
import { checkRequestBody, type OperationKind, type RequestBodies } from '../../gateway'
import { handleMerchandiseCredit } from './credit-operation'
import { handleCancel, handleCapture, handleTips } from './follow-up-operations'
import { canonicalHash, stateKey, type HostState } from './host-state'
import type { LedgerEntry } from './ledger'
import { handlePayment } from './payment-operation'
import { HOST_FAILURES, type Handled } from './records'
import { handleReversal } from './reversal-operation'

export interface OperationRequest {
  aid: string
  kind: OperationKind
  originalId?: string | undefined
  body: Buffer
  now: Date
}

export interface OperationAnswer {
  /** The response body exactly as it will be signed and sent. */
  body: string
  /** The ledger entry, when the request was processed (not for validation failures). */
  entry?: LedgerEntry
}

export function processOperation(state: HostState, req: OperationRequest): OperationAnswer {
  const parsed = parseJsonObject(req.body)
  if (typeof parsed === 'string') return resultOnly('V0008', parsed)
  const checked = checkRequestBody(req.kind, withoutNulls(parsed))
  if (!checked.ok) return resultOnly(checked.problem.kind === 'missing' ? 'V0007' : 'V0008', checked.problem.message)

  const ownId = 'merchantTransInfo' in checked.body ? checked.body.merchantTransInfo.merchantTransID : undefined
  const bodyHash = canonicalHash(parsed)
  if (ownId !== undefined) {
    const prior = state.answered.get(stateKey(req.aid, ownId))
    if (prior) {
      const payment = prior.paymentId === undefined ? undefined : state.payments.get(stateKey(req.aid, prior.paymentId))
      if (prior.operation === req.kind && prior.originalId === req.originalId && prior.bodyHash === bodyHash) {
        return { body: prior.responseBody, entry: state.ledger.append({ ...prior.entry, replayed: true }, req.now, payment) }
      }
      const entry = state.ledger.append(
        {
          aid: req.aid,
          operation: req.kind,
          merchantTransID: ownId,
          ...(req.originalId !== undefined ? { originalMerchantTransID: req.originalId } : {}),
          resultCode: HOST_FAILURES.duplicate.code,
        },
        req.now,
      )
      return {
        ...resultOnly(HOST_FAILURES.duplicate.code, `${HOST_FAILURES.duplicate.reason}: ${ownId} was used for a different request`),
        entry,
      }
    }
  }

  const handled = dispatch(state, req, checked.body)
  if (handled.type === 'rejected') return resultOnly(handled.code, handled.message)
  const body = JSON.stringify(handled.response)
  if (ownId !== undefined) {
    state.answered.set(stateKey(req.aid, ownId), {
      operation: req.kind,
      ...(req.originalId !== undefined ? { originalId: req.originalId } : {}),
      bodyHash,
      responseBody: body,
      entry: handled.entry,
      ...(handled.paymentId !== undefined ? { paymentId: handled.paymentId } : {}),
    })
  }
  return { body, entry: state.ledger.append(handled.entry, req.now, handled.payment) }
}

function dispatch(state: HostState, req: OperationRequest, body: RequestBodies[OperationKind]): Handled {
  const original = req.originalId ?? ''
  switch (req.kind) {
    case 'payment':
      return handlePayment(state, req.aid, body as RequestBodies['payment'], req.now)
    case 'cancel':
      return handleCancel(state, req.aid, original, body as RequestBodies['cancel'], req.now)
    case 'reversal':
      return handleReversal(state, req.aid, original, body as RequestBodies['reversal'], req.now)
    case 'tips':
      return handleTips(state, req.aid, original, body as RequestBodies['tips'], req.now)
    case 'capture':
      return handleCapture(state, req.aid, original, body as RequestBodies['capture'], req.now)
    case 'merchandiseCredit':
      return handleMerchandiseCredit(state, req.aid, body as RequestBodies['merchandiseCredit'], req.now)
  }
}

export function resultOnly(code: string, message: string): OperationAnswer {
  return { body: JSON.stringify({ result: { code, message } }) }
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  )
}

/** The body as a JSON object, or the V0008 message saying why it is not one. */
function parseJsonObject(bytes: Buffer): Record<string, unknown> | string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return '(body) is not valid UTF-8'
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return `(body) is not valid JSON: ${(error as Error).message}`
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '(body) must be a JSON object'
  return value as Record<string, unknown>
}
