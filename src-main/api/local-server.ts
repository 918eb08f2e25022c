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
 * page alone gives nothing. The `Host` header must name this server and a present `Origin` must be
 * this server (DNS rebinding and cross-site requests are refused). Who may do what is not decided
 * here: each call becomes `service.dispatch(caller, operation, request)` (src-main/service).
 * The server's own edges: a cap on connections, and time limits on a request's headers and body,
 * so that a local process holding connections open cannot stop the agent; a body past 64 KiB is
 * answered 413.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventStreams, parseResumePoint } from './event-stream'
import { openApiDocument } from './openapi-document'
import { BodyTooLargeError, json, readBody, sendBodyTooLarge } from './http-body'
import { serveStatic } from './static-files'
import { contentSecurityPolicy } from '../../src-shared/contract'
import { failed, httpStatusOf, type ErrorCode } from '../../src-shared/errors'
import { callerKey, WINDOW_IDLE_MS, type AgentService, type Caller, type SessionView, type TokenCheck } from '../service'

export interface LocalServerOptions {
  port: number
  rendererRoot: string
  service: AgentService
  /** Which token a bearer is (the installation token, or an integrator token in force). */
  tokens: TokenCheck
  health: () => Record<string, unknown>
  /** How often an idle event stream gets a `heartbeat` event, in ms (15 s by default). */
  heartbeatMs?: number
  /** The server's edges, when not SERVER_LIMITS (a test's shorter time limits). */
  limits?: Partial<ServerLimits>
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
   * Above the 1,024 open files a process gets by default: one local program alone cannot hold them
   * all, and each caller's own event streams are capped below (the way to hold many of them).
   */
  maxConnections: 2_048,
  /** Event streams one window or token may hold open at once (a window needs one, a POS one or two). */
  streamsPerCaller: 4,
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

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const { service } = options
  const streams = new EventStreams(service, options.heartbeatMs ?? 15_000)
  let origin = ''
  const limits = { ...SERVER_LIMITS, ...options.limits }
  const server: Server = createServer(serverTimeouts(limits), (request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end()
    })
  })
  server.maxConnections = limits.maxConnections
  service.serveWindows((view, nonce) => `${origin}${view === 'customer' ? '/customer' : '/'}?launch=${nonce}`)
  // A window or token whose access ended loses its open event streams too.
  const onCallerEnded = (key: string): void => streams.closeFor(key)
  service.on('callerEnded', onCallerEnded)

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin)
    if (!hostAllowed(request.headers.host, origin)) return plain(response, 421, 'unexpected Host header')
    if (request.headers.origin !== undefined && request.headers.origin !== origin)
      return plain(response, 403, 'cross-origin requests are refused')
    if (url.pathname === '/v1/health' && request.method === 'GET') return json(response, 200, options.health())
    if (url.pathname === '/v1/openapi.json' && request.method === 'GET') return json(response, 200, openApiDocument())
    if (url.pathname.startsWith('/v1/') || url.pathname === '/metrics') {
      const caller = callerOf(request, options.tokens, service)
      if (typeof caller === 'string') return unauthorised(response, caller)
      if (url.pathname === '/v1/launch' && request.method === 'POST') return launch(request, response, caller)
      if (url.pathname === '/metrics' && request.method === 'GET') return metrics(response, caller)
      if (url.pathname === '/v1/events' && request.method === 'GET') {
        const resume = parseResumePoint(request.headers['last-event-id']?.toString() ?? url.searchParams.get('lastEventId'))
        if (resume === 'invalid') return refuse(response, 'INVALID_REQUEST', 'Last-Event-ID must be an event id this stream sent')
        const allowed = await service.dispatch(caller, 'snapshot', {})
        if (!allowed.ok) return json(response, httpStatusOf(allowed.error.code), allowed)
        const key = callerKey(caller)
        if (streams.countFor(key) >= limits.streamsPerCaller)
          return refuse(response, 'TOO_MANY_STREAMS', `this caller has ${limits.streamsPerCaller} event streams open already`)
        return streams.open(response, resume, key)
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
      if (fromElsewhere && service.windowCaller(cookieOf(request))) {
        response.writeHead(303, { location: '/', 'cache-control': 'no-store' }).end()
        return
      }
      const session = service.windows.redeem(nonce)
      if (session) response.setHeader('set-cookie', sessionCookie(session.id))
      url.searchParams.delete('launch')
      response.writeHead(303, { location: `${url.pathname}${url.search}`, 'cache-control': 'no-store' }).end()
      return
    }
    // A paired window loading its page keeps its cookie another while (the session's own idle limit is the service's).
    const cookieSession = cookieOf(request)
    if (cookieSession !== undefined && service.windowCaller(cookieSession)) response.setHeader('set-cookie', sessionCookie(cookieSession))
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

/**
 * A paired window's cookie: HttpOnly and SameSite=Strict, never a token; kept by the browser across
 * the agent's restarts (and its own) for as long as a window may stay unused, so the window
 * reconnects by itself.
 */
function sessionCookie(id: string): string {
  return `pos_session=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(WINDOW_IDLE_MS / 1000)}`
}

function cookieOf(request: IncomingMessage): string | undefined {
  return /(?:^|;\s*)pos_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1]
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
function callerOf(request: IncomingMessage, tokens: TokenCheck, service: AgentService): Caller | 'missing' | 'wrong' | 'noSession' {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
  if (bearer !== undefined) {
    const token = tokens.grantOf(bearer)
    return token ? { door: 'pos', token } : 'wrong'
  }
  const session = cookieOf(request)
  const caller = service.windowCaller(session)
  if (caller) return caller
  if (request.headers['sec-fetch-site'] !== undefined) return 'noSession'
  return session === undefined ? 'missing' : 'wrong'
}

/**
 * A missing and a wrong token are told apart the way RFC 6750 §3 says: the challenge carries
 * `error="invalid_token"` only when a token was sent, and the message says which it was.
 */
function unauthorised(response: ServerResponse, why: 'missing' | 'wrong' | 'noSession'): void {
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
