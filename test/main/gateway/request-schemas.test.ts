import { describe, expect, it } from 'vitest'
import { checkRequestBody } from '../../../src-main/gateway/request-schemas'
import { samplePayment } from '../../support/sample-bodies'

describe('offline payment body', () => {
  it('accepts a complete body', () => {
    expect(checkRequestBody('payment', samplePayment())).toMatchObject({ ok: true })
  })

  it('names a missing required field as V0007', () => {
    const body = samplePayment()
    delete body.pspInfo
    expect(checkRequestBody('payment', body)).toEqual({
      ok: false,
      problem: { kind: 'missing', field: 'pspInfo', message: 'pspInfo is required' },
    })
    const noId = samplePayment({ merchantTransInfo: { merchantTransTime: '2026-11-21T10:00:00Z' } })
    expect(checkRequestBody('payment', noId)).toMatchObject({
      ok: false,
      problem: { kind: 'missing', field: 'merchantTransInfo.merchantTransID' },
    })
  })

  it('counts metadata in UTF-8 bytes: 512 bytes pass, 513 fail even with fewer characters', () => {
    const ok = 'é'.repeat(256) // 512 bytes, 256 characters
    expect(checkRequestBody('payment', samplePayment({ metadata: ok }))).toMatchObject({ ok: true })
    const tooLong = `${ok}a` // 513 bytes, 257 characters
    expect(checkRequestBody('payment', samplePayment({ metadata: tooLong }))).toMatchObject({
      ok: false,
      problem: { kind: 'invalid', field: 'metadata' },
    })
    expect(checkRequestBody('payment', samplePayment({ metadata: '😀'.repeat(129) }))).toMatchObject({
      ok: false,
      problem: { field: 'metadata' },
    })
  })

  it('limits webhook to 300 bytes and initiatingReason to 64 bytes', () => {
    const url = `https://merchant.example/${'€'.repeat(92)}` // 25 + 276 = 301 bytes
    expect(checkRequestBody('payment', samplePayment({ webhook: url }))).toMatchObject({ ok: false, problem: { field: 'webhook' } })
    expect(checkRequestBody('payment', samplePayment({ webhook: url.slice(0, -1) }))).toMatchObject({ ok: true })
    const reversal = (reason: string) => checkRequestBody('reversal', { initiatingReason: reason })
    expect(reversal('ü'.repeat(32))).toMatchObject({ ok: true })
    expect(reversal(`${'ü'.repeat(32)}x`)).toMatchObject({ ok: false, problem: { field: 'initiatingReason' } })
  })

  it('requires exactly the currency minor digits', () => {
    expect(checkRequestBody('payment', samplePayment({ transAmount: { currency: 'JPY', value: '1234' } }))).toMatchObject({ ok: true })
    expect(checkRequestBody('payment', samplePayment({ transAmount: { currency: 'JPY', value: '12.34' } }))).toMatchObject({
      ok: false,
      problem: { field: 'transAmount.value' },
    })
    expect(checkRequestBody('payment', samplePayment({ transAmount: { currency: 'BHD', value: '1.234' } }))).toMatchObject({ ok: true })
    expect(checkRequestBody('payment', samplePayment({ transAmount: { currency: 'USD', value: 12.34 } }))).toMatchObject({
      ok: false,
      problem: { kind: 'invalid', field: 'transAmount.value' },
    })
    expect(checkRequestBody('payment', samplePayment({ transAmount: { currency: 'usd', value: '1.00' } }))).toMatchObject({
      ok: false,
      problem: { field: 'transAmount.currency' },
    })
  })

  it('refuses instalment without autoCapture and DCC without the original', () => {
    expect(checkRequestBody('payment', samplePayment({ autoCapture: false, instalment: { count: 3 } }))).toMatchObject({
      ok: false,
      problem: { field: 'instalment' },
    })
    expect(checkRequestBody('payment', samplePayment({ instalment: { count: 3 } }))).toMatchObject({ ok: true })
    expect(checkRequestBody('payment', samplePayment({ DCCBillingAmount: { currency: 'EUR', value: '11.00' } }))).toMatchObject({
      ok: false,
      problem: { field: 'origMerchantTransInfo' },
    })
  })

  it('needs card data to identify the card', () => {
    const body = samplePayment({ paymentMethod: { type: 'card', card: { cardInfo: { icCardData: '9F2608AABBCCDDEEFF0011' } } } })
    expect(checkRequestBody('payment', body)).toMatchObject({ ok: false, problem: { field: 'paymentMethod.card.cardInfo.track2' } })
  })
})

describe('other operations', () => {
  const info = { merchantTransID: 'T0001-000002', merchantTransTime: '2026-11-21T10:00:00Z' }
  it('tips need merchantTransInfo and transAmount', () => {
    expect(checkRequestBody('tips', { merchantTransInfo: info, transAmount: { currency: 'USD', value: '2.00' } })).toMatchObject({
      ok: true,
    })
    expect(checkRequestBody('tips', { merchantTransInfo: info })).toMatchObject({
      ok: false,
      problem: { kind: 'missing', field: 'transAmount' },
    })
  })
  it('cancel needs paymentMethod (card present again)', () => {
    expect(checkRequestBody('cancel', { merchantTransInfo: info })).toMatchObject({
      ok: false,
      problem: { kind: 'missing', field: 'paymentMethod' },
    })
  })
  it('reversal may be empty', () => {
    expect(checkRequestBody('reversal', {})).toMatchObject({ ok: true })
  })
  it('capture needs an amount', () => {
    expect(
      checkRequestBody('capture', { merchantTransInfo: info, transAmount: { currency: 'EUR', value: '14.00' }, initiatingReason: 'close' }),
    ).toMatchObject({ ok: true })
  })
  it('garbage is refused, not thrown', () => {
    for (const junk of [null, 42, 'x', [], { autoCapture: 'yes' }]) expect(checkRequestBody('payment', junk)).toMatchObject({ ok: false })
  })
})
