/**
 * The agent without Electron: an HTTP server bound to 127.0.0.1 only. It serves the cashier UI at `/`
 * and the integration API under /v1 (docs/local-api.md):
 * - `POST /v1/ops/{operation}`: one contract operation, JSON in, `{ ok, value | error }` out;
 * - `GET /v1/events`: server-sent events, resumable (event-stream.ts);
 * - `GET /v1/openapi.json`: the OpenAPI 3.2 document of all of this (openapi-document.ts);
 * - `GET /metrics`: Prometheus metrics, when the agent was given them (docs/monitoring.md);
 * - `GET /v1/health`: unauthenticated liveness.
 * - `POST /v1/launch`: a one-time link that opens a cashier window or a customer display
 *   (the operations openCashierWindow / openCustomerDisplay).
 * Every other /v1 call and /metrics need a token (the installation token or an integrator token a
 * manager created, as a bearer token) or the session cookie a launch link gave the page; loading the
 * page alone gives nothing. A customer display has its own cookie, scoped to `/customer`, and calls
 * the same API under `/customer/v1/`: opening one in the cashier's browser never replaces the
 * cashier tab's session (window-cookies.ts). The `Host` header must name this server and a present `Origin` must be
 * this server (DNS rebinding and cross-site requests are refused). Who may do what is not decided
 * here: each call becomes `service.dispatch(caller, operation, request)` (src-main/service).
 * The server's own edges: a cap on connections sized below what the process may open, with a share
 * of it kept for proven callers (connection-guard.ts), caps per root opener on connections and event
 * streams, and time limits on a request's headers and body, so that no local process and no token
 * can take every connection; a body past 64 KiB is answered 413. A wrong token, a session of no
 * window and a launch link that opens nothing are kept in the audit trail (counted a minute).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ConnectionGuard, connectionCapWithin, openFileLimit, type Admission } from './connection-guard'
import { EventStreams, parseResumePoint } from './event-stream'
import { openApiDocument } from './openapi-document'
import { BodyTooLargeError, json, readBody, sendBodyTooLarge } from './http-body'
import { serveStatic } from './static-files'
import { sessionCookie, viewOfPath, windowSessionOf } from './window-cookies'
import { contentSecurityPolicy } from '../../src-shared/contract'
import { failed, httpStatusOf, type ErrorCode } from '../../src-shared/errors'
import { callerKey, type AgentService, type Caller, type SessionView, type TokenCheck } from '../service'

export interface LocalServerOptions {
  port: number
  rendererRoot: string
  service: AgentService
  /** Which token a bearer is (the installation token, or an integrator token in force). */
  tokens: TokenCheck
  health: () => Record<string, unknown>
  /** How often an idle event stream gets a `heartbeat` event, in ms (15 s by default). */
  heartbeatMs?: number
  /**
   * The server's edges, when not SERVER_LIMITS (a test's shorter time limits, lower caps). A
   * `maxConnections` given is kept as it is; otherwise the cap is sized below `fileLimit`.
   */
  limits?: Partial<ServerLimits>
  /** How many files the process may open (openFileLimit() by default: read at start). */
  fileLimit?: number | undefined
  /**
   * A listening socket handed over by the service manager (systemd socket activation, fd 3): the
   * port then stays the agent's while it restarts, so no other program can take it meanwhile and be
   * sent the windows' cookies (docs/local-api.md "Running as a service").
   */
  listenFd?: number
}

/** What /metrics serves: one scrape in the Prometheus text format. */
export interface MetricsEndpoint {
  contentType: string
  scrape(): Promise<string>
}

export interface LocalServer {
  url: string
  /** The edges in force: the connection cap as sized for this process, and the rest. */
  limits: ServerLimits
  /** How many files the process may open, as read at start (undefined: the system did not say). */
  fileLimit: number | undefined
  /** A one-time link that opens a window of `view` for the machine's owner (what `serve` prints at start). */
  launchUrl(view?: SessionView): string
  close(): Promise<void>
}

/**
 * The server's edges (docs/local-api.md "Limits"): every legitimate client (the cashier window, its
 * event stream, a POS or two, Prometheus) needs a handful of connections; a request's headers come
 * in milliseconds on loopback.
 */
