/**
 * One gateway operation over HTTP: read the body, apply a fault if one is set (faults.ts), check
 * signature and headers (request-auth.ts), process (process-operation.ts), sign and send.
 *
 * A `delay` that is still waiting when the host closes ends with the connection dropped. When the
 * client gives up during a delay, the host still processes the request (it cannot know): exactly
 * the "host approved, client timed out" case the agent must reverse.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { GATEWAY_OPERATIONS, type OperationKind } from '../../gateway'
import { formatAmount, parseAmount } from '../../../src-shared/money'
import type { FaultBook } from './faults'
import type { HostState } from './host-state'
import { dropConnection, readBody, sendBytes, sendJson } from './http-io'
import type { LedgerEntry } from './ledger'
import { processOperation, resultOnly } from './process-operation'
import { authenticate, corruptSignature, headerProblem, readHeaders, responseHeaders, type SignedMessage } from './request-auth'

export interface OperationContext {
  state: HostState
  faults: FaultBook
  keys: ReadonlyMap<string, string>
  keyId: string | undefined
  now: () => Date
  /** Aborted when the host closes. */
  closing: AbortSignal
  log: (line: string) => void
}

export interface OperationTarget {
  aid: string
  kind: OperationKind
  originalId?: string | undefined
}

interface Answer {
  status: number
  body: Buffer
  /** Signed response headers for the given body bytes. */
  headersFor: (body: Buffer) => Record<string, string>
  entry?: LedgerEntry | undefined
}

export async function serveOperation(
  req: IncomingMessage,
  res: ServerResponse,
  target: OperationTarget,
  ctx: OperationContext,
): Promise<void> {
  if (req.method !== 'POST')
    return sendJson(res, 405, { result: { code: 'V0008', message: 'only POST is served here' } }, { Allow: 'POST' })
  const body = await readBody(req)
  if (body === undefined) return sendJson(res, 413, { result: { code: 'V0008', message: '(body) is too large' } }, { Connection: 'close' })

  const fault = ctx.faults.take(target.kind)
  const label = `${target.kind} aid=${target.aid}${target.originalId !== undefined ? ` original=${target.originalId}` : ''}`
  if (fault?.kind === 'delay') {
    try {
      await sleep(fault.ms, undefined, { signal: ctx.closing })
    } catch {
      return dropConnection(req)
    }
  }
  if (fault?.kind === 'drop-before-processing') {
    ctx.log(`${label}: dropped before processing (fault)`)
    return dropConnection(req)
  }
  if (fault?.kind === 'proxy-503') {
    ctx.log(`${label}: unsigned HTTP 503, not processed (fault)`)
    return sendJson(res, 503, PROXY_503_BODY)
  }

  const message: SignedMessage = { method: req.method, path: req.url ?? '/', body }
  const answer = fault?.kind === 'http-503' ? unavailable(req, message, target, ctx) : answerOperation(req, message, target, ctx)
  if (fault && answer.entry) answer.entry.fault = fault.kind
  ctx.log(`${label}: ${answer.status} ${describe(answer)}${fault ? ` [fault ${fault.kind}]` : ''}`)
  if (fault?.kind === 'process-then-drop') return dropConnection(req)
  if (fault?.kind === 'proxy-503-after-processing') return sendJson(res, 503, PROXY_503_BODY)
  // garbage-body: the first half of the real body (a truncated answer, as from a broken proxy),
  // correctly signed over those bytes, so only the agent's JSON handling stands between it and harm.
  const sent =
    fault?.kind === 'garbage-body'
      ? answer.body.subarray(0, Math.floor(answer.body.length / 2))
      : fault !== undefined && isMisdirection(fault.kind)
        ? misdirected(answer.body, target.kind, fault.kind)
        : fault?.kind === 'answer-bare-record'
          ? bare(answer.body, target.kind)
          : answer.body
  const headers = answer.headersFor(sent)
  if (fault?.kind === 'bad-signature' && headers.Authorization !== undefined)
    headers.Authorization = corruptSignature(headers.Authorization)
  sendBytes(res, answer.status, headers, sent)
}

