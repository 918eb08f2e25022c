import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CARDS, amountBody, cancelBody, newId, paymentBody, startHarness, type Harness, type PaymentOptions } from './training-host-harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

async function pay(o: PaymentOptions = {}): Promise<string> {
  const id = newId('P')
  const reply = await h.send({ kind: 'payment', body: paymentBody(id, o) })
  expect(reply.json.result.code).toBe('S0000')
  return id
}

const paymentOf = (id: string) => h.host.ledger().payments.find((p) => p.merchantTransID === id)
const cancel = (originalId: string, cardInfo?: Record<string, unknown>) =>
  h.send({ kind: 'cancel', originalId, body: cancelBody(newId('C'), cardInfo) })
const reverse = (originalId: string) => h.send({ kind: 'reversal', originalId, body: { initiatingReason: 'timeout' } })
const tip = (originalId: string, value: string, currency = 'USD') =>
  h.send({ kind: 'tips', originalId, body: amountBody(newId('G'), value, currency) })
const capture = (originalId: string, value: string, currency = 'USD') =>
  h.send({ kind: 'capture', originalId, body: amountBody(newId('K'), value, currency) })

function expectRecord(record: Record<string, unknown>, status: string, failureCode?: string) {
  expect(record).toMatchObject({
    merchantTransInfo: expect.any(Object),
    svcTransInfo: expect.any(Object),
    pspTransInfo: expect.any(Object),
    status,
  })
  if (failureCode) expect(record).toMatchObject({ failureCode, failureReason: expect.any(String) })
  else expect(record).not.toHaveProperty('failureCode')
  expect((record.pspTransInfo as Record<string, unknown>).authorizationCode === undefined).toBe(status === 'Failed')
}

describe('training host: cancel (docs/gateway.md §D3)', () => {
  it('cancels an approved payment: its own merchantTransInfo, payment now Cancelled', async () => {
    const id = await pay()
    const reply = await cancel(id, { track2: `${CARDS.visa}=2912101` })
    expect(reply.verified).toBe(true)
    expect(reply.json.result.code).toBe('S0000')
    expectRecord(reply.json.cancel, 'Success')
    expect(reply.json.cancel.merchantTransInfo.merchantTransID).toMatch(/^C-/)
    expect(reply.json.payment).toMatchObject({ merchantTransInfo: { merchantTransID: id }, status: 'Cancelled' })
    expect(paymentOf(id)?.status).toBe('Cancelled')
    const entry = h.host.ledger().entries.at(-1)
    expect(entry).toMatchObject({
      operation: 'cancel',
      originalMerchantTransID: id,
      status: 'Success',
      payment: { merchantTransID: id, status: 'Cancelled' },
    })
  })

  it('cancels a captured payment too', async () => {
    const id = await pay({ autoCapture: true })
    expect((await cancel(id)).json.cancel.status).toBe('Success')
    expect(paymentOf(id)?.status).toBe('Cancelled')
  })

  it('unknown original → Failed B0040, no payment', async () => {
    const reply = await cancel('never-seen')
    expect(reply.json.result.code).toBe('S0000')
    expectRecord(reply.json.cancel, 'Failed', 'B0040')
    expect(reply.json.payment).toBeUndefined()
  })

  it.each([
    ['declined', async () => pay({ value: '1.51' })],
    [
      'already cancelled',
      async () => {
        const id = await pay()
        await cancel(id)
        return id
      },
    ],
    [
      'reversed',
      async () => {
        const id = await pay()
        await reverse(id)
        return id
      },
    ],
  ])('%s original → Failed B0041, nothing changes', async (_name, make) => {
    const id = await make()
    const before = paymentOf(id)?.status
    const reply = await cancel(id)
    expectRecord(reply.json.cancel, 'Failed', 'B0041')
    expect(paymentOf(id)?.status).toBe(before)
  })

  it("another card than the payment's → Failed B0044", async () => {
    const id = await pay()
    const reply = await cancel(id, { cardNumber: CARDS.mastercard })
    expectRecord(reply.json.cancel, 'Failed', 'B0044')
    expect(paymentOf(id)?.status).toBe('Authorised')
  })
})

describe('training host: reversal (docs/gateway.md §D3)', () => {
  it('reverses an approved payment, and a repeat returns the same record', async () => {
    const id = await pay()
    const first = await reverse(id)
    expect(first.verified).toBe(true)
    expectRecord(first.json.reversal, 'Success')
    expect(first.json.reversal.merchantTransInfo.merchantTransID).toBe(id)
    expect(first.json.payment.status).toBe('Reversed')
    const again = await reverse(id)
    expect(again.json.reversal).toEqual(first.json.reversal)
    expect(paymentOf(id)?.status).toBe('Reversed')
    const entries = h.host.ledger().entries.filter((e) => e.operation === 'reversal' && e.merchantTransID === id)
    expect(entries.map((e) => [e.status, e.replayed ?? false])).toEqual([
      ['Success', false],
      ['Success', true],
    ])
  })

  it('unknown original → Success without payment; the late payment is then Failed B0042', async () => {
    const id = newId('P')
    const reply = await reverse(id)
    expectRecord(reply.json.reversal, 'Success')
    expect(reply.json.payment).toBeUndefined()
    const late = await h.send({ kind: 'payment', body: paymentBody(id) })
    expect(late.json.payment).toMatchObject({ status: 'Failed', failureCode: 'B0042' })
    expect((await reverse(id)).json.reversal).toEqual(reply.json.reversal)
  })

  it.each([
    [
      'cancelled',
      async () => {
        const id = await pay()
        await cancel(id)
        return id
      },
      'Cancelled',
    ],
    ['declined', async () => pay({ value: '2.05' }), 'Failed'],
    ['captured', async () => pay({ autoCapture: true }), 'Reversed'],
  ])('%s original → Success, payment %s', async (_name, make, status) => {
    const id = await make()
    const reply = await reverse(id)
    expect(reply.json.reversal.status).toBe('Success')
    expect(reply.json.payment.status).toBe(status)
    expect(paymentOf(id)?.status).toBe(status)
  })
})

