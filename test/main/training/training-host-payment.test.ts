import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIGN_TYPES } from '../../../src-main/gateway/signer'
import { CARDS, MERCHANT_TIME, newId, paymentBody, startHarness, type Harness } from './training-host-harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

describe('training host: payment', () => {
  it('approves and answers per docs/gateway.md §D1-§D2, signed over the response bytes', async () => {
    const id = newId()
    const reply = await h.send({ kind: 'payment', body: paymentBody(id, { metadata: 'table 4' }) })
    expect(reply.status).toBe(200)
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(reply.headers.datetime).toBe(reply.request.dateTime)
    expect(reply.headers.msgid).toBe(reply.request.msgId)
    expect(reply.headers.signtype).toBe('HMAC-SHA256')
    expect(reply.verified).toBe(true)
    const { result, payment, paymentMethod, metadata } = reply.json
    expect(result).toMatchObject({ code: 'S0000', message: 'Success' })
    expect(metadata).toBe('table 4')
    expect(payment).toMatchObject({
      merchantTransInfo: { merchantTransID: id, merchantTransTime: MERCHANT_TIME },
      transAmount: { currency: 'USD', value: '12.34' },
      status: 'Authorised',
    })
    expect(payment.svcTransInfo).toEqual({
      svcTransID: expect.any(String),
      svcTransTime: expect.stringMatching(/\+00:00$/),
      retrievalReferenceNum: expect.stringMatching(/^\d{12}$/),
      traceNum: expect.stringMatching(/^\d{6}$/),
    })
    expect(payment.pspTransInfo).toEqual({
      authorizationCode: expect.stringMatching(/^[A-Z0-9]{6}$/),
      pspTransID: expect.any(String),
      pspTransTime: expect.any(String),
    })
    expect(payment.failureCode).toBeUndefined()
    expect(paymentMethod).toEqual({
      type: 'card',
      card: { first6No: '411111', last4No: '1111', paymentBrand: 'VISA', fundingType: 'credit' },
    })
    expect(reply.raw.toString()).not.toContain(CARDS.visa)
  })

  it.each(SIGN_TYPES)('answers with the request SignType %s and echoes KeyID', async (signType) => {
    const reply = await h.send({ kind: 'payment', body: paymentBody(newId()), signType, headers: { keyid: 'key-7' } })
    expect(reply.json.result.code).toBe('S0000')
    expect(reply.headers.signtype).toBe(signType)
    expect(reply.headers.keyid).toBe('key-7')
    expect(reply.verified).toBe(true)
  })

  it('autoCapture true → Captured', async () => {
    const reply = await h.send({ kind: 'payment', body: paymentBody(newId(), { autoCapture: true }) })
    expect(reply.json.payment.status).toBe('Captured')
  })

  it.each([
    ['10.51', 'USD', '51', undefined],
    ['1051', 'JPY', '51', undefined],
    ['10.051', 'BHD', '51', undefined],
    ['7.05', 'USD', '05', undefined],
    ['12.34', 'USD', '14', { cardNumber: CARDS.luhnFail, expiryDate: '2912' }],
    ['12.34', 'USD', '54', { track2: `${CARDS.visa}=2610101` }],
    ['12.34', 'USD', '54', { track1: `%B${CARDS.visa}^DOE/J^2610101?` }],
  ])('declines %s %s → pspFailureCode %s (card %o)', async (value, currency, code, cardInfo) => {
    const reply = await h.send({ kind: 'payment', body: paymentBody(newId(), { value, currency, ...(cardInfo ? { cardInfo } : {}) }) })
    expect(reply.verified).toBe(true)
    expect(reply.json.result.code).toBe('S0000')
    const p = reply.json.payment
    expect(p).toMatchObject({
      status: 'Failed',
      failureCode: 'B0050',
      pspFailureCode: code,
      failureReason: expect.any(String),
      pspFailureReason: expect.any(String),
    })
    expect(p.pspTransInfo.authorizationCode).toBeUndefined()
  })

  it.each([
    [{ track2: `${CARDS.mastercard}D2611101` }, 'MASTERCARD', '555555', '4444'],
    [{ cardNumber: CARDS.amex, expiryDate: '2611' }, 'AMEX', '378282', '0005'],
    [{ track1: `%B${CARDS.visa}^DOE/J^2912101?` }, 'VISA', '411111', '1111'],
  ])('reads the card from %o', async (cardInfo, brand, first6, last4) => {
    const reply = await h.send({ kind: 'payment', body: paymentBody(newId(), { cardInfo }) })
    expect(reply.json.payment.status).toBe('Authorised')
    expect(reply.json.paymentMethod.card).toMatchObject({ paymentBrand: brand, first6No: first6, last4No: last4 })
  })

  it('keeps masked numbers only in the ledger', async () => {
    const id = newId()
    await h.send({ kind: 'payment', body: paymentBody(id) })
    const ledger = h.host.ledger()
    expect(JSON.stringify(ledger)).not.toContain(CARDS.visa)
    expect(ledger.entries.find((e) => e.merchantTransID === id)).toMatchObject({
      operation: 'payment',
      aid: 'acq-0001',
      maskedPan: '411111******1111',
      resultCode: 'S0000',
      status: 'Authorised',
      amount: { currency: 'USD', value: '12.34' },
      payment: { status: 'Authorised' },
    })
    expect(ledger.payments.find((p) => p.merchantTransID === id)).toMatchObject({
      status: 'Authorised',
      maskedPan: '411111******1111',
      authorizationCode: expect.any(String),
    })
  })
})

