/**
 * Returns through the local API, as the cashier window and a POS meet them: every return needs a
 * manager (signed in at the window, their number and PIN there, or for a POS a proof it asked
 * `approve` for), the return keeps the manager's number, a return without a sale needs a manager
 * account at all and is in the terminal's currency, and every answer fits the contract.
 */
import { COUNTER } from '../../support/service-harness'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULT_SCHEMAS } from '../../../src-shared/contract/operations'
import { wordsOf } from '../../../src-shared/errors'
import { TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, TEST_SALE_LIMITS } from '../../support/engine-harness'
import { startApiHarness, type ApiHarness } from './api-harness'

let api: ApiHarness

beforeAll(async () => {
  api = await startApiHarness({ engine: { limits: { ...TEST_SALE_LIMITS, unreferencedReturnMaxMinor: 2_000 } } })
})
afterAll(async () => {
  await api.close()
})

const MANAGER = { operatorId: '9', pin: '4321' }

/** What a POS sends for a manager's approval: a proof `approve` gave it for exactly this request. */
async function proofFor(request: Record<string, unknown>): Promise<string> {
  const proof = await api.op('approve', { operation: 'startReturn', request, ...MANAGER })
  expect(proof.json.ok).toBe(true)
  return proof.json.value.approval as string
}

async function chargedSale(amountMinor: number): Promise<string> {
  api.reader.present({ card: TEST_CARDS.chipVisa() })
  const sale = await api.op('startSale', { amountMinor })
  await api.engine.engine.txn.waitForOutcome(sale.json.value.id)
  return sale.json.value.id
}

describe('returns on the API', () => {
  it('a terminal without a manager refuses a return without a sale: nobody could approve it', async () => {
    const refused = await api.op('startReturn', { amountMinor: 500 })
    expect(refused.json).toMatchObject({ ok: false, error: { code: 'MANAGER_REQUIRED' } })
  })

  it("with operators, a return needs a manager's approval; it credits once and keeps who approved it", async () => {
    expect((await api.service.dispatch(COUNTER, 'addOperator', { ...MANAGER, name: 'Maria', role: 'manager' })).ok).toBe(true)
    const saleId = await chargedSale(3000)
    const listed = await api.op('listSales', {})
    expect(RESULT_SCHEMAS.listSales.safeParse(listed.json.value).success).toBe(true)
    expect(
      (listed.json.value as unknown as Array<{ id: string; returnableMinor?: number }>).find((s) => s.id === saleId)?.returnableMinor,
    ).toBe(3000)

    expect((await api.op('startReturn', { originalId: saleId, amountMinor: 1000 })).json).toMatchObject({
      ok: false,
      error: { code: 'MANAGER_REQUIRED' },
    })
    const tooLarge = { originalId: saleId, amountMinor: 3001 }
    expect((await api.op('startReturn', { ...tooLarge, approval: await proofFor(tooLarge) })).json).toMatchObject({
      ok: false,
      error: { code: 'RETURN_TOO_LARGE' },
    })

    api.reader.present({ card: TEST_CARDS.chipVisa() })
    const asked = { originalId: saleId, amountMinor: 1000 }
    const started = await api.op('startReturn', { ...asked, approval: await proofFor(asked) })
    expect(started.json.ok).toBe(true)
    expect(RESULT_SCHEMAS.startReturn.safeParse(started.json.value).success).toBe(true)
    expect(started.json.value).toMatchObject({ kind: 'return', originalId: saleId, operatorId: '9' })
    const id = started.json.value.id
    await eventually(() => api.engine.engine.txn.reads.get(id)?.state === 'credited')
    const answer = await api.op('getSale', { id })
    expect(RESULT_SCHEMAS.getSale.safeParse(answer.json.value).success).toBe(true)

    const report = await api.op('dayReport', {})
    expect(RESULT_SCHEMAS.dayReport.safeParse(report.json.value).success).toBe(true)
    expect(report.json.value).toMatchObject({ counts: { returns: 1 }, returnsMinor: { USD: 1000 } })
  })

  it('a return without a sale, approved by a manager, within its own limit', async () => {
    expect((await api.op('startReturn', { amountMinor: 2001, approval: await proofFor({ amountMinor: 2001 }) })).json).toMatchObject({
      ok: false,
      error: { code: 'RETURN_ABOVE_LIMIT' },
    })
    api.reader.present({ card: TEST_CARDS.swipeMastercard() })
    const started = await api.op('startReturn', { amountMinor: 2000, approval: await proofFor({ amountMinor: 2000 }) })
    expect(started.json.ok).toBe(true)
    await eventually(() => api.engine.engine.txn.reads.get(started.json.value.id)?.state === 'credited')
  })

  it("a return without a sale in another currency than the terminal's: refused with the catalogue's words, nothing credited", async () => {
    for (const currency of ['EUR', 'GBP', 'CHF', 'CAD']) {
      const request = { amountMinor: 1000, currency }
      const refused = await api.op('startReturn', { ...request, approval: await proofFor(request) })
      expect(refused.status).toBe(422)
      expect(refused.json).toMatchObject({
        ok: false,
        error: { code: 'CURRENCY_NOT_ACCEPTED', words: wordsOf('CURRENCY_NOT_ACCEPTED') },
      })
    }
    const sales = (await api.op('listSales', {})).json.value as unknown as Array<{ currency: string }>
    expect(sales.filter((sale) => sale.currency !== 'USD')).toEqual([])
  })

  it("a POS's token: a manager's number and PIN in the request approve nothing, nor a proof another caller asked for", async () => {
    const request = { amountMinor: 500 }
    const pin = await api.op('startReturn', { ...request, approval: MANAGER })
    expect(pin.json).toMatchObject({
      ok: false,
      error: { code: 'MANAGER_REQUIRED', message: expect.stringMatching(/only at the cashier window/) },
    })
    // A proof the cashier window asked for is that window's: the POS holding it gets nothing from it.
    const window = await api.cashierSession()
    const asked = await api.call('POST', '/v1/ops/approve', {
      body: JSON.stringify({ operation: 'startReturn', request, ...MANAGER }),
      headers: { cookie: window, 'content-type': 'application/json' },
    })
    const theirs = (JSON.parse(asked.body) as { value: { approval: string } }).value.approval
    expect((await api.op('startReturn', { ...request, approval: theirs })).json).toMatchObject({
      ok: false,
      error: { code: 'MANAGER_REQUIRED', message: expect.stringMatching(/given to another caller/) },
    })
  })
})
