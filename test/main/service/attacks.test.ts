/**
 * The agent tried as an attacker would, over the real local API on 127.0.0.1, one test per way in
 * that once worked: a POS token turned into a cashier window, PIN guesses sent together past the
 * lockout, a token doing everything, an approval replayed, actions with no trace, and the server's
 * edges (a wrong number told from a wrong PIN, slow and oversized requests, connections held open,
 * a nexo Abort of another POS's payment). Each runs against the real service, journal and PINs.
 */
import { connect, type Socket } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NexoTerminal } from '../../../src-main/nexo'
import type { TokenGrant } from '../../../src-main/service'
import { TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startApiHarness, type ApiHarness, type Reply } from '../api/api-harness'
import { SseClient } from '../api/sse-client'
import { COUNTER } from '../../support/service-harness'
import { eventually } from '../../support/engine-harness'

const MANAGER = { operatorId: '9', pin: '4321' }
const CASHIER = { operatorId: '17', pin: '1234' }
/** A manager the guessing test locks out (the others stay usable). */
const TARGET = { operatorId: '8', pin: '8080' }

let api: ApiHarness
/** The real counter's window, opened from the owner's link. */
let counter: string

beforeAll(async () => {
  api = await startApiHarness({ server: { limits: { headersTimeoutMs: 400, requestTimeoutMs: 2_000, checkIntervalMs: 100 } } })
  counter = await api.cashierSession()
})
afterAll(async () => {
  await api.close()
})

type Json = { ok: boolean; value: Record<string, unknown> & { id: string }; error?: { code: string; message: string } }

async function as(credential: { cookie: string } | { bearer: string }, operation: string, body: unknown = {}) {
  const headers: Record<string, string> =
    'cookie' in credential ? { cookie: credential.cookie } : { authorization: `Bearer ${credential.bearer}` }
  // A customer display's session (its own cookie) calls under /customer, where its page is.
  const base = 'cookie' in credential && credential.cookie.startsWith('pos_display=') ? '/customer/v1' : '/v1'
  const reply = await api.call('POST', `${base}/ops/${operation}`, { body: JSON.stringify(body), headers })
  return { status: reply.status, json: JSON.parse(reply.body) as Json }
}

async function openWindow(reply: Reply): Promise<string> {
  const link = new URL((JSON.parse(reply.body) as { value: { url: string } }).value.url)
  const opened = await api.call('GET', `${link.pathname}${link.search}`)
  return String(opened.headers['set-cookie']).split(';')[0]!
}

const launch = (bearer: string, view: 'cashier' | 'customer') =>
  api.call('POST', '/v1/launch', { body: JSON.stringify({ view }), headers: { authorization: `Bearer ${bearer}` } })

describe('item 3, on a terminal without operators: a token does only what its scopes say', () => {
  it("a POS's token (read and sell) cannot replace the signing key, make tokens or the first manager", async () => {
    const made = await as({ cookie: counter }, 'createToken', { name: 'Lane 1 POS' })
    expect(made.json.value.integrator).toMatchObject({ scopes: ['read', 'sell'] })
    const pos = { bearer: made.json.value.token as string }
    for (const [operation, body] of [
      ['setSigningKey', { key: 'k'.repeat(32) }],
      ['createToken', { name: 'mine' }],
      ['addOperator', { operatorId: '1', name: 'Mallory', role: 'manager', pin: '1111' }],
      ['startReturn', { amountMinor: 9999 }],
      ['auditTrail', {}],
    ] as const) {
      const refused = await as(pos, operation, body)
      expect({ operation, status: refused.status, code: refused.json.error?.code }).toEqual({ operation, status: 403, code: 'FORBIDDEN' })
    }
    expect((await as(pos, 'appInfo')).status).toBe(200)
    // And it opens no cashier window, only a customer display (which reads).
    expect((await launch(pos.bearer, 'cashier')).status).toBe(403)
    const display = await openWindow(await launch(pos.bearer, 'customer'))
    expect((await as({ cookie: display }, 'listSales')).status).toBe(200)
    expect((await as({ cookie: display }, 'startSale', { amountMinor: 100 })).status).toBe(403)
  })
})

