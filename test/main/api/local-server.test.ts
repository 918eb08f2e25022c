/**
 * The local API over real HTTP on 127.0.0.1: authentication, Host and Origin checks, operations,
 * idempotent sale references, server-sent events.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentService } from '../../../src-main/service'
import { IntegratorTokens, loadOrCreateApiToken, TokenCheck } from '../../../src-main/service'
import { startLocalServer, type LocalServer } from '../../../src-main/api/local-server'
import { DEFAULT_RETRY_POLICY } from '../../../src-main/txn/retry-policy'
import { contentSecurityPolicy, ELECTRON_APP_ORIGIN } from '../../../src-shared/contract/csp'
import { ERROR_CATALOGUE } from '../../../src-shared/errors'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { SseClient } from './sse-client'
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness'
import { testService } from '../../support/service-harness'

let harness: EngineHarness
let server: LocalServer
let operations: AgentService
let token: string
let tokens: IntegratorTokens
const reader = new ScriptedCardReader()
const ui = mkdtempSync(join(tmpdir(), 'pos-ui-'))

beforeAll(async () => {
  harness = await startEngineHarness(reader)
  token = loadOrCreateApiToken(harness.dir).token
  tokens = new IntegratorTokens(harness.dir)
  mkdirSync(ui, { recursive: true })
  // the real shell's head, so the CSP rewrite is tested on what the build ships
  writeFileSync(join(ui, 'index.html'), readFileSync('src-renderer/index.html', 'utf8'))
  operations = testService(harness, reader, { tokens, retry: DEFAULT_RETRY_POLICY })
  server = await startLocalServer({
    port: 0,
    rendererRoot: ui,
    service: operations,
    tokens: new TokenCheck(token, tokens),
    health: () => ({ ok: true }),
  })
})
afterAll(async () => {
  await server.close()
  operations.close()
  await harness.close()
  rmSync(ui, { recursive: true, force: true })
})

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}
function call(method: string, path: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const url = new URL(path, server.url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { host: url.host, ...options.headers } }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}
const op = (name: string, body: unknown, headers: Record<string, string> = {}) =>
  call('POST', `/v1/ops/${name}`, {
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
  })

describe('security of the local API', () => {
  it('keeps its token in a 0600 file and reuses it', () => {
    const file = join(harness.dir, 'api-token')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readFileSync(file, 'utf8').trim()).toBe(token)
    expect(loadOrCreateApiToken(harness.dir).token).toBe(token)
  })

  it('refuses calls without the token, with a wrong one, with a foreign Host or Origin', async () => {
    expect((await call('POST', '/v1/ops/appInfo', { body: '{}' })).status).toBe(401)
    expect((await op('appInfo', {}, { authorization: `Bearer ${token.replace(/.$/, token.endsWith('x') ? 'y' : 'x')}` })).status).toBe(401)
    expect((await op('appInfo', {}, { host: 'evil.example:80' })).status).toBe(421)
    expect((await op('appInfo', {}, { origin: 'http://evil.example' })).status).toBe(403)
    expect((await op('appInfo', {}, { origin: server.url })).status).toBe(200)
  })

  it('tells a missing token from a wrong one (RFC 6750 challenge and message), on operations, events and metrics', async () => {
    const wrongToken = token.replace(/^./, token.startsWith('A') ? 'B' : 'A')
    for (const [method, path] of [
      ['POST', '/v1/ops/appInfo'],
      ['GET', '/v1/events'],
      ['GET', '/metrics'],
    ] as const) {
      const missing = await call(method, path, { body: method === 'POST' ? '{}' : undefined })
      const wrong = await call(method, path, {
        body: method === 'POST' ? '{}' : undefined,
        headers: { authorization: `Bearer ${wrongToken}` },
      })
      const badCookie = await call(method, path, { headers: { cookie: 'pos_session=not-the-token' } })
      for (const reply of [missing, wrong, badCookie]) expect(reply.status).toBe(401)
      expect(JSON.parse(missing.body).error.code).toBe('UNAUTHORISED')
      for (const reply of [wrong, badCookie]) expect(JSON.parse(reply.body).error.code).toBe('TOKEN_INVALID')
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="pos-agent"')
      expect(JSON.parse(missing.body).error.message).toMatch(/^no token/)
      for (const reply of [wrong, badCookie]) {
        expect(reply.headers['www-authenticate']).toBe('Bearer realm="pos-agent", error="invalid_token"')
        expect(JSON.parse(reply.body).error.message).toMatch(/^the token is wrong/)
      }
    }
  })

  it('a token with a byte outside ASCII, or of another length, is a wrong token (401), never an error of the agent', async () => {
    // The header carries Latin-1: 'é' and 'ÿ' arrive as one character each, two bytes each in UTF-8.
    const tried = [
      token.replace(/^./, 'é'),
      token.replace(/.$/, 'ÿ'),
      'é'.repeat(token.length),
      `${token}é`,
      token.slice(0, -1),
      `${token}${token}`,
      'x',
    ]
    for (const given of tried) {
      for (const [method, path] of [
        ['POST', '/v1/ops/appInfo'],
        ['GET', '/v1/events'],
        ['GET', '/metrics'],
      ] as const) {
        const reply = await call(method, path, {
          body: method === 'POST' ? '{}' : undefined,
          headers: { authorization: `Bearer ${given}` },
        })
        expect({ given, path, status: reply.status, code: JSON.parse(reply.body).error?.code }).toEqual({
          given,
          path,
          status: 401,
          code: 'TOKEN_INVALID',
        })
      }
    }
    // The right token still opens it.
    expect((await op('appInfo', {})).status).toBe(200)
  })

  it('the shipped page carries the Electron CSP, and the server rewrites it for its own origin', async () => {
    expect(readFileSync('src-renderer/index.html', 'utf8')).toContain(`content="${contentSecurityPolicy(ELECTRON_APP_ORIGIN, false)}"`)
    const page = await call('GET', '/')
    const csp = contentSecurityPolicy(server.url, true)
    expect(page.body).toContain(`content="${csp}"`)
    expect(page.headers['content-security-policy']).toBe(`${csp}; frame-ancestors 'none'`)
    expect(csp).not.toMatch(/'self' |'unsafe-inline'|script-src 'self'/)
  })

  it('loading the page gives no session; a launch link does, once, then leaves the address bar', async () => {
    const page = await call('GET', '/')
    expect(page.status).toBe(200)
    expect(page.headers['set-cookie']).toBeUndefined()
    // A browser page without a session is told how to open the screen, apart from a program without a token.
    const fromPage = await call('POST', '/v1/ops/appInfo', { body: '{}', headers: { 'sec-fetch-site': 'same-origin' } })
    expect(fromPage.status).toBe(401)
    expect(JSON.parse(fromPage.body).error.code).toBe('SESSION_REQUIRED')

    const link = new URL(server.launchUrl())
    const opened = await call('GET', `${link.pathname}${link.search}`)
    expect(opened.status).toBe(303)
    expect(opened.headers.location).toBe('/')
    const cookie = String(opened.headers['set-cookie'])
    expect(cookie).toMatch(/^pos_session=[\w-]{40,}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800$/)
    // The session is not the API token.
    expect(cookie).not.toContain(token)
    const session = cookie.split(';')[0]!
    expect((await call('POST', '/v1/ops/appInfo', { body: '{}', headers: { cookie: session } })).status).toBe(200)
    // The same link again opens nothing.
    expect((await call('GET', `${link.pathname}${link.search}`)).headers['set-cookie']).toBeUndefined()
    // A made-up session is no session.
    expect((await call('POST', '/v1/ops/appInfo', { body: '{}', headers: { cookie: 'pos_session=made-up' } })).status).toBe(401)
  })

  it('POST /v1/launch: a link for the POS with its token or for the cashier window; a customer display session only reads', async () => {
    expect((await call('POST', '/v1/launch', { body: '{}' })).status).toBe(401)
    const asked = await call('POST', '/v1/launch', { body: '{"view":"customer"}', headers: { authorization: `Bearer ${token}` } })
    const link = new URL(JSON.parse(asked.body).value.url as string)
    expect(link.pathname).toBe('/customer')
    const opened = await call('GET', `${link.pathname}${link.search}`)
    expect(opened.headers.location).toBe('/customer')
    // The display's own cookie, sent only under /customer, where it calls the API: a cashier tab's stays as it was.
    const setCookie = String(opened.headers['set-cookie'])
    expect(setCookie).toMatch(/^pos_display=[\w-]{40,}; HttpOnly; SameSite=Strict; Path=\/customer; Max-Age=604800$/)
    const display = setCookie.split(';')[0]!
    const reads = await call('POST', '/customer/v1/ops/listSales', { body: '{}', headers: { cookie: display } })
    expect(reads.status).toBe(200)
    const acts = await call('POST', '/customer/v1/ops/startSale', { body: '{"amountMinor":100}', headers: { cookie: display } })
    expect(acts.status).toBe(403)
    expect((await call('POST', '/customer/v1/launch', { body: '{}', headers: { cookie: display } })).status).toBe(403)
    // Outside /customer the display's session is none; a display session in the cashier's cookie name
    // (a display opened before displays had their own) is still the display's under /customer only.
    const session = display.slice('pos_display='.length)
    expect((await call('POST', '/v1/ops/listSales', { body: '{}', headers: { cookie: `pos_display=${session}` } })).status).toBe(401)
    expect((await call('POST', '/v1/ops/listSales', { body: '{}', headers: { cookie: `pos_session=${session}` } })).status).toBe(401)
    expect((await call('POST', '/customer/v1/ops/listSales', { body: '{}', headers: { cookie: `pos_session=${session}` } })).status).toBe(
      200,
    )
    // A cashier's session is never a display's, nor the other way round, whichever cookie carries it.
    const cashierLink = new URL(server.launchUrl())
    const cashier = String((await call('GET', `${cashierLink.pathname}${cashierLink.search}`)).headers['set-cookie']).split(';')[0]!
    expect(cashier).toMatch(/^pos_session=/)
    const both = `${cashier}; ${display}`
    expect((await call('POST', '/v1/ops/dayReport', { body: '{}', headers: { cookie: both } })).status).toBe(200)
    expect((await call('POST', '/customer/v1/ops/dayReport', { body: '{}', headers: { cookie: both } })).status).toBe(403)
    const cashierAsDisplay = `pos_display=${cashier.slice('pos_session='.length)}`
    expect((await call('POST', '/customer/v1/ops/listSales', { body: '{}', headers: { cookie: cashierAsDisplay } })).status).toBe(401)
    expect((await call('GET', '/metrics', { headers: { cookie: display } })).status).not.toBe(200)
    expect((await call('POST', '/v1/launch', { body: '{"view":"kitchen"}', headers: { authorization: `Bearer ${token}` } })).status).toBe(
      400,
    )
  })

  it('integrator tokens: a manager at the cashier window creates one (shown once), it opens the API, and revoked it opens nothing', async () => {
    const link = new URL(server.launchUrl())
    const cashier = String((await call('GET', `${link.pathname}${link.search}`)).headers['set-cookie']).split(';')[0]!
    const asCashier = (name: string, body: unknown) =>
      call('POST', `/v1/ops/${name}`, { body: JSON.stringify(body), headers: { cookie: cashier, 'content-type': 'application/json' } })
    const created = JSON.parse((await asCashier('createToken', { name: 'Back-office POS' })).body)
    expect(created).toMatchObject({ ok: true, value: { integrator: { name: 'Back-office POS' } } })
    const integratorToken = created.value.token as string
    const asIntegrator = (bearer: string) => call('POST', '/v1/ops/appInfo', { body: '{}', headers: { authorization: `Bearer ${bearer}` } })
    expect((await asIntegrator(integratorToken)).status).toBe(200)
    // Listed without the token; stored as a hash only.
    const listed = JSON.parse((await asCashier('listTokens', {})).body)
    expect(JSON.stringify(listed)).not.toContain(integratorToken)
    expect(readFileSync(join(harness.dir, 'integrator-tokens.json'), 'utf8')).not.toContain(integratorToken)
    expect(statSync(join(harness.dir, 'integrator-tokens.json')).mode & 0o777).toBe(0o600)
    expect(listed.value.find((t: { id: string }) => t.id === created.value.integrator.id).lastUsedAt).toBeTypeOf('number')
    // A POS's token (read and sell by default) cannot manage tokens; the installation token is the
    // machine owner's (admin) and may list them.
    expect(created.value.integrator.scopes).toEqual(['read', 'sell'])
    const byPos = await call('POST', '/v1/ops/createToken', {
      body: '{"name":"mine"}',
      headers: { authorization: `Bearer ${integratorToken}` },
    })
    expect(byPos.status).toBe(403)
    expect(JSON.parse(byPos.body).error.message).toMatch(/"admin" scope/)
    expect((await call('POST', '/v1/ops/listTokens', { body: '{}', headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
    expect(JSON.parse((await asCashier('revokeToken', { id: created.value.integrator.id })).body).value.revokedAt).toBeTypeOf('number')
    const refused = await asIntegrator(integratorToken)
    expect(refused.status).toBe(401)
    expect(JSON.parse(refused.body).error.code).toBe('TOKEN_INVALID')
    // The installation token still works, and a fresh store reads what was written.
    expect((await asIntegrator(token)).status).toBe(200)
    expect(new IntegratorTokens(harness.dir).list()[0]).toMatchObject({ name: 'Back-office POS', revokedAt: expect.any(Number) })
  })
})

describe('operations', () => {
  it('validates requests and refuses garbage with a clear error', async () => {
    expect(JSON.parse((await op('startSale', { amountMinor: -5 })).body)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', message: expect.stringMatching(/amountMinor/) },
    })
    const garbage = await call('POST', '/v1/ops/startSale', { body: '{"amountMinor": ', headers: { authorization: `Bearer ${token}` } })
    expect(garbage.status).toBe(400)
    expect((await op('noSuchThing', {})).status).toBe(404)
  })

  it('runs a sale; repeating its reference returns the same sale; another amount under it is refused (409)', async () => {
    reader.present({ card: TEST_CARDS.chipVisa() })
    const first = JSON.parse((await op('startSale', { amountMinor: 1234, reference: 'ECR-42' })).body)
    expect(first).toMatchObject({ ok: true, value: { amountMinor: 1234, currency: 'USD', reference: 'ECR-42' } })
    const outcome = await harness.engine.txn.waitForOutcome(first.value.id)
    expect(outcome.state).toBe('approved')
    const again = JSON.parse((await op('startSale', { amountMinor: 1234, reference: 'ECR-42' })).body)
    expect(again.value).toMatchObject({ id: first.value.id, state: 'approved' })
    const clash = await op('startSale', { amountMinor: 999, reference: 'ECR-42' })
    expect(clash.status).toBe(409)
    expect(JSON.parse(clash.body).error.code).toBe('REFERENCE_REUSED')
    expect(harness.host.ledger().payments.filter((p) => p.merchantTransID === first.value.id)).toHaveLength(1)
  })

  it('finds a sale by the POS reference, and says plainly when there is none', async () => {
    reader.present({ card: TEST_CARDS.chipVisa() })
    const started = JSON.parse((await op('startSale', { amountMinor: 4321, reference: 'ECR-FIND-1' })).body)
    await harness.engine.txn.waitForOutcome(started.value.id)
    const found = await op('getSaleByReference', { reference: 'ECR-FIND-1' })
    expect(found.status).toBe(200)
    expect(JSON.parse(found.body).value).toMatchObject({
      id: started.value.id,
      reference: 'ECR-FIND-1',
      state: 'approved',
      amountMinor: 4321,
    })
    const none = await op('getSaleByReference', { reference: 'ECR-NEVER' })
    expect(none.status).toBe(404)
    expect(JSON.parse(none.body).error).toMatchObject({ code: 'NO_SUCH_SALE', message: expect.stringContaining('ECR-NEVER') })
    expect((await op('getSaleByReference', { reference: '' })).status).toBe(400)
  })

  it('records who started a sale: the POS with its token, the cashier through the page it was served', async () => {
    reader.present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.swipeMastercard() })
    const fromPos = JSON.parse((await op('startSale', { amountMinor: 1100 })).body)
    expect(fromPos.value.startedBy).toBe('pos')
    await harness.engine.txn.waitForOutcome(fromPos.value.id)
    const link = new URL(server.launchUrl())
    const session = String((await call('GET', `${link.pathname}${link.search}`)).headers['set-cookie']).split(';')[0]!
    const fromPage = await call('POST', '/v1/ops/startSale', {
      body: JSON.stringify({ amountMinor: 1200 }),
      headers: { cookie: session, 'content-type': 'application/json' },
    })
    const counter = JSON.parse(fromPage.body)
    expect(counter.value.startedBy).toBe('counter')
    await harness.engine.txn.waitForOutcome(counter.value.id)
    expect(harness.engine.txn.reads.get(fromPos.value.id)?.startedBy).toBe('pos')
  })

  it('streams sale events over SSE, each with its journal position as id and its sale named', async () => {
    const stream = await SseClient.open(`${server.url}/v1/events`, { authorization: `Bearer ${token}` })
    await stream.waitFor((s) => s.named('snapshot').length === 1)
    reader.present({ card: TEST_CARDS.swipeMastercard() })
    const started = JSON.parse((await op('startSale', { amountMinor: 2500, reference: 'ECR-SSE' })).body)
    await harness.engine.txn.waitForOutcome(started.value.id)
    await stream.waitFor((s) =>
      s.messages().some((m) => m.event.type === 'sale' && (m.event.sale as { state: string }).state === 'approved'),
    )
    stream.close()
    const sales = stream.messages().filter((m) => m.event.type === 'sale' && m.event.saleId === started.value.id)
    expect(sales.map((m) => (m.event.sale as { state: string }).state)).toEqual(['readingCard', 'sending', 'approved'])
    expect(sales.every((m) => m.hasId && m.event.reference === 'ECR-SSE' && m.lastEventId === String(m.event.seq))).toBe(true)
    expect(stream.events.map((e) => e.data).join('')).not.toContain('5413330089010434')
  })

  it('answers a refusal with the catalogue status, retryability and words; the detail stays in message', async () => {
    const refusal = await op('voidSale', { id: 'nope' })
    const entry = ERROR_CATALOGUE.NO_SUCH_SALE
    expect(refusal.status).toBe(entry.status)
    expect(JSON.parse(refusal.body)).toEqual({
      ok: false,
      error: { code: 'NO_SUCH_SALE', message: expect.stringContaining('nope'), retryable: entry.retryable, words: entry.words },
    })
    const unauthorised = await call('POST', '/v1/ops/appInfo', { body: '{}' })
    expect(JSON.parse(unauthorised.body).error).toEqual({
      code: 'UNAUTHORISED',
      message: expect.any(String),
      retryable: false,
      words: ERROR_CATALOGUE.UNAUTHORISED.words,
    })
  })

  it('exports the open batch as CSV, closes it by number, and reports the queue', async () => {
    const csv = JSON.parse((await op('exportDay', { format: 'csv' })).body)
    expect(csv.value.filename).toMatch(/^pos-agent-\d{4}-\d{2}-\d{2}-batch-1-open\.csv$/)
    expect(csv.value.content.split('\r\n')[0]).toMatch(/^time,outcome,amount/)
    const closed = JSON.parse((await op('closeDay', { batch: 1 })).body)
    expect(closed.value.batch).toMatchObject({ number: 1, closedAt: expect.any(Number) })
    expect(JSON.parse((await op('closeDay', { batch: 1 })).body).value.batch).toEqual(closed.value.batch)
    expect(JSON.parse((await op('listBatches', {})).body).value).toEqual([
      expect.objectContaining({ number: 1, saleCount: closed.value.sales.length }),
    ])
    expect(JSON.parse((await op('exportDay', { format: 'json', batch: 1 })).body).value.filename).toMatch(/-batch-1\.json$/)
    expect(JSON.parse((await op('queueStatus', {})).body).value).toMatchObject({ count: 0, lockedCount: 0 })
  })
})

describe('startSale refusals over HTTP', () => {
  const saleIds = async () => (JSON.parse((await op('listSales', {})).body).value as Array<{ id: string }>).map((s) => s.id)

  it.each([
    ['a currency the terminal is not set up for', { amountMinor: 1234, currency: 'EUR' }, 'CURRENCY_NOT_ACCEPTED'],
    ['more than the card reader can carry', { amountMinor: 99_999_999_999_999 }, 'AMOUNT_TOO_LARGE'],
    ['above the configured maximum', { amountMinor: 999_999_999 }, 'AMOUNT_ABOVE_LIMIT'],
    ['above the confirmation amount', { amountMinor: 100_001 }, 'AMOUNT_NEEDS_CONFIRMATION'],
  ] as const)('%s: 422 with its code and words, and no sale', async (_, body, code) => {
    const before = await saleIds()
    const answer = await op('startSale', body)
    const entry = ERROR_CATALOGUE[code]
    expect(answer.status).toBe(422)
    expect(entry.status).toBe(422)
    expect(JSON.parse(answer.body)).toEqual({
      ok: false,
      error: { code, message: expect.stringMatching(/^not started: /), retryable: false, words: entry.words },
    })
    expect(await saleIds()).toEqual(before)
  })

  it('a large amount: asked, then sent again confirmed, charged once', async () => {
    const asked = await op('startSale', { amountMinor: 150_000, reference: 'ECR-BIG' })
    expect(asked.status).toBe(422)
    expect(JSON.parse(asked.body).error.code).toBe('AMOUNT_NEEDS_CONFIRMATION')
    expect((await op('startSale', { amountMinor: 150_000, amountConfirmed: 'yes' })).status).toBe(400)
    reader.present({ card: TEST_CARDS.chipVisa() })
    const confirmed = await op('startSale', { amountMinor: 150_000, reference: 'ECR-BIG', amountConfirmed: true })
    expect(confirmed.status).toBe(200)
    const sale = JSON.parse(confirmed.body).value
    expect(sale).toMatchObject({ amountMinor: 150_000, currency: 'USD', reference: 'ECR-BIG' })
    expect((await harness.engine.txn.waitForOutcome(sale.id)).state).toBe('approved')
    expect(harness.host.ledger().payments.filter((p) => p.merchantTransID === sale.id)).toHaveLength(1)
  })
})
