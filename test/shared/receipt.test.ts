/**
 * The one receipt model: what a card-present receipt must carry for each kind and outcome, and what it
 * must never carry (docs/receipts.md).
 */
import { describe, expect, it } from 'vitest'
import type { SaleView } from '../../src-shared/contract'
import { buildReceipt, receiptCopies, receiptText, TRAINING_LINE, wrap, type Receipt } from '../../src-shared/receipt'
import { CHIP_SALE, MERCHANT } from '../support/receipt-fixtures'

const merchant = MERCHANT
const chipSale: SaleView = { ...CHIP_SALE, cvm: 'pin' }

const texts = (receipt: Receipt) => receipt.lines.flatMap((line) => ('text' in line ? [line.text] : []))
const fields = (receipt: Receipt) =>
  Object.fromEntries(receipt.lines.flatMap((line) => (line.kind === 'field' ? [[line.label, line.value]] : [])))

describe('a card-present receipt', () => {
  it('carries the merchant, terminal, local time, type, card, chip data, verification, outcome and copy', () => {
    const receipt = buildReceipt(chipSale, merchant, 'customer')
    expect(texts(receipt)).toEqual([
      'Corner Cafe',
      '12 Main Street',
      'Springfield',
      'SALE',
      'APPROVED',
      'PIN VERIFIED',
      'CUSTOMER COPY',
      'Please keep this copy for your records.',
    ])
    expect(fields(receipt)).toEqual({
      'Merchant ID': 'M-CORNER',
      Terminal: 'T-0001',
      Date: '2026-11-24 14:05',
      Operator: '7',
      Card: 'VISA 476173******0010',
      Entry: 'Chip',
      Application: 'VISA CREDIT',
      AID: 'A0000000031010',
      TVR: '0000008000',
      TSI: 'E800',
      Amount: 'USD 1,234.56',
      TOTAL: 'USD 1,234.56',
      'Auth code': 'A1B2C3',
      Reference: 'SVC-9',
      Transaction: 'T-0001-00000042',
    })
  })

  it('prints both copies, the merchant first, the signature line only on the copy the store keeps', () => {
    const [store, customer] = receiptCopies({ ...chipSale, cvm: 'signature' }, merchant)
    expect(store!.copy).toBe('merchant')
    expect(store!.lines.filter((line) => line.kind === 'signature')).toHaveLength(1)
    expect(texts(store!)).toContain('MERCHANT COPY')
    expect(customer!.lines.filter((line) => line.kind === 'signature')).toHaveLength(0)
    expect(texts(customer!)).toContain('SIGNATURE ON MERCHANT COPY')
  })

  it.each([
    ['pin', ['PIN VERIFIED'], 0],
    ['pinAndSignature', ['PIN VERIFIED'], 1],
    ['signature', [], 1],
    ['none', ['NO CVM REQUIRED'], 0],
  ] as const)('the verification %s', (cvm, words, signatures) => {
    const receipt = buildReceipt({ ...chipSale, cvm }, merchant, 'merchant')
    for (const word of words) expect(texts(receipt)).toContain(word)
    expect(texts(receipt).filter((text) => /PIN VERIFIED|NO CVM/.test(text))).toEqual(words)
    expect(receipt.lines.filter((line) => line.kind === 'signature')).toHaveLength(signatures)
  })

  it('marks an offline approval, stored or sent', () => {
    expect(texts(buildReceipt({ ...chipSale, state: 'storedOffline', offline: true }, merchant, 'customer'))).toEqual(
      expect.arrayContaining(['APPROVED OFFLINE', 'Stored on this terminal, sent to the bank later.']),
    )
    expect(texts(buildReceipt({ ...chipSale, state: 'forwarded', offline: true }, merchant, 'customer'))).toContain('APPROVED OFFLINE')
  })

  it('a decline says so with its reason in plain words, no auth code and no verification claim', () => {
    const declined = buildReceipt(
      { ...chipSale, state: 'declined', authCode: undefined, reason: 'declined by the bank: insufficient funds' },
      merchant,
      'customer',
    )
    expect(texts(declined)).toContain('DECLINED')
    expect(texts(declined).join('\n')).toMatch(/insufficient funds/)
    expect(texts(declined)).not.toContain('PIN VERIFIED')
    expect(fields(declined)['Auth code']).toBeUndefined()
  })

  it('the customer copy of a payment that did not go through speaks to the customer; no copy tells the cashier what to do', () => {
    for (const state of ['reversalPending', 'reversed', 'abandoned'] as const) {
      const customer = texts(buildReceipt({ ...chipSale, state }, merchant, 'customer'))
      const store = texts(buildReceipt({ ...chipSale, state }, merchant, 'merchant'))
      expect(customer.join(' ')).toMatch(/\byou\b/i)
      expect(customer.join(' ')).not.toMatch(/the customer|charge again/i)
      expect(store.join(' ')).not.toMatch(/charge again/i)
    }
    expect(texts(buildReceipt({ ...chipSale, state: 'reversed' }, merchant, 'customer'))).toContain(
      'This payment did not go through and its charge was reversed: you do not pay for it.',
    )
    const unreachable = texts(buildReceipt({ ...chipSale, state: 'declined', offline: true }, merchant, 'customer'))
    expect(unreachable).toContain('The bank could not be reached. You were not charged.')
  })

  it('a sale refused for want of the bank is not a decline', () => {
    const unreachable = buildReceipt({ ...chipSale, state: 'declined', offline: true }, merchant, 'customer')
    expect(texts(unreachable)).toContain('COULD NOT REACH THE BANK')
    expect(texts(unreachable)).not.toContain('DECLINED')
  })

  it('a void is a VOID receipt with the original authorisation; a tip receipt shows the base and the tip', () => {
    const voided = buildReceipt({ ...chipSale, state: 'cancelled' }, merchant, 'merchant')
    expect(voided.kind).toBe('VOID')
    expect(texts(voided)).toEqual(expect.arrayContaining(['VOID', 'VOIDED']))
    expect(fields(voided)['Auth code']).toBe('A1B2C3')
    const tipped = buildReceipt({ ...chipSale, tipMinor: 250 }, merchant, 'customer', 'TIP')
    expect(texts(tipped)).toContain('TIP')
    expect(fields(tipped)).toMatchObject({ 'Base amount': 'USD 1,234.56', Tip: 'USD 2.50', TOTAL: 'USD 1,237.06' })
  })

  it('a training receipt says it is not a valid transaction, first and last', () => {
    const receipt = buildReceipt(chipSale, { ...merchant, training: true }, 'customer')
    expect(texts(receipt)[0]).toBe(TRAINING_LINE)
    expect(texts(receipt).at(-1)).toBe(TRAINING_LINE)
  })

  it('never prints the expiry date, whatever else a sale object carries', () => {
    const withExpiry = { ...chipSale, expiry: '2812', expiryDate: '12/28' } as SaleView
    const text = receiptText(buildReceipt(withExpiry, merchant, 'merchant')).join('\n')
    expect(text).not.toMatch(/2812|12\/28|expir/i)
  })
})

