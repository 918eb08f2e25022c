/**
 * Returns through the local API, as the cashier window and a POS meet them: every return needs a
 * manager (signed in, or their number and PIN in the request), the return keeps the manager's number,
 * a return without a sale needs a manager account at all, and every answer fits the contract.
 */
import { COUNTER } from '../../support/service-harness'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESULT_SCHEMAS } from '../../../src-shared/contract/operations'
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

  it("with operators, a return needs a manager's number and PIN; it credits once and keeps who approved it", async () => {
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
    expect((await api.op('startReturn', { originalId: saleId, amountMinor: 3001, approval: MANAGER })).json).toMatchObject({
      ok: false,
      error: { code: 'RETURN_TOO_LARGE' },
    })

    api.reader.present({ card: TEST_CARDS.chipVisa() })
    const started = await api.op('startReturn', { originalId: saleId, amountMinor: 1000, approval: MANAGER })
    expect(started.json.ok).toBe(true)
    expect(RESULT_SCHEMAS.startReturn.safeParse(started.json.value).success).toBe(true)
    expect(started.json.value).toMatchObject({ kind: 'return', originalId: saleId, operatorId: '9' })
    const id = started.json.value.id
    await eventually(() => api.engine.engine.txn.get(id)?.state === 'credited')
    const answer = await api.op('getSale', { id })
    expect(RESULT_SCHEMAS.getSale.safeParse(answer.json.value).success).toBe(true)

    const report = await api.op('dayReport', {})
    expect(RESULT_SCHEMAS.dayReport.safeParse(report.json.value).success).toBe(true)
    expect(report.json.value).toMatchObject({ counts: { returns: 1 }, returnsMinor: { USD: 1000 } })
  })

  it('a return without a sale, approved by a manager, within its own limit', async () => {
    expect((await api.op('startReturn', { amountMinor: 2001, approval: MANAGER })).json).toMatchObject({
      ok: false,
      error: { code: 'RETURN_ABOVE_LIMIT' },
    })
    api.reader.present({ card: TEST_CARDS.swipeMastercard() })
    const started = await api.op('startReturn', { amountMinor: 2000, approval: MANAGER })
    expect(started.json.ok).toBe(true)
    await eventually(() => api.engine.engine.txn.get(started.json.value.id)?.state === 'credited')
  })
})
