/**
 * The terminal's own rules as the rescue applies them to an authenticated copy
 * (src-main/store/rescue-rules.ts): its sale ids, its currency, its offline limit, a credit never above
 * what its sale was approved for, returns without a sale within the store's limits per day and per card.
 */
import { describe, expect, it } from 'vitest'
import { maskedCardOf, queueCopyOf, type QueueCopy } from '../../../src-main/store'
import { RescueRuleBook } from '../../../src-main/store/rescue-rules'

const RULES = {
  currency: 'USD',
  storedPaymentMaxMinor: 25_000,
  unreferencedReturnMaxMinor: 10_000,
  unreferencedReturnPerCardDayMinor: 15_000,
  unreferencedReturnPerDayMinor: 50_000,
}
const T = { storeId: 'S1', terminalId: 'T-0003' }
const at = Date.UTC(2026, 10, 28, 10)

function payment(id: string, minor: number, currency = 'USD'): QueueCopy {
  const body = {
    merchantTransInfo: { merchantTransID: id, merchantTransTime: '2026-11-28T10:00:00+00:00' },
    pspInfo: { merchantID: 'M1', terminalID: 'T-0003' },
    transAmount: { currency, value: (minor / 100).toFixed(2) },
    autoCapture: true,
    paymentMethod: { type: 'card', card: { cardInfo: { track2: '4761739001010010=25122011143804400000' } } },
  }
  return queueCopyOf(T, id, { operation: 'payment', messageId: id, body, amountMinor: minor, currency }, at)
}

function credit(id: string, minor: number, saleAmountMinor?: number, pan = '4000056655665556'): QueueCopy {
  const body = {
    merchantTransInfo: { merchantTransID: id, merchantTransTime: '2026-11-28T10:00:00+00:00' },
    pspInfo: { merchantID: 'M1', terminalID: 'T-0003' },
    transAmount: { currency: 'USD', value: (minor / 100).toFixed(2) },
    paymentMethod: { type: 'card', card: { cardInfo: { cardNumber: pan, expiryDate: '2912' } } },
  }
  return queueCopyOf(T, id, { operation: 'merchandiseCredit', messageId: id, body, amountMinor: minor, currency: 'USD' }, at, {
    saleAmountMinor,
  })
}

describe("the terminal's rules in a rescue", () => {
  it('takes a payment of this terminal within its offline limit, and masks its card as a receipt does', () => {
    const copy = payment('T-0003-K2CQ8001-00000001', 1_100)
    expect(new RescueRuleBook(RULES, 'T-0003').refusal(copy)).toBeUndefined()
    expect(maskedCardOf(copy.body)).toBe('476173******0010')
  })

  it.each([
    [payment('T-0004-K2CQ8001-00000001', 1_100), /not one of terminal T-0003's/],
    [payment('T-0003-K2CQ8001-00000001', 30_000), /above this store's offline limit of USD 250\.00/],
    [payment('T-0003-K2CQ8001-00000001', 1_100, 'EUR'), /in EUR, and this store takes USD/],
    [{ ...payment('T-0003-K2CQ8001-00000001', 1_100), amountMinor: 100 }, /amount in its message is not the amount the copy names/],
    [{ ...payment('T-0003-K2CQ8001-00000001', 1_100), messageId: 'T-0003-K2CQ8001-00000002' }, /does not belong to its sale/],
    [{ ...payment('T-0003-K2CQ8001-00000001', 1_100), body: { nothing: true } }, /not one the bank accepts/],
    [credit('T-0003-K2CQ8001-00000005', 6_000, 5_000), /more than its sale was approved for \(USD 50\.00\)/],
    [credit('T-0003-K2CQ8001-00000005', 12_000), /above this store's limit of USD 100\.00/],
  ])('refuses %#, saying why', (copy, why) => {
    expect(new RescueRuleBook(RULES, 'T-0003').refusal(copy)).toMatch(why)
  })

  it('counts returns without a sale per card and per day across the run', () => {
    const book = new RescueRuleBook(RULES, 'T-0003')
    expect(book.refusal(credit('T-0003-K2CQ8001-00000005', 9_000))).toBeUndefined()
    expect(book.refusal(credit('T-0003-K2CQ8001-00000006', 9_000))).toMatch(/to card 400005\*{6}5556 on 2026-11-28 would come to more than/)
    expect(book.refusal(credit('T-0003-K2CQ8001-00000007', 9_000, undefined, '5413330089010434'))).toBeUndefined()
  })
})