const MISDIRECTIONS = ['answer-other-id', 'answer-other-amount', 'answer-other-currency'] as const
type Misdirection = (typeof MISDIRECTIONS)[number]

function isMisdirection(kind: string): kind is Misdirection {
  return (MISDIRECTIONS as readonly string[]).includes(kind)
}

/** The answer's record made to speak of another request: another id, amount or currency (then signed as it is). */
function misdirected(body: Buffer, kind: OperationKind, fault: Misdirection): Buffer {
  const answer = JSON.parse(body.toString('utf8')) as Record<string, Record<string, unknown> | undefined>
  const record = answer[GATEWAY_OPERATIONS[kind].record]
  if (record === undefined) return body
  if (fault === 'answer-other-id') {
    const info = record.merchantTransInfo as { merchantTransID: string }
    record.merchantTransInfo = { ...info, merchantTransID: `${info.merchantTransID}-OTHER` }
  } else if (record.transAmount !== undefined) {
    const amount = record.transAmount as { currency: string; value: string }
    record.transAmount =
      fault === 'answer-other-currency'
        ? { ...amount, currency: amount.currency === 'EUR' ? 'USD' : 'EUR' }
        : { ...amount, value: formatAmount(parseAmount(amount.value, amount.currency) + 1, amount.currency) }
  }
  return Buffer.from(JSON.stringify(answer), 'utf8')
}

/** The answer with the operation's record reduced to `status` and `svcTransInfo`, and no `payment` (then signed as it is). */
function bare(body: Buffer, kind: OperationKind): Buffer {
  const answer = JSON.parse(body.toString('utf8')) as Record<string, Record<string, unknown> | undefined>
  const name = GATEWAY_OPERATIONS[kind].record
  const record = answer[name]
  if (record === undefined) return body
  const { payment: _payment, ...rest } = answer
  const reduced = { ...rest, [name]: { status: record.status, svcTransInfo: record.svcTransInfo } }
  return Buffer.from(JSON.stringify(reduced), 'utf8')
}

/** What a load balancer answers when the host behind it does not (no signature, no echo). */
const PROXY_503_BODY = { message: 'Service Unavailable' }

/** The host's own 503 (docs/gateway.md §D1): signed like any answer, nothing processed or recorded. */
function unavailable(req: IncomingMessage, message: SignedMessage, target: OperationTarget, ctx: OperationContext): Answer {
  const h = readHeaders(req.headers)
  const auth = authenticate(h, target.aid, ctx.keys, ctx.keyId, message)
  // An empty body, signed: the contract leaves the 503 body open, and the agent reads only that it is signed.
  const body = auth.ok ? Buffer.alloc(0) : Buffer.from(resultOnly('A0001', auth.message).body, 'utf8')
  return { status: auth.ok ? 503 : 401, body, headersFor: (sent) => responseHeaders(h, auth.signer, { ...message, body: sent }) }
}

function answerOperation(req: IncomingMessage, message: SignedMessage, target: OperationTarget, ctx: OperationContext): Answer {
  const h = readHeaders(req.headers)
  const auth = authenticate(h, target.aid, ctx.keys, ctx.keyId, message)
  if (!auth.ok) {
    const signer = auth.signer
    return {
      status: 401,
      body: Buffer.from(resultOnly('A0001', auth.message).body, 'utf8'),
      headersFor: (body) => responseHeaders(h, signer, { ...message, body }),
    }
  }
  const problem = headerProblem(h)
  const processed = problem
    ? resultOnly(problem.code, problem.message)
    : processOperation(ctx.state, { ...target, body: message.body, now: ctx.now() })
  return {
    status: 200,
    body: Buffer.from(processed.body, 'utf8'),
    headersFor: (body) => responseHeaders(h, auth.signer, { ...message, body }),
    entry: processed.entry,
  }
}

function describe(answer: Answer): string {
  const entry = answer.entry
  if (entry) return `${entry.resultCode}${entry.status ? ` ${entry.status}` : ''}${entry.replayed ? ' (replayed)' : ''}`
  return answer.body.toString('utf8').slice(0, 120)
}
