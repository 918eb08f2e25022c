/**
 * The local API on a real engine for tests: a training host, a scripted reader, the dispatcher and the
 * HTTP server on 127.0.0.1 (port 0), with helpers that call it as an integrator would.
 */
import { request as httpRequest } from 'node:http'
import { startLocalServer, type LocalServer, type LocalServerOptions, type MetricsEndpoint } from '../../../src-main/api/local-server'
import type { AgentService } from '../../../src-main/service'
import { IntegratorTokens, loadOrCreateApiToken, TokenCheck } from '../../../src-main/service'
import { testService } from '../../support/service-harness'
import type { EngineSettings } from '../../../src-main/app/compose'
import type { ReceiptDesk } from '../../../src-main/receipts'
import { ScriptedCardReader } from '../../fakes/scripted-card-reader'
import { startEngineHarness, testSettings, type EngineHarness } from '../../support/engine-harness'
import { SseClient } from './sse-client'

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface ApiHarness {
  engine: EngineHarness
  reader: ScriptedCardReader
  service: AgentService
  /** The integrator tokens a manager made. */
  tokens: IntegratorTokens
  server: LocalServer
  token: string
  call(method: string, path: string, options?: { body?: string; headers?: Record<string, string> }): Promise<Reply>
  /** An operation as the POS calls it, with the bearer token; the answer's JSON. */
  op(name: string, body: unknown): Promise<{ status: number; json: { ok: boolean; value: { id: string; [field: string]: unknown } } }>
  events(headers?: Record<string, string>, query?: string): Promise<SseClient>
  /** The session cookie of a cashier window opened from a launch link (`pos_session=…`). */
  cashierSession(): Promise<string>
  close(): Promise<void>
}

export async function startApiHarness(
  options: {
    reader?: ScriptedCardReader
    engine?: Partial<EngineSettings>
    server?: Partial<Pick<LocalServerOptions, 'heartbeatMs' | 'limits'>>
    metrics?: MetricsEndpoint
    /** Where receipts go besides the screen (none unless given). */
    receipts?: ReceiptDesk
  } = {},
): Promise<ApiHarness> {
  const reader = options.reader ?? new ScriptedCardReader()
  const engine = await startEngineHarness(reader, options.engine)
  const token = loadOrCreateApiToken(engine.dir).token
  const tokens = new IntegratorTokens(engine.dir)
  const service = testService(engine, reader, {
    tokens,
    retry: testSettings(engine.dir, options.engine).retry!,
    ...(options.receipts ? { receipts: options.receipts } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  })
  const server = await startLocalServer({
    port: 0,
    rendererRoot: engine.dir,
    service,
    tokens: new TokenCheck(token, tokens),
    health: () => ({ ok: true }),
    ...options.server,
  })
  const call: ApiHarness['call'] = (method, path, init = {}) => {
    const url = new URL(path, server.url)
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method, headers: { host: url.host, ...init.headers } }, (res) => {
        let body = ''
        res.on('data', (d: Buffer) => (body += d.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      req.on('error', reject)
      req.end(init.body)
    })
  }
  return {
    engine,
    reader,
    service,
    tokens,
    server,
    token,
    call,
    async op(name, body) {
      const reply = await call('POST', `/v1/ops/${name}`, {
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      })
      return { status: reply.status, json: JSON.parse(reply.body) }
    },
    async cashierSession() {
      const link = new URL(server.launchUrl())
      const opened = await call('GET', `${link.pathname}${link.search}`)
      return String(opened.headers['set-cookie']).split(';')[0]!
    },
    events: (headers = {}, query = '') =>
      SseClient.open(`${server.url}/v1/events${query}`, { authorization: `Bearer ${token}`, ...headers }),
    async close() {
      await server.close()
      service.close()
      await engine.close()
    },
  }
}