export const SERVER_LIMITS = {
  /**
   * Connections at once, at most: lowered at start to fit what the process may open
   * (connectionCapWithin), since a cap the system reaches first protects nothing.
   */
  maxConnections: 2_048,
  /** Of those, the last ones, for proven callers only (an eighth, scaled with the cap when it is lowered). */
  reservedConnections: 256,
  /** Proven connections a root opener (a token with its windows, the owner's windows) holds at once. */
  connectionsPerOpener: 32,
  /** A new connection that sends no whole request in this time is cut (a request comes in milliseconds on loopback). */
  firstRequestMs: 2_000,
  /** Event streams one window or token may hold open at once (a window needs one, a POS one or two). */
  streamsPerCaller: 4,
  /** Event streams a token and every window opened from it hold together (a POS's two, a few displays' one each). */
  streamsPerOpener: 8,
  /** A stream whose client takes nothing of it this long is closed (heartbeats keep a live one flowing). */
  streamIdleMs: 60_000,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  /** How often Node looks for requests past their time limits (its default, 30 s, would let one hold 40 s). */
  checkIntervalMs: 1_000,
}
export type ServerLimits = typeof SERVER_LIMITS

/** Node's server options for these limits (the local API's and nexo's). */
export function serverTimeouts(limits: ServerLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  }
}

/**
 * The edges for a process that may open `fileLimit` files: SERVER_LIMITS with `given` over them; the
 * connection cap and its reserved share lowered to fit, unless `given` sets the cap itself.
 */
