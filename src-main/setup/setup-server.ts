/**
 * The setup page's server: 127.0.0.1 only, opened once from the launch link `pos-agent setup` prints
 * (the local server's launch sessions: a one-time nonce becomes an HttpOnly session cookie). It
 * serves the screen at /setup and two calls: GET /setup/state and POST /setup/submit. The Host header
 * must name this server and a present Origin must be this server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { json, readBody, serveStatic } from '../api'
import { WindowSessions } from '../service'
import { contentSecurityPolicy } from '../../src-shared/contract'
import type { SetupForm } from '../../src-shared/setup-form'
import type { FirstRunSetup } from './first-run-setup'

export interface SetupServer {
  url: string
  /** A one-time link to the setup page. */
  launchUrl(): string
  close(): Promise<void>
}

export async function startSetupServer(options: { port: number; rendererRoot: string; setup: FirstRunSetup }): Promise<SetupServer> {
  const sessions = new WindowSessions()
  let origin = ''
  const server = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) json(response, 500, { ok: false, problems: { form: 'Something went wrong. Nothing more was changed.' } })
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin)
    const port = origin.slice(origin.lastIndexOf(':') + 1)
    if (request.headers.host !== `127.0.0.1:${port}` && request.headers.host !== `localhost:${port}`)
      return void response.writeHead(421).end('unexpected Host header')
    if (request.headers.origin !== undefined && request.headers.origin !== origin)
      return void response.writeHead(403).end('cross-origin requests are refused')
    const session = /(?:^|;\s*)pos_setup=([^;]+)/.exec(request.headers.cookie ?? '')?.[1]
    const open = sessions.sessionView(session) !== undefined
    if (url.pathname === '/setup/state' || url.pathname === '/setup/submit') {
      if (!open) return json(response, 401, { ok: false, problems: { form: 'Open this page from the link that setup printed.' } })
      if (url.pathname === '/setup/state' && request.method === 'GET') return json(response, 200, await options.setup.freshState())
      if (url.pathname === '/setup/submit' && request.method === 'POST') {
        let form: SetupForm
        try {
          form = JSON.parse(await readBody(request)) as SetupForm
        } catch {
          return json(response, 400, { ok: false, problems: { form: 'The form could not be read. Try again.' } })
        }
        return json(response, 200, await options.setup.submit(form))
      }
      return void response.writeHead(405).end()
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405).end()
    const nonce = url.searchParams.get('launch')
    if (nonce !== null) {
      const redeemed = sessions.redeem(nonce)
      if (redeemed) response.setHeader('set-cookie', `pos_setup=${redeemed.id}; HttpOnly; SameSite=Strict; Path=/`)
      response.writeHead(303, { location: '/setup', 'cache-control': 'no-store' }).end()
      return
    }
    const csp = contentSecurityPolicy(origin, true)
    response.setHeader('content-security-policy', `${csp}; frame-ancestors 'none'`)
    response.setHeader('cache-control', 'no-store')
    await serveStatic(options.rendererRoot, url.pathname, response, (html) =>
      html.replace(/(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/, `$1${csp}$2`),
    )
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', resolve)
  })
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: origin,
    launchUrl: () => `${origin}/setup?launch=${sessions.issue('cashier', { kind: 'owner' })}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
