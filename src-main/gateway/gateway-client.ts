/**
 * UndiciHostClient: the one place a request leaves the terminal for the host.
 *
 * Sign → send over HTTPS (TLS 1.2+, certificate validation always on, keep-alive) → verify the
 * response signature → classify. Nothing in a response is used before its signature verifies.
 * Card data never reaches the log: only the operation, ids, outcome and latency.
 */
import { createSecureContext, rootCertificates } from 'node:tls'
import { Agent, buildConnector } from 'undici'
import type { Logger } from 'pino'
import { sign, verifySignature, type SignType } from './signer'
import { formatDateTime, newMsgId } from './headers'
import { GATEWAY_OPERATIONS, operationPath, type OperationKind } from './operations'
import { checkRequestBody, type RequestBodies } from './request-schemas'
import { identityOf } from './answer-match'
import { classifyResponse, classifyTransportError, type GatewayOutcome } from './outcome'
import { exchange, type Exchanged } from './exchange'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

export interface HostEndpoint {
  /** `{offline_base_url}`: the four offline operations. */
  offlineBaseUrl: string
  /** `{base_url}`: capture at close in restaurant mode. */
  baseUrl: string
  aid: string
  signType: SignType
  keyId?: string | undefined
  /** Extra trusted CA certificates (PEM), added to the public roots, never replacing validation. */
  extraCaPem?: string | undefined
  connectTimeoutMs: number
  /** How long to wait for an answer once the request is sent (docs/gateway.md §2: at least 45 s). */
  responseTimeoutMs: number
}

/** Role interface the transaction engine depends on. */
export interface HostClient {
  send<K extends OperationKind>(kind: K, body: RequestBodies[K], originalId?: string): Promise<GatewayOutcome>
  /** Sends a body that has not been type-checked (CLI `send`); it is validated the same way first. */
  sendUnchecked(kind: OperationKind, body: unknown, originalId?: string): Promise<GatewayOutcome>
  close(): Promise<void>
}

export interface HostClientDeps {
  /** The signing key, read from the keychain once by the caller. */
  signingKey: string
  logger?: Logger | undefined
  now?: () => Date
  msgId?: () => string
}

export class UndiciHostClient implements HostClient {
  private readonly agent: Agent
  private readonly now: () => Date
  private readonly msgId: () => string
  /** Errors raised while a connection was being set up: the request provably never left. */
  private readonly connectErrors = new WeakSet<object>()

  constructor(
    private readonly endpoint: HostEndpoint,
    private readonly deps: HostClientDeps,
  ) {
    for (const url of [endpoint.offlineBaseUrl, endpoint.baseUrl]) {
      if (!url.startsWith('https://')) throw new Error(`host URL must use https://, got ${url}`)
    }
    // One TLS context for every connection: Node builds a context per `tls.connect` otherwise, and
    // parsing the ~150 root certificates takes tens of milliseconds each time, on the event loop
    // (a queue retrying a bank that is down would hold every sale at the counter that long).
    const secureContext = createSecureContext({
      ...(endpoint.extraCaPem ? { ca: [...rootCertificates, endpoint.extraCaPem] } : {}),
      minVersion: 'TLSv1.2',
    })
    const connector = buildConnector({
      secureContext,
      minVersion: 'TLSv1.2',
      rejectUnauthorized: true,
      timeout: endpoint.connectTimeoutMs,
    })
    this.agent = new Agent({
      connect: (options, callback) =>
        connector(options, (error, socket) => {
          if (error) {
            this.connectErrors.add(error)
            callback(error, null)
          } else callback(null, socket)
        }),
      keepAliveTimeout: 4_000,
      headersTimeout: endpoint.responseTimeoutMs,
      bodyTimeout: endpoint.responseTimeoutMs,
    })
    this.now = deps.now ?? (() => new Date(SYSTEM_CLOCK.now()))
    this.msgId = deps.msgId ?? newMsgId
  }

  send<K extends OperationKind>(kind: K, body: RequestBodies[K], originalId?: string): Promise<GatewayOutcome> {
    return this.sendUnchecked(kind, body, originalId)
  }

