/**
 * Spoken prompts for one sale, asked for by the POS over the local API (startSale `speech`): the
 * request is validated like every field, and the sale carries `speech: true` wherever the agent shows
 * it (the answer, its first live event, a stream's snapshot, getSale, listSales), so the customer
 * display reads it from the sale itself. A sale without it carries nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PosStreamSnapshot, SaleView } from '../../../src-shared/contract'
import { startApiHarness, type ApiHarness } from './api-harness'

let api: ApiHarness

beforeAll(async () => {
  api = await startApiHarness()
})
afterAll(async () => api.close())

const saleEvents = (messages: Array<{ event: Record<string, unknown> }>): SaleView[] =>
  messages.filter((m) => m.event.type === 'sale').map((m) => m.event.sale as SaleView)

describe('startSale with speech', () => {
  it('refuses a speech that is not true or false, naming the field, and starts nothing', async () => {
    const refused = await api.op('startSale', { amountMinor: 500, speech: 'yes' })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.json)).toContain('speech')
    expect(api.engine.engine.journal.openSales()).toEqual([])
  })

  it('marks the sale from its first event on; a sale without it is not marked', async () => {
    const stream = await api.events()
    await stream.waitFor((s) => s.named('snapshot').length === 1)
    // No card is presented: the sale waits at the reader.
    const started = await api.op('startSale', { amountMinor: 600, reference: 'ECR-SPEAK', speech: true })
    expect(started.status).toBe(200)
    const id = started.json.value.id
    expect(started.json.value.speech).toBe(true)
    await stream.waitFor((s) => saleEvents(s.messages()).some((sale) => sale.id === id))
    const first = saleEvents(stream.messages()).find((sale) => sale.id === id)!
    expect(first).toMatchObject({ state: 'readingCard', speech: true })
    const again = await api.events()
    await again.waitFor((s) => s.named('snapshot').length === 1)
    const snapshot = JSON.parse(again.named('snapshot')[0]!.data) as PosStreamSnapshot
    expect(snapshot.sale).toMatchObject({ id, speech: true })
    again.close()
    expect((await api.op('getSale', { id })).json.value.speech).toBe(true)
    await api.op('cancelSale', { id })
    await stream.waitFor((s) => saleEvents(s.messages()).some((sale) => sale.id === id && sale.state === 'abandoned'))
    expect(
      saleEvents(stream.messages())
        .filter((sale) => sale.id === id)
        .every((sale) => sale.speech === true),
    ).toBe(true)

    const plain = await api.op('startSale', { amountMinor: 700, reference: 'ECR-QUIET', speech: false })
    expect(plain.json.value).not.toHaveProperty('speech')
    await api.op('cancelSale', { id: plain.json.value.id })
    const listed = (await api.op('listSales', {})).json.value as unknown as SaleView[]
    expect(listed.find((sale) => sale.id === id)?.speech).toBe(true)
    expect(listed.find((sale) => sale.id === plain.json.value.id)).not.toHaveProperty('speech')
    stream.close()
  })
})
