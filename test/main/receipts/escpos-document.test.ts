/** Receipts as ESC/POS bytes and the printer's status answers, without a printer. */
import { describe, expect, it } from 'vitest'
import { printerState, statusQuery } from '../../../src-main/receipts'
import { escPosReceipts, PAPER_COLUMNS } from '../../../src-main/receipts/escpos-document'
import { slipsOf } from '../../../src-main/training/printer'
import { receiptCopies, receiptText } from '../../../src-shared/receipt'
import { CHIP_SALE, MERCHANT } from '../../support/receipt-fixtures'

describe('a receipt as ESC/POS bytes', () => {
  it.each([58, 80] as const)('on %i mm paper: initialised, each copy laid out in the paper columns and cut after it', (paper) => {
    const copies = receiptCopies(CHIP_SALE, MERCHANT)
    const bytes = Buffer.from(escPosReceipts(copies, paper))
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]) // ESC @: a known state whatever printed before
    const slips = slipsOf(bytes)
    expect(slips).toHaveLength(2)
    copies.forEach((copy, index) => {
      // The same lines as the receipt's text form at the paper's width, nothing lost or reflowed.
      const expected = receiptText(copy, PAPER_COLUMNS[paper]).map((line) => line.trimEnd())
      expect(slips[index]!.split('\n')).toEqual(expected.join('\n').trim().split('\n'))
    })
    for (const line of slips.join('\n').split('\n')) expect(line.length).toBeLessThanOrEqual(PAPER_COLUMNS[paper])
    expect(slips[0]).toContain('MERCHANT COPY')
    expect(slips[1]).toContain('CUSTOMER COPY')
    // Never the full card number.
    expect(bytes.includes(Buffer.from('4761739001010010'))).toBe(false)
  })
})

describe("the printer's status answers (DLE EOT)", () => {
  it('asks with DLE EOT n', () => {
    expect([...statusQuery('printer')]).toEqual([0x10, 0x04, 1])
    expect([...statusQuery('offlineCause')]).toEqual([0x10, 0x04, 2])
    expect([...statusQuery('paper')]).toEqual([0x10, 0x04, 4])
  })
  it.each([
    [{ printer: 0x12, paper: 0x12 }, 'ready'],
    [{ printer: 0x12, paper: 0x1e }, 'paperLow'],
    [{ printer: 0x12, paper: 0x72 }, 'paperOut'],
    [{ printer: 0x1a, offlineCause: 0x16, paper: 0x12 }, 'coverOpen'],
    [{ printer: 0x1a, offlineCause: 0x32 }, 'paperOut'],
    [{ printer: 0x1a, offlineCause: 0x12, paper: 0x12 }, 'offline'],
  ] as const)('%j reads as %s', (answers, state) => {
    expect(printerState(answers)).toBe(state)
  })
})