  async sendUnchecked(kind: OperationKind, body: unknown, originalId?: string): Promise<GatewayOutcome> {
    const msgId = this.msgId()
    const started = performance.now()
    const base = () => ({ operation: kind, msgId, latencyMs: Math.round(performance.now() - started) })
    const checked = checkRequestBody(kind, body)
    if (!checked.ok) {
      // Refused here, before signing: the host never saw it, so it is safe to correct and resend.
      return this.logged(
        {
          ...base(),
          kind: 'rejected',
          code: checked.problem.kind === 'missing' ? 'V0007' : 'V0008',
          field: checked.problem.field,
          message: checked.problem.message,
          source: 'agent',
        },
        body,
      )
    }
    const origin = GATEWAY_OPERATIONS[kind].host === 'offline' ? this.endpoint.offlineBaseUrl : this.endpoint.baseUrl
    // A base URL may carry a path prefix; the signed line is everything after the domain.
    const url = new URL(withoutTrailingSlash(origin) + operationPath(kind, this.endpoint.aid, originalId))
    const path = url.pathname + url.search
    const payload = Buffer.from(JSON.stringify(checked.body), 'utf8')
    const dateTime = formatDateTime(this.now())
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      datetime: dateTime,
      msgid: msgId,
      signtype: this.endpoint.signType,
      authorization: sign({ method: 'POST', path, dateTime, msgId, body: payload }, this.endpoint.signType, this.deps.signingKey),
    }
    if (this.endpoint.keyId) headers.keyid = this.endpoint.keyId

    let answer: Exchanged
    try {
      answer = await exchange(this.agent, url, headers, payload)
    } catch (error) {
      return this.logged(classifyTransportError(base(), error, this.wasConnectError(error)), body)
    }
    const { status, headers: responseHeaders, body: responseBody } = answer

    // Every answer is the host's only if it echoes our MsgID and DateTime and its signature verifies.
    // An unsigned 503 may come from a proxy after the host processed the request: unknown, like no
    // answer at all; only the host's own signed 503 proves nothing was recorded (docs/gateway.md §D1).
    const unsigned503 = status === 503 ? ' (an unsigned HTTP 503, as from a proxy: the host may have processed it)' : ''
    const echoed = { dateTime: header(responseHeaders, 'datetime'), msgId: header(responseHeaders, 'msgid') }
    if (echoed.msgId !== msgId)
      return this.logged(
        { ...base(), kind: 'unknown', httpStatus: status, reason: `the response does not echo our MsgID${unsigned503}` },
        body,
      )
    if (echoed.dateTime !== dateTime)
      return this.logged(
        { ...base(), kind: 'unknown', httpStatus: status, reason: `the response does not echo our DateTime${unsigned503}` },
        body,
      )
    const signType = header(responseHeaders, 'signtype')
    if (signType !== this.endpoint.signType)
      return this.logged(
        { ...base(), kind: 'unknown', httpStatus: status, reason: `the response SignType "${signType ?? ''}" differs from the request's` },
        body,
      )
    if (this.endpoint.keyId && header(responseHeaders, 'keyid') !== this.endpoint.keyId) {
      return this.logged({ ...base(), kind: 'unknown', httpStatus: status, reason: "the response KeyID differs from the request's" }, body)
    }
    const verified = verifySignature(
      { method: 'POST', path, dateTime, msgId, body: responseBody },
      this.endpoint.signType,
      this.deps.signingKey,
      header(responseHeaders, 'authorization'),
    )
    if (!verified)
      return this.logged(
        { ...base(), kind: 'unknown', httpStatus: status, reason: `the response signature is missing or does not verify${unsigned503}` },
        body,
      )
    // The host's own 503: "could not process it now; nothing was recorded" (docs/gateway.md §D1).
    if (status === 503)
      return this.logged({ ...base(), kind: 'notDelivered', reason: 'HTTP 503 signed by the host: nothing was recorded' }, body)

    let parsed: unknown
    try {
      parsed = JSON.parse(responseBody.toString('utf8'))
    } catch {
      return this.logged({ ...base(), kind: 'unknown', httpStatus: status, reason: 'the response body is not JSON' }, body)
    }
    return this.logged(classifyResponse(base(), status, parsed, identityOf(kind, checked.body, originalId)), body)
  }

  async close(): Promise<void> {
    await this.agent.close()
  }

  private wasConnectError(error: unknown): boolean {
    let current: unknown = error
    for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
      if (this.connectErrors.has(current)) return true
      current = (current as { cause?: unknown }).cause
    }
    return false
  }

  private logged(outcome: GatewayOutcome, body: unknown): GatewayOutcome {
    const merchantTransID = (body as { merchantTransInfo?: { merchantTransID?: unknown } } | null)?.merchantTransInfo?.merchantTransID
    const detail =
      outcome.kind === 'approved' || outcome.kind === 'declined' ? {} : { reason: 'reason' in outcome ? outcome.reason : outcome.message }
    this.deps.logger?.info(
      {
        operation: outcome.operation,
        merchantTransID,
        msgId: outcome.msgId,
        outcome: outcome.kind,
        latencyMs: outcome.latencyMs,
        ...detail,
      },
      'gateway call',
    )
    return outcome
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

function withoutTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url
}