describe('training host: duplicate merchantTransID (docs/gateway.md §D3)', () => {
  it('the same body, keys in another order, gets the first response again, re-signed', async () => {
    const id = newId()
    const first = await h.send({ kind: 'payment', body: paymentBody(id) })
    const body = paymentBody(id)
    const reordered = Object.fromEntries(Object.entries(body).reverse())
    const again = await h.send({ kind: 'payment', body: reordered, signType: 'SHA512' })
    expect(again.raw.equals(first.raw)).toBe(true)
    expect(again.json.payment.svcTransInfo.svcTransID).toBe(first.json.payment.svcTransInfo.svcTransID)
    expect(again.headers.msgid).toBe(again.request.msgId)
    expect(again.headers.signtype).toBe('SHA512')
    expect(again.verified).toBe(true)
    const entries = h.host.ledger().entries.filter((e) => e.merchantTransID === id)
    expect(entries.map((e) => e.replayed ?? false)).toEqual([false, true])
    expect(h.host.ledger().payments.filter((p) => p.merchantTransID === id)).toHaveLength(1)
  })

  it('a declined payment repeated stays the same decline', async () => {
    const id = newId()
    const first = await h.send({ kind: 'payment', body: paymentBody(id, { value: '3.51' }) })
    const again = await h.send({ kind: 'payment', body: paymentBody(id, { value: '3.51' }) })
    expect(again.raw.equals(first.raw)).toBe(true)
  })

  it.each([
    [
      'another merchantTransTime',
      (b: Record<string, unknown>) => ({
        ...b,
        merchantTransInfo: {
          merchantTransID: (b.merchantTransInfo as { merchantTransID: string }).merchantTransID,
          merchantTransTime: '2026-11-21T13:00:01+01:00',
        },
      }),
    ],
    ['another amount', (b: Record<string, unknown>) => ({ ...b, transAmount: { currency: 'USD', value: '12.35' } })],
    ['an extra field', (b: Record<string, unknown>) => ({ ...b, metadata: 'x' })],
  ])('%s → B0031, nothing changes', async (_name, change) => {
    const id = newId()
    const first = await h.send({ kind: 'payment', body: paymentBody(id) })
    const conflict = await h.send({ kind: 'payment', body: change(paymentBody(id)) })
    expect(conflict.status).toBe(200)
    expect(conflict.verified).toBe(true)
    expect(conflict.json.result.code).toBe('B0031')
    expect(conflict.json.payment).toBeUndefined()
    const payment = h.host.ledger().payments.find((p) => p.merchantTransID === id)
    expect(payment).toMatchObject({
      status: 'Authorised',
      svcTransID: first.json.payment.svcTransInfo.svcTransID,
      transAmount: { value: '12.34' },
    })
  })

  it('null members equal absent ones', async () => {
    const id = newId()
    const first = await h.send({ kind: 'payment', body: paymentBody(id) })
    const again = await h.send({ kind: 'payment', body: { ...paymentBody(id), metadata: null } })
    expect(again.raw.equals(first.raw)).toBe(true)
  })

  it('merchantTransIDs are per aid', async () => {
    const id = newId()
    await h.send({ kind: 'payment', body: paymentBody(id) })
    const other = await h.send({
      kind: 'payment',
      aid: 'acq-0002',
      key: 'ZYXWVUTSRQPONMLKJIHGFEDCBA987654',
      body: paymentBody(id, { value: '1.00' }),
    })
    expect(other.json.payment.status).toBe('Authorised')
  })
})
