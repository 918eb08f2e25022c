/**
 * Finding sales through the local API, on a real journal file and the training host: by day or batch
 * (a closed one, or the open one), narrowed by amount, the card's last four digits, the POS's reference
 * and the operator; malformed filters refused, and never a card number accepted or answered.
 */
import { COUNTER } from '../../support/service-harness'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULT_SCHEMAS } from '../../../src-shared/contract/operations'
import { TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startApiHarness, type ApiHarness } from './api-harness'

let api: ApiHarness
let cashier: string
const MANAGER = { operatorId: '9', pin: '4321' }
const sales: Record<'a' | 'b' | 'c' | 'd', string> = { a: '', b: '', c: '', d: '' }

async function atCounter(name: string, body: unknown = {}) {
  const reply = await api.call('POST', `/v1/ops/${name}`, {
    body: JSON.stringify(body),
    headers: { cookie: cashier, 'content-type': 'application/json' },
  })
  return JSON.parse(reply.body) as { ok: boolean; value: { id: string } }
}

async function charge(card: 'chipVisa' | 'swipeMastercard', body: Record<string, unknown>, from: 'pos' | 'counter'): Promise<string> {
  api.reader.present({ card: TEST_CARDS[card]() })
  const started = from === 'pos' ? (await api.op('startSale', body)).json : await atCounter('startSale', body)
  expect(started.ok).toBe(true)
  expect((await api.engine.engine.txn.waitForOutcome(started.value.id)).state).toBe('approved')
  return started.value.id
}

/** The ids listSales answers, checked against the contract. */
async function found(filters: Record<string, unknown>): Promise<string[]> {
  const answer = await api.op('listSales', filters)
  expect(answer.json.ok, JSON.stringify(answer.json)).toBe(true)
  expect(RESULT_SCHEMAS.listSales.safeParse(answer.json.value).success).toBe(true)
  return (answer.json.value as unknown as Array<{ id: string }>).map((s) => s.id)
}

beforeAll(async () => {
  api = await startApiHarness()
  cashier = await api.cashierSession()
  expect((await api.service.dispatch(COUNTER, 'addOperator', { ...MANAGER, name: 'Maria', role: 'manager' })).ok).toBe(true)
  expect((await atCounter('signIn', MANAGER)).ok).toBe(true)
  // Batch 1: a at the counter (operator 9), b from the POS with its reference.
  sales.a = await charge('chipVisa', { amountMinor: 1250 }, 'counter')
  sales.b = await charge('swipeMastercard', { amountMinor: 1250, reference: 'ECR-1' }, 'pos')
  // The manager signed in at the counter closes it (the POS would need a proof from approve).
  const closed = await atCounter('closeDay')
  expect(closed.value).toMatchObject({ batch: { number: 1 } })
  // The open batch (2): c from the POS, d at the counter (another amount: the same card and amount
  // again so soon would ask the cashier whether to charge twice).
  sales.c = await charge('chipVisa', { amountMinor: 3000, reference: 'ECR-2' }, 'pos')
  sales.d = await charge('swipeMastercard', { amountMinor: 4000 }, 'counter')
})
afterAll(async () => {
  await api.close()
})

describe('listSales finds sales', () => {
  it('of the open batch by default, of a closed batch, of a day', async () => {
    const { a, b, c, d } = sales
    expect(await found({})).toEqual([c, d])
    expect(await found({ batch: 'open' })).toEqual([c, d])
    expect(await found({ batch: 2 })).toEqual([c, d])
    expect(await found({ batch: 1 })).toEqual([a, b])
    const day = api.engine.engine.txn.reads.get(a)!.businessDay
    expect(await found({ day })).toEqual([a, b, c, d])
    expect(await found({ day, batch: 1 })).toEqual([a, b])
    expect(await found({ day: '2001-01-01' })).toEqual([])
  })

  it('by each filter alone, within the batch or day picked', async () => {
    const { a, b, c, d } = sales
    const day = api.engine.engine.txn.reads.get(a)!.businessDay
    expect(await found({ day, amountMinor: 1250 })).toEqual([a, b])
    expect(await found({ amountMinor: 1250 })).toEqual([])
    expect(await found({ amountMinor: 4000 })).toEqual([d])
    expect(await found({ day, last4: '0010' })).toEqual([a, c])
    expect(await found({ day, last4: '0434' })).toEqual([b, d])
    expect(await found({ batch: 1, reference: 'ECR-1' })).toEqual([b])
    expect(await found({ reference: 'ECR-1' })).toEqual([])
    expect(await found({ reference: 'ECR-2' })).toEqual([c])
    expect(await found({ day, operatorId: '9' })).toEqual([a, d])
  })

  it('by filters together: all must match', async () => {
    const { a, b, d } = sales
    const day = api.engine.engine.txn.reads.get(a)!.businessDay
    expect(await found({ batch: 1, amountMinor: 1250, last4: '0010' })).toEqual([a])
    expect(await found({ batch: 1, amountMinor: 1250, last4: '0434', reference: 'ECR-1' })).toEqual([b])
    expect(await found({ batch: 'open', last4: '0434', operatorId: '9', amountMinor: 4000 })).toEqual([d])
    expect(await found({ day, last4: '0010', operatorId: '9', batch: 'open' })).toEqual([])
  })

  it('answers with the masked card only', async () => {
    const answer = await api.op('listSales', { batch: 1 })
    const body = JSON.stringify(answer.json)
    expect(body).toContain('******0010')
    expect(body).not.toContain(TEST_CARDS.chipVisa().pan)
    expect(body).not.toContain(TEST_CARDS.swipeMastercard().pan)
  })

  it('refuses malformed filters in plain words, and an unknown batch', async () => {
    const pan = TEST_CARDS.chipVisa().pan
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ last4: pan }, /last four digits/],
      [{ last4: '123' }, /last four digits/],
      [{ last4: '12a4' }, /last four digits/],
      [{ amountMinor: 0 }, /more than zero/],
      [{ amountMinor: 12.5 }, /amountMinor/],
      [{ amountMinor: '1250' }, /amountMinor/],
      [{ batch: 0 }, /batch/],
      [{ batch: 'closed' }, /batch/],
      [{ day: 'yesterday' }, /YYYY-MM-DD/],
      [{ operatorId: 'ann smith' }, /operator number/],
      [{ reference: '' }, /reference/],
      [{ pan }, /pan/],
    ]
    for (const [filters, words] of bad) {
      const answer = await api.op('listSales', filters)
      const text = JSON.stringify(answer.json)
      expect(answer.status, text).toBe(400)
      expect(answer.json).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } })
      expect(text).toMatch(words)
      // The card number sent by mistake is not echoed back.
      expect(text).not.toContain(pan)
    }
    const unknown = await api.op('listSales', { batch: 7 })
    expect(unknown.status).toBe(404)
    expect(unknown.json).toMatchObject({ ok: false, error: { code: 'NO_SUCH_BATCH' } })
  })
})