export function serverLimitsFor(fileLimit: number | undefined, given: Partial<ServerLimits> = {}): ServerLimits {
  if (given.maxConnections !== undefined) return { ...SERVER_LIMITS, ...given }
  const maxConnections = connectionCapWithin(fileLimit, SERVER_LIMITS.maxConnections)
  const reservedConnections = Math.floor((SERVER_LIMITS.reservedConnections * maxConnections) / SERVER_LIMITS.maxConnections)
  return { ...SERVER_LIMITS, maxConnections, reservedConnections, ...given }
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { service } = options
  const fileLimit = 'fileLimit' in options ? options.fileLimit : openFileLimit()
  const limits = serverLimitsFor(fileLimit, options.limits)
  const streams = new EventStreams(service, {
    heartbeatMs: options.heartbeatMs ?? 15_000,
    idleMs: limits.streamIdleMs,
    // A window's open stream is use of the window: it is not ended to make room for another.
    inUse: (owner) => void service.windowCaller(owner),
  })
  let origin = ''
  const guard = new ConnectionGuard(limits)
  const server: Server = createServer(serverTimeouts(limits), (request, response) => {
    guard.requestStarted(request.socket, response)
    void handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end()
    })
  })
  guard.attach(server)
  service.serveWindows((view, nonce) => `${origin}${view === 'customer' ? '/customer' : '/'}?launch=${nonce}`)
  // A window or token whose access ended loses its open event streams too.
  const onCallerEnded = (key: string): void => streams.closeFor(key)
  service.on('callerEnded', onCallerEnded)

  /**
   * Whether the request's connection may be answered for `caller` (none: unproven); otherwise the
   * refusal is sent and the connection closes after it.
   */
  function admitted(request: IncomingMessage, response: ServerResponse, caller: Caller | undefined): boolean {
    const admission: Admission = guard.admission(request.socket, caller ? service.openerOf(caller) : undefined)
    if (admission === 'served') return true
    response.setHeader('connection', 'close')
    if (admission === 'tooManyForOpener')
      refuse(
        response,
        'TOO_MANY_CONNECTIONS',
        `this program and the windows it opened hold ${limits.connectionsPerOpener} connections already`,
      )
    else refuse(response, 'SERVER_BUSY', 'every connection but those kept for the cashier window and POSes with a token is taken')
    return false
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin)
    if (!hostAllowed(request.headers.host, origin)) return plain(response, 421, 'unexpected Host header')
    if (request.headers.origin !== undefined && request.headers.origin !== origin)
      return plain(response, 403, 'cross-origin requests are refused')
    // Whose cookie the request is read with: the customer display's under /customer, the cashier's elsewhere.
    const view = viewOfPath(url.pathname)
    if (view === 'customer' && url.pathname.startsWith('/customer/v1/')) url.pathname = url.pathname.slice('/customer'.length)
    const sessionOf = (r: IncomingMessage): string | undefined => windowSessionOf(r.headers.cookie, view, service)
    if (url.pathname.startsWith('/v1/') || url.pathname === '/metrics') {
      if ((url.pathname === '/v1/health' || url.pathname === '/v1/openapi.json') && request.method === 'GET') {
        if (!admitted(request, response, undefined)) return
        return json(response, 200, url.pathname === '/v1/health' ? options.health() : openApiDocument())
      }
      const caller = callerOf(request, options.tokens, service, sessionOf(request))
      if (typeof caller === 'string') {
        if (caller === 'wrongToken') service.credentialRefused('pos', 'token')
        if (caller === 'wrongSession' || (caller === 'noSession' && sessionOf(request) !== undefined))
          service.credentialRefused('counter', 'session')
        if (!admitted(request, response, undefined)) return
        return unauthorised(response, caller)
      }
      if (!admitted(request, response, caller)) return
      if (url.pathname === '/v1/launch' && request.method === 'POST') return launch(request, response, caller)
      if (url.pathname === '/metrics' && request.method === 'GET') return metrics(response, caller)
      if (url.pathname === '/v1/events' && request.method === 'GET') {
        const resume = parseResumePoint(request.headers['last-event-id']?.toString() ?? url.searchParams.get('lastEventId'))
        if (resume === 'invalid') return refuse(response, 'INVALID_REQUEST', 'Last-Event-ID must be an event id this stream sent')
        const allowed = await service.dispatch(caller, 'snapshot', {})
        if (!allowed.ok) return json(response, httpStatusOf(allowed.error.code), allowed)
        const key = callerKey(caller)
        const opener = service.openerOf(caller)
        if (streams.countFor(key) >= limits.streamsPerCaller)
          return refuse(response, 'TOO_MANY_STREAMS', `this caller has ${limits.streamsPerCaller} event streams open already`)
        if (streams.countForOpener(opener) >= limits.streamsPerOpener)
          return refuse(
            response,
            'TOO_MANY_STREAMS',
            `this caller and the others its opener opened have ${limits.streamsPerOpener} event streams open already`,
          )
        return streams.open(response, resume, { owner: key, opener })
      }
      const op = /^\/v1\/ops\/([A-Za-z]+)$/.exec(url.pathname)
      if (op && request.method === 'POST') return operation(op[1]!, request, response, caller)
      return refuse(response, 'NOT_FOUND', `no route ${request.method} ${url.pathname}`)
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(response, 405, 'method not allowed')
    // A launch link opens a session once: its cookie authorises the window's own calls, then the
    // address bar loses the nonce. A page loaded without one gets no session (it says how to open it).
    const nonce = url.searchParams.get('launch')
    if (nonce !== null) {
      // A page of another site (another port of this machine) navigating here with a link of its own
      // must not swap a working window's session for one it holds: such a link opens nothing.
      const site = request.headers['sec-fetch-site']
      const fromElsewhere = site !== undefined && site !== 'none' && site !== 'same-origin'
      const working = service.windowCaller(sessionOf(request))
      if (fromElsewhere && working) {
        if (!admitted(request, response, working)) return
        response.writeHead(303, { location: '/', 'cache-control': 'no-store' }).end()
        return
      }
      let full = false
      const session = service.openWindow(nonce, (why) => (full = why === 'tooManyWindows'))
      const opened = session ? service.windowCaller(session.id) : undefined
      if (!admitted(request, response, opened)) return
      if (full) return page(response, 429, WINDOWS_FULL_PAGE)
      if (session) response.setHeader('set-cookie', sessionCookie(session.id, session.view))
      url.searchParams.delete('launch')
      // Each window to its own page, where its own cookie is sent.
      const pathname = session ? (session.view === 'customer' ? '/customer' : '/') : url.pathname
      response.writeHead(303, { location: `${pathname}${url.search}`, 'cache-control': 'no-store' }).end()
      return
    }
    // A paired window loading its page keeps its cookie another while (the session's own idle limit is the service's).
    const cookieSession = sessionOf(request)
    const window = service.windowCaller(cookieSession)
    if (!admitted(request, response, window)) return
    if (cookieSession !== undefined && window) response.setHeader('set-cookie', sessionCookie(cookieSession, view))
    // The page's CSP names the Electron origin; in the browser it is this server, which it also calls.
    const csp = contentSecurityPolicy(origin, true)
    response.setHeader('content-security-policy', `${csp}; frame-ancestors 'none'`)
    await serveStatic(options.rendererRoot, url.pathname, response, (html) =>
      html.replace(/(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/, `$1${csp}$2`),
    )
  }

  /** A body as JSON, or the refusal already sent (413 for a body too large, 400 for one that is not JSON). */
  async function bodyOf(request: IncomingMessage, response: ServerResponse): Promise<{ body: unknown } | undefined> {
    try {
      const text = await readBody(request)
      return { body: text.length === 0 ? {} : JSON.parse(text) }
    } catch (error) {
      if (error instanceof BodyTooLargeError) sendBodyTooLarge(response, error.limit)
      else refuse(response, 'INVALID_REQUEST', error instanceof Error ? `the body is not JSON: ${error.message}` : 'unreadable body')
      return undefined
    }
  }

  async function launch(request: IncomingMessage, response: ServerResponse, caller: Caller): Promise<void> {
    const read = await bodyOf(request, response)
    if (!read) return
    const view = (read.body as { view?: unknown } | null)?.view
    if (view !== undefined && view !== 'cashier' && view !== 'customer')
      return refuse(response, 'INVALID_REQUEST', 'view is "cashier" or "customer"')
    const result = await service.dispatch(caller, view === 'customer' ? 'openCustomerDisplay' : 'openCashierWindow', {})
    json(response, result.ok ? 200 : httpStatusOf(result.error.code), result)
  }

  async function operation(name: string, request: IncomingMessage, response: ServerResponse, caller: Caller): Promise<void> {
    const read = await bodyOf(request, response)
    if (!read) return
    const result = await service.dispatch(caller, name, read.body)
    // The status of a refusal is the catalogue's (src-shared/errors), as is everything else about it.
    json(response, result.ok ? 200 : httpStatusOf(result.error.code), result)
  }

  async function metrics(response: ServerResponse, caller: Caller): Promise<void> {
    const result = await service.dispatch(caller, 'metrics', {})
    if (!result.ok) return json(response, httpStatusOf(result.error.code), result)
    const scrape = result.value as { contentType: string; text: string }
    response.writeHead(200, { 'content-type': scrape.contentType, 'cache-control': 'no-store' }).end(scrape.text)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    if (options.listenFd !== undefined) server.listen({ fd: options.listenFd }, resolve)
    else server.listen(options.port, '127.0.0.1', resolve)
  })
  const address = server.address() as AddressInfo
  // A handed-over socket must be loopback too: the API is for this machine only.
  if (address.address !== '127.0.0.1') {
    server.close()
    throw new Error(`the socket handed over listens on ${address.address}, not 127.0.0.1: the local API stays on this machine`)
  }
  const { port } = address
  origin = `http://127.0.0.1:${port}`
  return {
    url: origin,
    limits,
    fileLimit,
    launchUrl: (view: SessionView = 'cashier') => service.ownerLink(view),
    close: () =>
      new Promise((resolve) => {
        service.off('callerEnded', onCallerEnded)
        streams.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function hostAllowed(host: string | undefined, origin: string): boolean {
  const port = origin.slice(origin.lastIndexOf(':') + 1)
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

/**
 * Who is calling: a POS with a token (the installation token, or an integrator token in force); a
 * window opened from a launch link, by its session cookie. Otherwise: no credential at all, a wrong
 * token, or a browser page without a session (never launched, or launched before the agent
 * restarted), told apart by the Fetch Metadata headers a browser adds.
 */
function callerOf(
  request: IncomingMessage,
  tokens: TokenCheck,
  service: AgentService,
  session: string | undefined,
): Caller | Unauthenticated {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
  if (bearer !== undefined) {
    const token = tokens.grantOf(bearer)
    return token ? { door: 'pos', token } : 'wrongToken'
  }
  const caller = service.windowCaller(session)
  if (caller) return caller
  if (request.headers['sec-fetch-site'] !== undefined) return 'noSession'
  return session === undefined ? 'missing' : 'wrongSession'
}

/** Why a call has no caller: no credential, a wrong token, a session of no window, a browser page without a session. */
type Unauthenticated = 'missing' | 'wrongToken' | 'wrongSession' | 'noSession'

/**
 * A missing and a wrong token are told apart the way RFC 6750 §3 says: the challenge carries
 * `error="invalid_token"` only when a token was sent, and the message says which it was.
 */
function unauthorised(response: ServerResponse, why: Unauthenticated): void {
  if (why === 'noSession')
    return refuse(
      response,
      'SESSION_REQUIRED',
      'this page has no session: open it from a launch link (POST /v1/launch, or the one serve printed)',
    )
  const challenge = 'Bearer realm="pos-agent"'
  response.setHeader('www-authenticate', why === 'missing' ? challenge : `${challenge}, error="invalid_token"`)
  refuse(
    response,
    why === 'missing' ? 'UNAUTHORISED' : 'TOKEN_INVALID',
    why === 'missing'
      ? 'no token: send "Authorization: Bearer <token>" with the token from <data folder>/api-token (docs/local-api.md)'
      : 'the token is wrong: it is not the one in <data folder>/api-token, which may have been made anew (docs/local-api.md)',
  )
}

function refuse(response: ServerResponse, code: ErrorCode, message: string): void {
  json(response, httpStatusOf(code), failed(code, message))
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text)
}

/** What a launch link shows when it opens no window because its opener's windows are all in use. */
const WINDOWS_FULL_PAGE = `<!doctype html><meta charset="utf-8"><title>No window opened</title>
<p>This link opened no window: the program or window that made it already has every window it may open in use.</p>
<p>Close one of those windows, or ask a manager to end one in Settings, then ask for a new link.</p>`

function page(response: ServerResponse, status: number, html: string): void {
  response
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'",
    })
    .end(html)
}