describe('with operators', () => {
  beforeAll(async () => {
    expect((await api.service.dispatch(COUNTER, 'addOperator', { ...MANAGER, name: 'Maria', role: 'manager' })).ok).toBe(true)
    for (const [who, name, role] of [
      [CASHIER, 'Ann', 'cashier'],
      [TARGET, 'Omar', 'manager'],
    ] as const)
      expect((await api.service.dispatch(COUNTER, 'addOperator', { ...who, name, role, approval: MANAGER })).ok).toBe(true)
    expect((await as({ cookie: counter }, 'signIn', MANAGER)).json.ok).toBe(true)
  })

  it("item 1: a token-opened cashier window has none of the counter manager's authority, and ends with its token", async () => {
    const made = await as({ cookie: counter }, 'createToken', { name: 'Back office', scopes: ['admin'] })
    const admin = made.json.value.token as string
    const tokenId = (made.json.value.integrator as { id: string }).id
    const minted = await openWindow(await launch(admin, 'cashier'))
    // The manager signed in at the real counter lends nothing to the minted window.
    for (const [operation, body] of [
      ['setSigningKey', { key: 'k'.repeat(32) }],
      ['createToken', { name: 'mine' }],
      ['startReturn', { amountMinor: 9999 }],
    ] as const)
      expect((await as({ cookie: minted }, operation, body)).json.error?.code).toBe('SIGN_IN_REQUIRED')
    expect((await as({ cookie: minted }, 'counterOperator')).json.value.operator).toBeUndefined()
    // A cashier signing in there still needs a manager for a return.
    expect((await as({ cookie: minted }, 'signIn', CASHIER)).json.ok).toBe(true)
    expect((await as({ cookie: minted }, 'startReturn', { amountMinor: 9999 })).json.error?.code).toBe('MANAGER_REQUIRED')
    const stream = await SseClient.open(`${api.server.url}/v1/events`, { cookie: minted })
    await stream.waitFor((client) => client.named('snapshot').length > 0)
    // Revoked at the counter: the window it opened is closed, its stream ends, its cookie opens nothing.
    expect((await as({ cookie: counter }, 'revokeToken', { id: tokenId })).json.ok).toBe(true)
    await new Promise<void>((resolve) => (stream.response.complete ? resolve() : stream.response.once('end', () => resolve())))
    expect((await as({ cookie: minted }, 'appInfo')).status).toBe(401)
    // The cashier signed in there was signed out with it: no shift of theirs stays open.
    expect(api.engine.engine.journal.shifts.open()?.operatorId).not.toBe(CASHIER.operatorId)
  })

  it('item 2: sixty PIN guesses sent together check at most five PINs, then the manager is locked', async () => {
    const pos = { bearer: (await as({ cookie: counter }, 'createToken', { name: 'Guessing POS' })).json.value.token as string }
    const guesses = Array.from({ length: 60 }, (_, i) => String(1000 + i))
    const request = { id: 'T1-nothing-00000001' }
    // Sent as the approval of a request, from a token: no PIN is even looked at.
    const relayed = await Promise.all(
      guesses.map((pin) => as(pos, 'retryAttention', { ...request, approval: { operatorId: TARGET.operatorId, pin } })),
    )
    // (Past the connections one token may hold at once, the rest are refused before anything is read.)
    const relayedCodes = relayed.map((a) => a.json.error?.code)
    expect(relayedCodes.filter((c) => c !== 'MANAGER_REQUIRED' && c !== 'TOO_MANY_CONNECTIONS')).toEqual([])
    expect(relayedCodes.filter((c) => c === 'MANAGER_REQUIRED').length).toBeGreaterThan(0)
    // Through approve, the way a POS asks a manager: counted, and the manager locked.
    const answers = await Promise.all(
      guesses.map((pin) => as(pos, 'approve', { operation: 'retryAttention', request, operatorId: TARGET.operatorId, pin })),
    )
    const codes = answers.map((a) => a.json.error?.code ?? 'ok')
    expect(codes).not.toContain('ok')
    expect(codes.filter((c) => c === 'PIN_WRONG').length).toBeLessThanOrEqual(4)
    // Past the connections one token may hold at once, the rest are refused before any PIN is read.
    expect(codes.every((c) => ['PIN_WRONG', 'OPERATOR_LOCKED', 'TOO_MANY_TRIES', 'TOO_MANY_CONNECTIONS'].includes(c))).toBe(true)
    // Locked now, the right PIN is refused too; a manager unlocks without changing it.
    const other = { bearer: api.token }
    expect((await as(other, 'approve', { operation: 'retryAttention', request, ...TARGET })).json.error?.code).toBe('OPERATOR_LOCKED')
    expect((await as({ cookie: counter }, 'unlockOperator', { operatorId: TARGET.operatorId })).json.ok).toBe(true)
    // At a counter window, parallel sign-ins are counted the same way.
    const window = await api.cashierSession()
    const signIns = await Promise.all(
      guesses.slice(0, 20).map((pin) => as({ cookie: window }, 'signIn', { operatorId: CASHIER.operatorId, pin })),
    )
    expect(signIns.filter((a) => a.json.error?.code === 'PIN_WRONG').length).toBeLessThanOrEqual(4)
    expect(signIns.some((a) => a.json.ok)).toBe(false)
    expect((await as({ cookie: counter }, 'unlockOperator', { operatorId: CASHIER.operatorId })).json.ok).toBe(true)
  })

  it('item 4: an approval approves one request once; a manager at the counter approves only there', async () => {
    const pos = { bearer: api.token }
    api.reader.present({ card: TEST_CARDS.chipVisa() })
    const sale = (await as(pos, 'startSale', { amountMinor: 4200 })).json.value
    await api.engine.engine.txn.waitForOutcome(sale.id)
    const request = { id: sale.id, tipMinor: 5000, managerOverride: true }
    // The counter's manager does not approve for the POS.
    expect((await as(pos, 'adjustTip', request)).json.error?.code).toBe('MANAGER_REQUIRED')
    const proof = (await as(pos, 'approve', { operation: 'adjustTip', request, ...MANAGER })).json.value.approval as string
    // Not for another request of the same operation.
    expect((await as(pos, 'adjustTip', { ...request, tipMinor: 9000, approval: proof })).json.error?.code).toBe('MANAGER_REQUIRED')
    // Used (and spent) by the failed try above: a proof is never tried twice.
    expect((await as(pos, 'adjustTip', { ...request, approval: proof })).json.error?.code).toBe('MANAGER_REQUIRED')
    const fresh = (await as(pos, 'approve', { operation: 'adjustTip', request, ...MANAGER })).json.value.approval as string
    expect((await as(pos, 'adjustTip', { ...request, approval: fresh })).json.value).toMatchObject({ tipMinor: 5000 })
    expect((await as(pos, 'adjustTip', { ...request, approval: fresh })).json.error?.code).toBe('MANAGER_REQUIRED')
    // A cashier asking for a proof of something only a manager may do gets nothing.
    expect((await as(pos, 'approve', { operation: 'adjustTip', request, ...CASHIER })).json.error?.code).toBe('MANAGER_REQUIRED')
  })

  it("approving needs the scope of what it approves, never read's: a read-only token tries no manager's PIN", async () => {
    const reader = {
      bearer: (await as({ cookie: counter }, 'createToken', { name: 'Read-only screen', scopes: ['read'] })).json.value.token as string,
    }
    for (const [i, request] of [{ format: 'csv', audit: true }, { format: 'csv' }, { format: 'csv', audit: true }].entries()) {
      const tried = await as(reader, 'approve', { operation: 'exportDay', request, operatorId: TARGET.operatorId, pin: String(1000 + i) })
      expect({ status: tried.status, code: tried.json.error?.code }).toEqual({ status: 403, code: 'FORBIDDEN' })
    }
    for (let i = 0; i < 5; i++) {
      const tried = await as(reader, 'approve', {
        operation: 'voidSale',
        request: { id: 'T1-nothing-00000001' },
        operatorId: TARGET.operatorId,
        pin: String(2000 + i),
      })
      expect(tried.json.error?.code).toBe('FORBIDDEN')
    }
    // Nobody was locked out: the manager's own PIN still approves, for a token with the scope.
    const admin = { bearer: api.token }
    expect((await as(admin, 'approve', { operation: 'exportDay', request: { format: 'csv', audit: true }, ...TARGET })).json.ok).toBe(true)
    // An export without the audit trail needs no manager: there is nothing to approve, and no PIN is tried.
    expect(
      (await as(admin, 'approve', { operation: 'exportDay', request: { format: 'csv' }, operatorId: TARGET.operatorId, pin: '0000' })).json
        .error?.code,
    ).toBe('INVALID_REQUEST')
    expect((await as(admin, 'approve', { operation: 'exportDay', request: { format: 'csv', audit: true }, ...TARGET })).json.ok).toBe(true)
  })

  it('a proof is good only for the caller that asked for it: another POS holding it gets nothing, and it is spent', async () => {
    const made = async (name: string) => ({ bearer: (await as({ cookie: counter }, 'createToken', { name })).json.value.token as string })
    const [asker, other] = [await made('POS R'), await made('POS R2')]
    const request = { id: 'T1-nothing-00000001' }
    const ask = async () => (await as(asker, 'approve', { operation: 'retryAttention', request, ...MANAGER })).json.value.approval as string
    const stolen = await ask()
    expect((await as(other, 'retryAttention', { ...request, approval: stolen })).json.error).toMatchObject({
      code: 'MANAGER_REQUIRED',
      message: expect.stringMatching(/given to another caller/),
    })
    // Seen where it should not be: it is spent for its own caller too.
    expect((await as(asker, 'retryAttention', { ...request, approval: stolen })).json.error?.code).toBe('MANAGER_REQUIRED')
    // A fresh one approves the asker's request (which then finds no such sale).
    expect((await as(asker, 'retryAttention', { ...request, approval: await ask() })).json.error?.code).toBe('NO_SUCH_SALE')
  })

  it('item 5: the audit trail names who did what through which door, in an unbroken chain', async () => {
    expect((await as({ cookie: counter }, 'signIn', { operatorId: '404', pin: '0000' })).json.error?.code).toBe('PIN_WRONG')
    expect((await as({ cookie: counter }, 'signIn', MANAGER)).json.ok).toBe(true)
    expect((await as({ cookie: counter }, 'setSigningKey', { key: 'n'.repeat(32) })).json.ok).toBe(true)
    const trail = (await as({ cookie: counter }, 'auditTrail')).json.value as unknown as {
      intact: boolean
      records: Array<{ action: string; door: string; via?: string; actor?: string; subject?: string; ok: boolean; detail?: string }>
    }
    expect(trail.intact).toBe(true)
    const has = (match: Partial<(typeof trail.records)[number]>) => expect(trail.records).toContainEqual(expect.objectContaining(match))
    has({ action: 'signIn', door: 'counter', ok: false, detail: 'PIN_WRONG', subject: '404' })
    has({ action: 'signIn', door: 'counter', ok: true, subject: MANAGER.operatorId })
    // An approval asked ahead names the operation it is for, and the manager asked.
    has({ action: 'approve', door: 'pos', ok: false, detail: 'OPERATOR_LOCKED', subject: 'retryAttention', actor: TARGET.operatorId })
    has({ action: 'approve', door: 'pos', ok: true, subject: 'adjustTip', actor: MANAGER.operatorId })
    has({ action: 'approval', door: 'pos', ok: true, actor: MANAGER.operatorId, subject: 'adjustTip' })
    has({ action: 'approval', door: 'counter', ok: true, actor: MANAGER.operatorId, subject: 'setSigningKey' })
    has({ action: 'setSigningKey', door: 'counter', ok: true, actor: MANAGER.operatorId })
    has({ action: 'createToken', door: 'counter', ok: true, subject: 'Back office' })
    has({ action: 'revokeToken', door: 'counter', ok: true })
    has({ action: 'windowOpened', door: 'counter', detail: expect.stringMatching(/^cashier, opened by token /) })
    has({ action: 'windowClosed', detail: 'openerRevoked' })
    has({ action: 'unlockOperator', ok: true, subject: TARGET.operatorId })
    // The POS's calls name the token they came with, never the token itself.
    const posRecords = trail.records.filter((r) => r.door === 'pos')
    expect(posRecords.every((r) => /^token:/.test(r.via ?? ''))).toBe(true)
    // Every door's id is a token's or a window's, never anything a person typed.
    const doors = trail.records.flatMap((r) => (r.via === undefined ? [] : [r.via]))
    expect(doors.filter((via) => !/^(token:([0-9a-f-]+|installation)( sale:\S+)?|window:[0-9a-f]+)$/.test(via))).toEqual([])
    expect(JSON.stringify(trail)).not.toContain(api.token)
    // A PIN is four digits: it is looked for in what a record says, not in its chain's hex digests, its
    // time or its door's random id (`via`, checked above), where any four digits turn up by chance.
    const said = trail.records.map(({ action, door, actor, subject, detail }) => [action, door, actor, subject, detail])
    expect(said.flat().filter((field) => field?.includes(MANAGER.pin))).toEqual([])
    expect(JSON.stringify(trail)).not.toMatch(/"pin"/i)
    // In the day export too, for a manager.
    const exported = (await as({ cookie: counter }, 'exportDay', { format: 'json', audit: true })).json.value.content as string
    expect((JSON.parse(exported) as { auditTrail: { intact: boolean } }).auditTrail.intact).toBe(true)
  })
})