describe('training host: tips and capture (docs/gateway.md §D3, the restaurant flow)', () => {
  it('authorise, tip, tip again (replaces), capture base plus tip', async () => {
    const id = await pay({ value: '40.00' })
    const first = await tip(id, '4.00')
    expectRecord(first.json.tips, 'Success')
    expect(first.json.tips.transAmount).toEqual({ currency: 'USD', value: '4.00' })
    expect(first.json.payment.tipAmount).toEqual({ currency: 'USD', value: '4.00' })
    const second = await tip(id, '6.00')
    expect(second.json.payment).toMatchObject({ status: 'Authorised', tipAmount: { value: '6.00' }, transAmount: { value: '40.00' } })
    const wrong = await capture(id, '44.00')
    expectRecord(wrong.json.capture, 'Failed', 'B0044')
    expect(wrong.json.capture.failureReason).toContain('USD 46.00')
    const done = await capture(id, '46.00')
    expect(done.verified).toBe(true)
    expectRecord(done.json.capture, 'Success')
    expect(done.json.payment).toMatchObject({ status: 'Captured', tipAmount: { value: '6.00' } })
    expect(paymentOf(id)).toMatchObject({ status: 'Captured', tipAmount: { currency: 'USD', value: '6.00' } })
    const entries = h.host.ledger().entries.filter((e) => e.originalMerchantTransID === id)
    expect(entries.map((e) => [e.operation, e.status])).toEqual([
      ['tips', 'Success'],
      ['tips', 'Success'],
      ['capture', 'Failed'],
      ['capture', 'Success'],
    ])
  })

  it('capture without a tip is the base amount; a second capture → B0041', async () => {
    const id = await pay({ value: '10.00' })
    expect((await capture(id, '10.00')).json.capture.status).toBe('Success')
    expectRecord((await capture(id, '10.00')).json.capture, 'Failed', 'B0041')
  })

  it('tips are allowed on a Captured payment, also named by its capture id', async () => {
    const id = await pay({ value: '10.00' })
    const captureId = newId('K')
    await h.send({ kind: 'capture', originalId: id, body: amountBody(captureId, '10.00') })
    const reply = await tip(captureId, '1.50')
    expect(reply.json.tips.status).toBe('Success')
    expect(paymentOf(id)?.tipAmount).toEqual({ currency: 'USD', value: '1.50' })
  })

  it('a zero tip removes the tip', async () => {
    const id = await pay()
    await tip(id, '2.00')
    await tip(id, '0.00')
    expect(paymentOf(id)?.tipAmount).toBeUndefined()
  })

  it.each([
    ['unknown', async () => 'never-seen', 'B0040'],
    ['declined', async () => pay({ value: '9.51' }), 'B0041'],
    [
      'cancelled',
      async () => {
        const id = await pay()
        await cancel(id)
        return id
      },
      'B0041',
    ],
    [
      'reversed',
      async () => {
        const id = await pay()
        await reverse(id)
        return id
      },
      'B0041',
    ],
  ])('tips and capture on a %s payment → Failed %s', async (_name, make, code) => {
    const id = await make()
    expectRecord((await tip(id, '1.00')).json.tips, 'Failed', code)
    expectRecord((await capture(id, '12.34')).json.capture, 'Failed', code)
    expect(paymentOf(id)?.tipAmount).toBeUndefined()
  })

  it('a tip or capture in another currency → Failed B0044', async () => {
    const id = await pay()
    expectRecord((await tip(id, '1.00', 'EUR')).json.tips, 'Failed', 'B0044')
    expectRecord((await capture(id, '12.34', 'EUR')).json.capture, 'Failed', 'B0044')
    expect(paymentOf(id)?.status).toBe('Authorised')
  })

  it('duplicates of tips/capture/cancel replay; the same id for another operation → B0031', async () => {
    const id = await pay()
    const tipBody = amountBody(newId('G'), '1.00')
    const first = await h.send({ kind: 'tips', originalId: id, body: tipBody })
    const again = await h.send({ kind: 'tips', originalId: id, body: tipBody })
    expect(again.raw.equals(first.raw)).toBe(true)
    const asCapture = await h.send({ kind: 'capture', originalId: id, body: tipBody })
    expect(asCapture.json.result.code).toBe('B0031')
    const reuse = await h.send({ kind: 'cancel', originalId: id, body: cancelBody(id) })
    expect(reuse.json.result.code).toBe('B0031')
    expect(paymentOf(id)?.status).toBe('Authorised')
  })
})
