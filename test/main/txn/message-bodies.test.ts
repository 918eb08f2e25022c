import { describe, expect, it } from 'vitest'
import { checkRequestBody } from '../../../src-main/gateway/request-schemas'
import type { SaleRecord } from '../../../src-main/journal'
import { captureBody, cancelBody, paymentBody, reversalBody, tipsBody } from '../../../src-main/txn/message-bodies'
import { TEST_CARDS } from '../../fakes/scripted-card-reader'

const merchant = { storeId: 'S1', terminalId: 'T1', merchantId: 'M1', storeName: 'Corner Cafe', pspInfo: { mcc: '5812' } }
const sale = (extra: Partial<SaleRecord> = {}): SaleRecord => ({
  id: 'T1-00000009',
  state: 'sending',
  createdAt: 0,
  updatedAt: 0,
  businessDay: '2026-11-21',
  transTime: '2026-11-21T10:00:00+01:00',
  amountMinor: 1234,
  currency: 'USD',
  autoCapture: true,
  offline: false,
  chip: true,
  tipMinor: 250,
  tipState: 'pending',
  ...extra,
})

describe('request bodies built from the sale', () => {
  it("payment: the sale's offline policy, kept in the same options column, is the agent's and never goes to the host", () => {
    const body = paymentBody(
      sale({ options: JSON.stringify({ metadata: 'order 78', offlinePolicy: 'forceOffline' }) }),
      TEST_CARDS.chipVisa(),
      merchant,
    )
    expect(body).toMatchObject({ metadata: 'order 78' })
    expect(body).not.toHaveProperty('offlinePolicy')
  })

  it('payment: card data, entry mode, pspInfo with the terminal ids, amount, and the integrator fields', () => {
    const body = paymentBody(
      sale({
        options: JSON.stringify({
          metadata: 'order 77',
          webhook: 'https://m.example/h',
          merchantOrderReference: 'ORD-77',
          offlinePolicy: undefined,
        }),
      }),
      TEST_CARDS.chipVisa(),
      merchant,
    )
    expect(body).toMatchObject({
      autoCapture: true,
      merchantTransInfo: {
        merchantTransID: 'T1-00000009',
        merchantTransTime: '2026-11-21T10:00:00+01:00',
        merchantOrderReference: 'ORD-77',
      },
      paymentMethod: {
        type: 'card',
        card: {
          posEntryMode: '051',
          termReadability: '5',
          pinFlag: false,
          cardInfo: { track2: '4761739001010010=30122011143804400000', cardSequenceNum: '01' },
        },
      },
      pspInfo: { merchantID: 'M1', terminalID: 'T1', storeID: 'S1', storeName: 'Corner Cafe', mcc: '5812' },
      transAmount: { currency: 'USD', value: '12.34' },
      metadata: 'order 77',
      webhook: 'https://m.example/h',
    })
    expect(checkRequestBody('payment', body)).toMatchObject({ ok: true })
  })

  it('follow-ups: tip is the tip itself, capture is base plus tip, reversal carries the ICC data, cancel the card read again', () => {
    expect(tipsBody('T1-00000009-T1', 'x', sale()).transAmount).toEqual({ currency: 'USD', value: '2.50' })
    expect(captureBody('T1-00000009-C1', 'x', sale()).transAmount).toEqual({ currency: 'USD', value: '14.84' })
    expect(reversalBody('timeout', TEST_CARDS.chipVisa())).toMatchObject({
      initiatingReason: 'timeout',
      paymentMethod: { card: { cardInfo: { icCardData: expect.stringMatching(/^9F26/) } } },
    })
    expect(reversalBody('x'.repeat(100), undefined).initiatingReason).toHaveLength(64)
    const cancel = cancelBody('T1-00000009-V1', '2026-11-21T11:00:00+01:00', TEST_CARDS.swipeMastercard())
    expect(checkRequestBody('cancel', cancel)).toMatchObject({ ok: true })
    expect(cancel.paymentMethod.card).toMatchObject({ icCardCondCode: '1', noSecretNoSignFlag: '1' })
  })
})