describe('item 6: the edges', () => {
  it('a wrong operator number reads exactly as a wrong PIN', async () => {
    const window = await api.cashierSession()
    const unknown = await as({ cookie: window }, 'signIn', { operatorId: '405', pin: '0000' })
    const wrong = await as({ cookie: window }, 'signIn', { operatorId: MANAGER.operatorId, pin: '0000' })
    expect(unknown.status).toBe(wrong.status)
    expect(unknown.json.error).toEqual(wrong.json.error)
    expect((await as({ cookie: window }, 'signIn', MANAGER)).json.ok).toBe(true)
  })

  it('a body past 64 KiB is answered 413 with plain words, declared or streamed', async () => {
    const big = JSON.stringify({ amountMinor: 100, reference: 'x'.repeat(70 * 1024) })
    const declared = await api.call('POST', '/v1/ops/startSale', { body: big, headers: { authorization: `Bearer ${api.token}` } })
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.body)).toMatchObject({
      ok: false,
      error: { code: 'BODY_TOO_LARGE', words: expect.stringMatching(/Nothing was done/) },
    })
    const streamed = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(api.server.url).port), '127.0.0.1')
      let answer = ''
      socket.on('data', (d) => (answer += d.toString()))
      socket.on('close', () => resolve(answer))
      socket.on('error', reject)
      socket.write(
        `POST /v1/ops/startSale HTTP/1.1\r\nhost: ${new URL(api.server.url).host}\r\nauthorization: Bearer ${api.token}\r\ntransfer-encoding: chunked\r\n\r\n`,
      )
      for (let i = 0; i < 80; i++) socket.write(`400\r\n${'y'.repeat(1024)}\r\n`)
      socket.end('0\r\n\r\n')
    })
    expect(streamed).toMatch(/^HTTP\/1\.1 413/)
    expect(streamed).toContain('BODY_TOO_LARGE')
  })

  it('a request whose headers never finish is cut off, and the agent goes on serving', async () => {
    const port = Number(new URL(api.server.url).port)
    const started = Date.now()
    const socket: Socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (d: Buffer) => (answer += d.toString()))
    socket.write('POST /v1/ops/appInfo HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ')
    const ended = await new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)))
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
    expect(ended).toBeLessThan(5_000)
    expect((await as({ bearer: api.token }, 'appInfo')).status).toBe(200)
  })

  it("a nexo Abort stops only its own POS's payment", async () => {
    const grant: TokenGrant = { id: 'installation', name: 'installation token', scopes: ['admin'] }
    const terminal = new NexoTerminal({
      service: api.service,
      memory: api.engine.engine.journal.nexo,
      terminalId: 'T1',
      merchantId: 'M1',
      version: '0',
      logger: pino({ level: 'silent' }),
    })
    const header = (category: string, saleId: string, serviceId: string) => ({
      MessageClass: 'Service',
      MessageCategory: category,
      MessageType: 'Request',
      POIID: 'T1',
      SaleID: saleId,
      ServiceID: serviceId,
    })
    const abort = (from: string) =>
      terminal.handle(
        {
          SaleToPOIRequest: {
            MessageHeader: header('Abort', from, `A${from}`),
            AbortRequest: {
              AbortReason: 'MerchantAbort',
              MessageReference: { MessageCategory: 'Payment', SaleID: 'LANE-A', ServiceID: 'P1' },
            },
          },
        },
        grant,
      )
    // No card is presented: the payment waits at the reader.
    const payment = terminal.handle(
      {
        SaleToPOIRequest: {
          MessageHeader: header('Payment', 'LANE-A', 'P1'),
          PaymentRequest: {
            SaleData: { SaleTransactionID: { TransactionID: 'ORDER-1', TimeStamp: new Date().toISOString() } },
            PaymentTransaction: { AmountsReq: { Currency: 'USD', RequestedAmount: 12.34 } },
          },
        },
      },
      grant,
    )
    const waiting = () => api.engine.engine.journal.byReference('nexo:LANE-A:P1')
    await eventually(() => waiting()?.state === 'readingCard', 5_000)
    await abort('LANE-B')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(waiting()?.state).toBe('readingCard')
    await abort('LANE-A')
    const answer = (await payment) as { SaleToPOIResponse: { PaymentResponse: { Response: { ErrorCondition?: string } } } }
    expect(answer.SaleToPOIResponse.PaymentResponse.Response.ErrorCondition).toBe('Aborted')
    expect(api.engine.engine.txn.reads.get(waiting()!.id)?.state).toBe('abandoned')
    // The refused Abort is in the audit trail: which POS tried, what it named, why it was refused.
    const trail = (await as({ cookie: counter }, 'auditTrail')).json.value as unknown as {
      records: Array<{ action: string; door: string; via?: string; subject?: string; ok: boolean; detail?: string }>
    }
    expect(trail.records.filter((r) => r.action === 'nexoAbort')).toEqual([
      expect.objectContaining({
        door: 'nexo',
        via: 'token:installation sale:LANE-B',
        subject: 'LANE-A/P1',
        ok: false,
        detail: 'this POS cannot stop a payment another POS started',
      }),
    ])
  })
})

