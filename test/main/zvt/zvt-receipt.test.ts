/**
 * The receipts a register prints for the terminal (src-main/zvt/zvt-receipt.ts): the merchant's copy
 * and the customer's, laid out to the register printer's width (`zvt.receiptWidth`), the signature
 * line only on the merchant's copy and only when the card asked for a signature.
 */
import { describe, expect, it } from 'vitest'
import { receiptLines, receiptsOf, type StatusContext } from '../../../src-main/zvt'
import { CHIP_SALE } from '../../support/receipt-fixtures'

const CONTEXT: StatusContext = {
  number: 42,
  terminalId: '29001234',
  merchantId: 'M-1',
  at: { month: 11, day: 24, hours: 10, minutes: 5, seconds: 0 },
  training: false,
}

describe('the receipts a register prints', () => {
  it.each([24, 32, 40, 56])('fit a %i-character line, the amount to its right edge', (width) => {
    for (const { lines } of receiptsOf(CHIP_SALE, CONTEXT, width)) {
      expect(lines.every((line) => line.length <= width)).toBe(true)
      expect(lines).toContain(`Amount${' '.repeat(width - 'Amount'.length - '1234.56 USD'.length)}1234.56 USD`)
    }
  })

  it('the merchant’s copy first, with the signature line the card asked for; the customer’s without it', () => {
    const [merchant, customer] = receiptsOf(CHIP_SALE, CONTEXT)
    expect(merchant).toMatchObject({ copy: 'merchant' })
    expect(customer).toMatchObject({ copy: 'customer' })
    expect(merchant!.lines[0]).toBe('MERCHANT COPY')
    expect(customer!.lines[0]).toBe('CUSTOMER COPY')
    expect(merchant!.lines).toContain('Cardholder signature')
    expect(customer!.lines).not.toContain('Cardholder signature')
    // A PIN, or a sale not approved: nobody signs.
    expect(receiptLines({ ...CHIP_SALE, cvm: 'pin' }, CONTEXT, 'merchant')).not.toContain('Cardholder signature')
    expect(receiptLines({ ...CHIP_SALE, state: 'declined' }, CONTEXT, 'merchant')).not.toContain('Cardholder signature')
    // Never more of the card number than the journal has.
    expect([...merchant!.lines, ...customer!.lines].some((line) => /\d{13,}/.test(line))).toBe(false)
  })
})
