/**
 * The agent's gateway client against the training host over real HTTPS on 127.0.0.1: every
 * operation, and every fault, asserting the outcome class that decides between store-and-forward
 * (notDelivered) and reversal (unknown).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { UndiciHostClient, type HostEndpoint } from '../../../src-main/gateway/gateway-client'
import type { GatewayOutcome } from '../../../src-main/gateway/outcome'
import { SIGN_TYPES } from '../../../src-main/gateway/signer'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { samplePayment } from '../../support/sample-bodies'

const AID = 'ACQ-TEST'
const KEY = 'gw-client-test-key-0123456789abc'
let host: TrainingHost
let dir: string
let counter = 0
const clients: UndiciHostClient[] = []

function client(overrides: Partial<HostEndpoint> = {}, key = KEY): UndiciHostClient {
  const endpoint: HostEndpoint = {
    offlineBaseUrl: host.url,
    baseUrl: host.url,
    aid: AID,
    signType: 'HMAC-SHA256',
    extraCaPem: host.caPem,
    connectTimeoutMs: 2_000,
    responseTimeoutMs: 3_000,
    ...overrides,
  }
  const c = new UndiciHostClient(endpoint, { signingKey: key })
  clients.push(c)
  return c
}

const nextId = () => `GW-${process.pid}-${++counter}`
const info = (id = nextId()) => ({ merchantTransID: id, merchantTransTime: '2026-11-21T10:00:00+01:00' })
const payment = (value = '12.34', id = nextId(), autoCapture = true) =>
  samplePayment({ merchantTransInfo: info(id), transAmount: { currency: 'USD', value }, autoCapture }) as never

async function approvedPayment(c = client(), autoCapture = true): Promise<string> {
  const id = nextId()
  const outcome = await c.send('payment', payment('20.00', id, autoCapture))
  expect(outcome.kind).toBe('approved')
  return id
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pos-gw-'))
  host = await startTrainingHost({ stateDir: dir, signingKeys: { [AID]: KEY } })
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await host.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(() => host.clearFaults())

describe('operations over HTTPS with verified responses', () => {
  it.each(SIGN_TYPES)('payment approved with sign type %s', async (signType) => {
    const outcome = await client({ signType }).send('payment', payment())
    expect(outcome).toMatchObject({ kind: 'approved', operation: 'payment', status: 'Captured' })
    expect(outcome.kind === 'approved' && outcome.authorizationCode).toMatch(/^[A-Z0-9]{6}$/)
  })

  it('payment without autoCapture is Authorised', async () => {
    expect(await client().send('payment', payment('9.99', nextId(), false))).toMatchObject({ kind: 'approved', status: 'Authorised' })
  })

  it.each([
    ['10.51', '51'],
    ['10.05', '05'],
  ])('amount %s is declined with psp code %s and a readable reason', async (value, code) => {
    const outcome = await client().send('payment', payment(value))
    expect(outcome).toMatchObject({ kind: 'declined', pspFailureCode: code })
    expect(outcome.kind === 'declined' && outcome.reason.length).toBeGreaterThan(3)
  })

  it('cancel, tips, capture and reversal of an approved payment are approved', async () => {
    const c = client()
    const sale = await approvedPayment(c, false)
    expect(await c.send('tips', { merchantTransInfo: info(), transAmount: { currency: 'USD', value: '3.00' } }, sale)).toMatchObject({
      kind: 'approved',
      status: 'Success',
    })
    expect(await c.send('capture', { merchantTransInfo: info(), transAmount: { currency: 'USD', value: '23.00' } }, sale)).toMatchObject({
      kind: 'approved',
      status: 'Success',
    })
    const voided = await approvedPayment(c)
    const cancel = await c.send(
      'cancel',
      {
        merchantTransInfo: info(),
        paymentMethod: {
          type: 'card',
          card: { cardInfo: { track2: '4761739001010010=30122011143804400000' }, icCardCondCode: '0', noSecretNoSignFlag: '0' },
        },
      },
      voided,
    )
    expect(cancel).toMatchObject({ kind: 'approved', status: 'Success' })
    const reversed = await approvedPayment(c)
    expect(await c.send('reversal', { initiatingReason: 'timeout' }, reversed)).toMatchObject({ kind: 'approved', status: 'Success' })
    expect(await c.send('reversal', { initiatingReason: 'timeout' }, reversed)).toMatchObject({ kind: 'approved' }) // idempotent
  })

  it('cancel of an unknown payment is declined with B0040', async () => {
    const outcome = await client().send(
      'cancel',
      {
        merchantTransInfo: info(),
        paymentMethod: { type: 'card', card: { cardInfo: { track2: '4761739001010010=30122011143804400000' } } },
      },
      'NEVER-SEEN',
    )
    expect(outcome).toMatchObject({ kind: 'declined', failureCode: 'B0040' })
  })

  it('the same payment forwarded twice gets the same answer; another body under the id is rejected B0031', async () => {
    const c = client()
    const id = nextId()
    const first = await c.send('payment', payment('15.00', id))
    const again = await c.send('payment', payment('15.00', id))
    expect(first.kind === 'approved' && again.kind === 'approved' && again.svcTransID).toBe(
      first.kind === 'approved' ? first.svcTransID : 'x',
    )
    expect(await c.send('payment', payment('16.00', id))).toMatchObject({ kind: 'rejected', code: 'B0031', source: 'host' })
  })

  it('a body the agent itself finds invalid is rejected before anything is sent', async () => {
    const before = host.ledger().entries.length
    const outcome = await client().sendUnchecked('payment', { ...(payment() as object), metadata: 'é'.repeat(257) })
    expect(outcome).toMatchObject({ kind: 'rejected', source: 'agent', code: 'V0008', field: 'metadata' })
    expect(host.ledger().entries.length).toBe(before)
  })

  it('a wrong signing key is rejected by the host with A0001 and nothing is recorded', async () => {
    const before = host.ledger().entries.length
    const outcome = await client({}, 'wrong-key-0123456789abcdefghijkl').send('payment', payment())
    // the host signs its 401 with the right key, which our wrong key cannot verify: treated as no answer
    expect(outcome.kind).toBe('unknown')
    expect(host.ledger().entries.length).toBe(before)
  })

  it('honours a base URL with a trailing slash', async () => {
    expect((await client({ offlineBaseUrl: `${host.url}/` }).send('payment', payment())).kind).toBe('approved')
  })
})

describe('faults: notDelivered means the host provably never saw it', () => {
  it("the host's own HTTP 503, signed → notDelivered, nothing recorded", async () => {
    host.setFault('payment', 'http-503', 1)
    const id = nextId()
    expect(await client().send('payment', payment('12.00', id))).toMatchObject({ kind: 'notDelivered' })
    expect(host.ledger().entries.some((e) => e.merchantTransID === id)).toBe(false)
  })

  it('an unsigned HTTP 503 from a proxy → unknown (reverse), even when nothing was processed', async () => {
    host.setFault('payment', 'proxy-503', 1)
    expect(await client().send('payment', payment('12.00'))).toMatchObject({
      kind: 'unknown',
      httpStatus: 503,
      reason: expect.stringMatching(/unsigned HTTP 503/),
    })
  })

  it('an unsigned HTTP 503 after the host processed the payment → unknown: the charge at the host is never mistaken for not sent', async () => {
    host.setFault('payment', 'proxy-503-after-processing', 1)
    const id = nextId()
    expect((await client().send('payment', payment('12.00', id))).kind).toBe('unknown')
    expect(host.ledger().payments.find((p) => p.merchantTransID === id)?.status).toBe('Captured')
  })

  it('connection refused → notDelivered', async () => {
    const port = await freePort()
    expect(await client({ offlineBaseUrl: `https://127.0.0.1:${port}` }).send('payment', payment())).toMatchObject({
      kind: 'notDelivered',
      reason: expect.stringContaining('ECONNREFUSED'),
    })
  })

  it('an untrusted certificate (no extra CA) → notDelivered: validation is never switched off', async () => {
    const outcome = await client({ extraCaPem: undefined }).send('payment', payment())
    expect(outcome.kind).toBe('notDelivered')
  })

  it('a name that does not resolve → notDelivered', async () => {
    expect(await client({ offlineBaseUrl: 'https://pos-agent-test.invalid' }).send('payment', payment())).toMatchObject({
      kind: 'notDelivered',
    })
  })

  it('a TLS handshake that never completes → notDelivered after the connect timeout', async () => {
    const silent = await silentServer()
    try {
      const outcome = await client({ offlineBaseUrl: `https://127.0.0.1:${silent.port}`, connectTimeoutMs: 500 }).send('payment', payment())
      expect(outcome.kind).toBe('notDelivered')
    } finally {
      await silent.close()
    }
  })
})

describe('faults: unknown means it may have reached the host', () => {
  const cases: Array<[string, string]> = [
    ['process-then-drop', 'recorded'],
    ['drop-before-processing', 'not recorded'],
    ['bad-signature', 'recorded'],
    ['garbage-body', 'recorded'],
  ]
  it.each(cases)('%s → unknown (host %s)', async (fault, recorded) => {
    host.setFault('payment', fault, 1)
    const id = nextId()
    const outcome = await client().send('payment', payment('12.00', id))
    expect(outcome.kind).toBe('unknown')
    expect(host.ledger().entries.some((e) => e.merchantTransID === id && e.resultCode === 'S0000')).toBe(recorded === 'recorded')
  })

  it('an answer slower than the response timeout → unknown, though the host approved', async () => {
    host.setFault('payment', 'delay=1500', 1)
    const id = nextId()
    const outcome = await client({ responseTimeoutMs: 1_000 }).send('payment', payment('12.00', id))
    expect(outcome).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('UND_ERR_HEADERS_TIMEOUT') })
    await new Promise((r) => setTimeout(r, 800))
    expect(host.ledger().payments.find((p) => p.merchantTransID === id)?.status).toBe('Captured')
  })

  it('a delay within the timeout is still approved', async () => {
    host.setFault('payment', 'delay=300', 1)
    expect((await client().send('payment', payment())).kind).toBe('approved')
  })

  it.each(['reversal', 'tips', 'capture', 'cancel'] as const)('faults on %s are classified the same way', async (kind) => {
    const c = client()
    const sale = await approvedPayment(c, false)
    const bodies = {
      reversal: { initiatingReason: 'test' },
      tips: { merchantTransInfo: info(), transAmount: { currency: 'USD', value: '1.00' } },
      capture: { merchantTransInfo: info(), transAmount: { currency: 'USD', value: '20.00' } },
      cancel: {
        merchantTransInfo: info(),
        paymentMethod: { type: 'card', card: { cardInfo: { track2: '4761739001010010=30122011143804400000' } } },
      },
    } as const
    const results: GatewayOutcome['kind'][] = []
    for (const fault of ['http-503', 'process-then-drop', 'bad-signature', 'proxy-503-after-processing']) {
      host.setFault(kind, fault, 1)
      results.push(
        (
          await c.sendUnchecked(
            kind,
            { ...bodies[kind], ...('merchantTransInfo' in bodies[kind] ? { merchantTransInfo: info() } : {}) },
            sale,
          )
        ).kind,
      )
    }
    expect(results).toEqual(['notDelivered', 'unknown', 'unknown', 'unknown'])
  })
})

describe('an answer is used only if it is about this request', () => {
  it.each([
    ['answer-other-id', /names merchantTransID ".*-OTHER", not this request's/],
    ['answer-other-amount', /amount 12\.01 is not this request's 12\.00/],
    ['answer-other-currency', /currency EUR is not this request's USD/],
  ] as const)('a payment answered, signed, by a record with %s → unknown (reversed), though the host approved', async (fault, why) => {
    host.setFault('payment', fault, 1)
    const id = nextId()
    const outcome = await client().send('payment', payment('12.00', id))
    expect(outcome).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(why) })
    expect(host.ledger().payments.find((p) => p.merchantTransID === id)?.status).toBe('Captured')
  })

  it('a declined payment is not taken from an answer about another request either', async () => {
    host.setFault('payment', 'answer-other-id', 1)
    expect(await client().send('payment', payment('10.51'))).toMatchObject({ kind: 'unknown' })
  })

  it.each(['tips', 'capture', 'cancel'] as const)(
    '%s answered by a record naming another merchantTransID → unknown (asked again)',
    async (kind) => {
      const c = client()
      const sale = await approvedPayment(c, false)
      const bodies = {
        tips: { merchantTransInfo: info(), transAmount: { currency: 'USD', value: '1.00' } },
        capture: { merchantTransInfo: info(), transAmount: { currency: 'USD', value: '20.00' } },
        cancel: {
          merchantTransInfo: info(),
          paymentMethod: { type: 'card', card: { cardInfo: { track2: '4761739001010010=30122011143804400000' } } },
        },
      } as const
      host.setFault(kind, 'answer-other-id', 1)
      expect(await c.sendUnchecked(kind, bodies[kind], sale)).toMatchObject({ kind: 'unknown' })
    },
  )

  it('a reversal answered about another payment → unknown; about its own (the original named in its record) → approved', async () => {
    const c = client()
    const sale = await approvedPayment(c, false)
    host.setFault('reversal', 'answer-other-id', 1)
    expect(await c.send('reversal', { initiatingReason: 'test' }, sale)).toMatchObject({ kind: 'unknown' })
    expect(await c.send('reversal', { initiatingReason: 'test' }, sale)).toMatchObject({ kind: 'approved' })
  })

  it('a reversal answered with a bare record (status and svcTransInfo, no id, no payment) → approved: its signature covers the path', async () => {
    const c = client()
    const sale = await approvedPayment(c, false)
    host.setFault('reversal', 'answer-bare-record', 1)
    const bare = await c.send('reversal', { initiatingReason: 'test' }, sale)
    expect(bare).toMatchObject({ kind: 'approved', status: 'Success', svcTransID: expect.any(String) })
    expect(bare.kind === 'approved' && bare.response).toEqual({ result: expect.anything(), reversal: expect.anything() })
    expect(bare.kind === 'approved' && bare.response.reversal).toEqual({ status: 'Success', svcTransInfo: expect.anything() })
    expect(host.ledger().payments.find((p) => p.merchantTransID === sale)?.status).toBe('Reversed')
    // The other form, the same reversal repeated: the record names the original, with the payment.
    const named = await c.send('reversal', { initiatingReason: 'test' }, sale)
    expect(named).toMatchObject({ kind: 'approved', response: { reversal: { merchantTransInfo: { merchantTransID: sale } } } })
    expect(named.kind === 'approved' && named.response.payment).toMatchObject({ merchantTransInfo: { merchantTransID: sale } })
  })

  it('a payment answered with a bare record (naming no merchantTransID) → unknown: its record must name its own', async () => {
    host.setFault('payment', 'answer-bare-record', 1)
    expect(await client().send('payment', payment('12.00'))).toMatchObject({
      kind: 'unknown',
      reason: expect.stringMatching(/names merchantTransID \(none\)/),
    })
  })

  it('a credit answered for another amount → unknown (asked again with the same message)', async () => {
    host.setFault('merchandiseCredit', 'answer-other-amount', 1)
    const body = {
      merchantTransInfo: info(),
      pspInfo: { merchantID: 'M1', terminalID: 'T1', storeID: 'S1' },
      transAmount: { currency: 'USD', value: '5.00' },
      paymentMethod: { type: 'card', card: { cardInfo: { cardNumber: '4761739001010010', expiryDate: '3012' } } },
      initiatingReason: 'return at the counter',
    }
    expect(await client().sendUnchecked('merchandiseCredit', body)).toMatchObject({ kind: 'unknown' })
    expect(await client().sendUnchecked('merchandiseCredit', body)).toMatchObject({ kind: 'approved' })
  })
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Accepts TCP and never speaks TLS: a handshake that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets: Socket[] = []
  const server: Server = createServer((socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((s) => s.destroy())
        server.close(() => resolve())
      }),
  }
}