describe('a receipt as text', () => {
  it('keeps every line within the columns, labels left and values right', () => {
    const lines = receiptText(buildReceipt({ ...chipSale, cvm: 'signature' }, merchant, 'merchant'), 32)
    expect(lines.every((line) => line.length <= 32)).toBe(true)
    expect(lines).toContain('Auth code' + ' '.repeat(32 - 'Auth code'.length - 6) + 'A1B2C3')
    expect(lines).toContain('Cardholder signature')
  })

  it('wraps at spaces and cuts a word longer than a line', () => {
    expect(wrap('Stored on this terminal, sent to the bank later.', 16)).toEqual([
      'Stored on this',
      'terminal, sent',
      'to the bank',
      'later.',
    ])
    expect(wrap('ABCDEFGHIJ', 4)).toEqual(['ABCD', 'EFGH', 'IJ'])
  })
})

describe('a return', () => {
  const { authCode: _none, ...paid } = chipSale
  const credit: SaleView = { ...paid, id: 'T-0001-00000043', kind: 'return', originalId: chipSale.id, state: 'credited', amountMinor: 2000 }

  it('prints as RETURN with the amount credited and the sale it returns, in both copies', () => {
    for (const receipt of receiptCopies(credit, merchant)) {
      expect(receipt.kind).toBe('RETURN')
      const text = receiptText(receipt).join('\n')
      expect(text).toContain('RETURN')
      expect(text).toMatch(/CREDIT +USD 20\.00/)
      expect(text).toContain(chipSale.id)
      expect(text).toContain('CREDITED')
      expect(text).not.toContain('TOTAL')
    }
  })

  it('says when the credit is still on its way to the bank', () => {
    const text = receiptText(buildReceipt({ ...credit, state: 'creditPending' }, merchant, 'customer')).join('\n')
    expect(text).toContain('CREDIT PENDING')
  })
})