describe('holes an attack review found, closed', () => {
  it("a revoked token's event streams end with it, and no caller holds more than four streams", async () => {
    const made = await as({ cookie: counter }, 'createToken', { name: 'Stream holder' })
    const bearer = made.json.value.token as string
    const id = (made.json.value.integrator as { id: string }).id
    const streams = await Promise.all(
      [1, 2, 3, 4].map(() => SseClient.open(`${api.server.url}/v1/events`, { authorization: `Bearer ${bearer}` })),
    )
    for (const stream of streams) await stream.waitFor((client) => client.named('snapshot').length > 0)
    const fifth = await api.call('GET', '/v1/events', { headers: { authorization: `Bearer ${bearer}` } })
    expect(fifth.status).toBe(429)
    expect(JSON.parse(fifth.body).error.code).toBe('TOO_MANY_STREAMS')
    expect((await as({ cookie: counter }, 'revokeToken', { id })).json.ok).toBe(true)
    await Promise.all(
      streams.map(
        (stream) => new Promise<void>((resolve) => (stream.response.complete ? resolve() : stream.response.once('end', () => resolve()))),
      ),
    )
  })

  it('windows opened from windows share their PIN allowance; a token gets ten tries in fifteen minutes', async () => {
    const root = await api.cashierSession()
    expect((await as({ cookie: root }, 'signIn', MANAGER)).json.ok).toBe(true)
    const child = await openWindow(await api.call('POST', '/v1/ops/openCashierWindow', { body: '{}', headers: { cookie: root } }))
    const guess = (cookie: string, i: number) =>
      as({ cookie }, 'approve', { operation: 'closeDay', request: {}, operatorId: `X${i}`, pin: '0000' })
    // Other tests' windows of the owner already took some of the minute's tries: spend the rest.
    let refusedAt = -1
    for (let i = 0; i < 40 && refusedAt < 0; i++) if ((await guess(root, i)).json.error?.code === 'TOO_MANY_TRIES') refusedAt = i
    expect(refusedAt).toBeGreaterThanOrEqual(0)
    expect((await guess(child, 99)).json.error?.code).toBe('TOO_MANY_TRIES')

    const pos = { bearer: (await as({ cookie: counter }, 'createToken', { name: 'Slow guesser' })).json.value.token as string }
    const codes: string[] = []
    for (let i = 0; i < 12; i++)
      codes.push((await as(pos, 'approve', { operation: 'closeDay', request: {}, operatorId: `Y${i}`, pin: '0000' })).json.error!.code)
    expect(codes.slice(0, 10).every((c) => c !== 'TOO_MANY_TRIES')).toBe(true)
    expect(codes.slice(10)).toEqual(['TOO_MANY_TRIES', 'TOO_MANY_TRIES'])
  })

  it("a read-only token can neither read the audit trail in an export nor ask a manager's approval for it", async () => {
    const read = {
      bearer: (await as({ cookie: counter }, 'createToken', { name: 'Reports', scopes: ['read'] })).json.value.token as string,
    }
    expect((await as(read, 'exportDay', { format: 'csv' })).status).toBe(200)
    const withAudit = await as(read, 'exportDay', { format: 'csv', audit: true, approval: MANAGER })
    expect(withAudit.json.error?.code, JSON.stringify(withAudit.json).slice(0, 300)).toBe('FORBIDDEN')
    const asked = await as(read, 'approve', { operation: 'exportDay', request: { format: 'csv', audit: true }, ...MANAGER })
    expect(asked.json.error?.code).toBe('FORBIDDEN')
  })

  it('a malformed try at an audited operation is kept; a customer display closing is recorded as the display', async () => {
    expect((await as({ bearer: api.token }, 'setOperatorPin', { operatorId: CASHIER.operatorId, pin: '12' })).json.error?.code).toBe(
      'INVALID_REQUEST',
    )
    const made = await as({ cookie: counter }, 'createToken', { name: 'Display maker', scopes: ['read'] })
    await openWindow(await launch(made.json.value.token as string, 'customer'))
    expect((await as({ cookie: counter }, 'revokeToken', { id: (made.json.value.integrator as { id: string }).id })).json.ok).toBe(true)
    const records = api.engine.engine.journal.audit.between(0, Number.MAX_SAFE_INTEGER)
    expect(records).toContainEqual(
      expect.objectContaining({ action: 'setOperatorPin', door: 'pos', subject: CASHIER.operatorId, ok: false, detail: 'INVALID_REQUEST' }),
    )
    expect(records.filter((r) => r.action === 'windowClosed').at(-1)).toMatchObject({ door: 'display', detail: 'openerRevoked' })
  })

  it("a link from another site opens nothing over a window's working session", async () => {
    const window = await api.cashierSession()
    const nonce = new URL(api.server.launchUrl()).searchParams.get('launch')!
    const fromElsewhere = await api.call('GET', `/?launch=${nonce}`, { headers: { cookie: window, 'sec-fetch-site': 'same-site' } })
    expect(fromElsewhere.headers['set-cookie']).toBeUndefined()
    expect((await as({ cookie: window }, 'appInfo')).status).toBe(200)
  })
})
