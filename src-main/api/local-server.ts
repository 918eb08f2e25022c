/**
 * The agent without Electron: an HTTP server bound to 127.0.0.1 only. It serves the cashier UI at `/`
 * and the integration API under /v1 (docs/local-api.md):
 * - `POST /v1/ops/{operation}`: one contract operation, JSON in, `{ ok, value | error }` out;
 * - `GET /v1/events`: server-sent events (sale, queue, device, alarm);
 * - `GET /v1/health`: unauthenticated liveness.
 * Every /v1 call needs the bearer token (or the same-site session cookie the UI page carries); the
 * `Host` header must name this server and a present `Origin` must be this server (DNS rebinding and
 * cross-site requests are refused).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { timingSafeEqual } from 'node:crypto'
import type { AgentOperations } from './agent-operations'
import { serveStatic } from './static-files'
import { contentSecurityPolicy, type SaleOrigin } from '../../src-shared/contract'
import { failed, httpStatusOf, type ErrorCode } from '../../src-shared/errors'

export interface LocalServerOptions {
  port: number
  rendererRoot: string
  operations: AgentOperations
  token: string
  health: () => Record<string, unknown>
}

export interface LocalServer {
  url: string
  close(): Promise<void>
}

const MAX_BODY_BYTES = 64 * 1024

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const streams = new Set<ServerResponse>()
  let origin = ''
  const server: Server = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end()
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin)
    if (!hostAllowed(request.headers.host, origin)) return plain(response, 421, 'unexpected Host header')
    if (request.headers.origin !== undefined && request.headers.origin !== origin)
      return plain(response, 403, 'cross-origin requests are refused')
    if (url.pathname === '/v1/health' && request.method === 'GET') return json(response, 200, options.health())
    if (url.pathname.startsWith('/v1/')) {
      const caller = callerOf(request, options.token)
      if (caller === undefined) return refuse(response, 'UNAUTHORISED', 'a bearer token is required (see docs/local-api.md)')
      if (url.pathname === '/v1/events' && request.method === 'GET') return openStream(response)
      const op = /^\/v1\/ops\/([A-Za-z]+)$/.exec(url.pathname)
      if (op && request.method === 'POST') return operation(op[1]!, request, response, caller)
      return refuse(response, 'NOT_FOUND', `no route ${request.method} ${url.pathname}`)
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(response, 405, 'method not allowed')
    // The UI page carries a same-site session cookie so the browser's own calls are authorised.
    response.setHeader('set-cookie', `pos_session=${options.token}; HttpOnly; SameSite=Strict; Path=/`)
    // The page's CSP names the Electron origin; in the browser it is this server, which it also calls.
    const csp = contentSecurityPolicy(origin, true)
    response.setHeader('content-security-policy', `${csp}; frame-ancestors 'none'`)
    await serveStatic(options.rendererRoot, url.pathname, response, (html) =>
      html.replace(/(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/, `$1${csp}$2`),
    )
  }

  async function operation(name: string, request: IncomingMessage, response: ServerResponse, caller: SaleOrigin): Promise<void> {
    let body: unknown
    try {
      const text = await readBody(request)
      body = text.length === 0 ? {} : JSON.parse(text)
    } catch (error) {
      return refuse(response, 'INVALID_REQUEST', error instanceof Error ? error.message : 'unreadable body')
    }
    const result = await options.operations.dispatch(name, body, caller)
    // The status of a refusal is the catalogue's (src-shared/errors), as is everything else about it.
    json(response, result.ok ? 200 : httpStatusOf(result.error.code), result)
  }

  function openStream(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    response.write(': connected\n\n')
    streams.add(response)
    response.on('close', () => streams.delete(response))
  }

  const onEvent = (event: unknown) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`
    for (const stream of streams) stream.write(frame)
  }
  options.operations.on('event', onEvent)
  const keepAlive = setInterval(() => streams.forEach((s) => s.write(': keep-alive\n\n')), 15_000)
  keepAlive.unref()

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  origin = `http://127.0.0.1:${port}`
  return {
    url: origin,
    close: () =>
      new Promise((resolve) => {
        clearInterval(keepAlive)
        options.operations.off('event', onEvent)
        streams.forEach((s) => s.end())
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
 * Who is calling, once authorised: the POS holds the bearer token; the cashier's page carries the
 * session cookie this server set when it served the page. Undefined: neither is valid.
 */
function callerOf(request: IncomingMessage, token: string): SaleOrigin | undefined {
  const matches = (given: string | undefined) =>
    given !== undefined && given.length === token.length && timingSafeEqual(Buffer.from(given), Buffer.from(token))
  if (matches(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1])) return 'pos'
  if (matches(/(?:^|;\s*)pos_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1])) return 'counter'
  return undefined
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`the request body is larger than ${MAX_BODY_BYTES} bytes`))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(value))
}

function refuse(response: ServerResponse, code: ErrorCode, message: string): void {
  json(response, httpStatusOf(code), failed(code, message))
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text)
}
