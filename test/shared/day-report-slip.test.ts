/** The day report as printed: what a Z-report and an X-report carry, in a manager's words. */
import { describe, expect, it } from 'vitest'
import type { DayReportView } from '../../src-shared/contract'
import { dayReportSlip, receiptText } from '../../src-shared/receipt'

const closedAt = new Date(2026, 10, 24, 22, 4).getTime()
const report: DayReportView = {
  batch: { number: 7, closedAt, closedBy: '9', managerOverride: true },
  businessDay: '2026-11-24',
  closable: false,
  overridable: false,
  counts: {
    approved: 3,
    declined: 1,
    offline: 1,
    stored: 0,
    reversed: 1,
    cancelled: 0,
    needsAttention: 0,
    abandoned: 0,
    notReceived: 1,
    returns: 1,
  },
  notReceivedMinor: { USD: 4151 },
  storedMinor: {},
  confirmedNetMinor: { USD: 3800 },
  totals: [
    { currency: 'USD', brand: 'VISA', count: 2, amountMinor: 3000, tipMinor: 300 },
    { currency: 'USD', brand: '', count: 1, amountMinor: 1000, tipMinor: 0 },
  ],
  tipsMinor: { USD: 300 },
  returnsMinor: { USD: 500 },
  grandTotalMinor: { USD: 3800 },
  byOperator: [
    { operatorId: '7', currency: 'USD', count: 2, amountMinor: 3000, tipMinor: 300 },
    { currency: 'USD', count: 1, amountMinor: 1000, tipMinor: 0 },
  ],
  byShift: [
    {
      operatorId: '7',
      start: new Date(2026, 10, 24, 9, 0).getTime(),
      end: new Date(2026, 10, 24, 13, 30).getTime(),
      count: 2,
      amountMinor: { USD: 3000 },
      tipMinor: { USD: 300 },
    },
    { operatorId: '9', start: new Date(2026, 10, 24, 13, 30).getTime(), end: closedAt, count: 0, amountMinor: {}, tipMinor: {} },
  ],
  sales: [],
}
const merchant = { name: 'Corner Cafe', addressLines: ['12 Main Street'], merchantId: 'M-CORNER', terminalId: 'T-0001', training: false }

describe('the printed day report', () => {
  it('a closed batch: Z-report with who closed it, per brand, per operator, counts, money not received and the grand total', () => {
    const text = receiptText(dayReportSlip(report, merchant, closedAt + 60_000), 48).join('\n')
    expect(text).toContain('Z-REPORT')
    expect(text).toMatch(/Batch\s+7\n/)
    expect(text).toMatch(/Closed\s+2026-11-24 22:04/)
    expect(text).toMatch(/Closed by operator\s+9/)
    expect(text).toContain('Closed by a manager past sales that needed one')
    expect(text).toMatch(/VISA \(2\)\s+USD 33\.00/)
    expect(text).toMatch(/Other \(1\)\s+USD 10\.00/)
    expect(text).toMatch(/Of which tips\s+USD 3\.00/)
    expect(text).toMatch(/Operator 7 \(2\)\s+USD 33\.00/)
    expect(text).toMatch(/Started by the POS \(1\)\s+USD 10\.00/)
    expect(text).toMatch(/BY SHIFT\n\s*Operator 7, 09:00 to 13:30\nSales \(2\)\s+USD 33\.00\nOf which tips\s+USD 3\.00\n/)
    expect(text).toMatch(/Operator 9, 13:30 to 22:04\nSales \(0\)\s+none\n/)
    expect(text).toMatch(/Not paid by the bank\s+1/)
    expect(text).toMatch(/Money not received\s+USD 41\.51/)
    expect(text).toMatch(/Returns\s+1/)
    expect(text).toMatch(/Returned to cards\s+-USD 5\.00/)
    expect(text).toMatch(/GRAND TOTAL\s+USD 38\.00/)
    // Outcomes with nothing in them are left out; nothing of the machine's vocabulary is printed.
    expect(text).not.toMatch(/Voided|needsAttention|notReceived|storedOffline/)
  })

  it('the open batch: an X-report; a training terminal marks it as not valid', () => {
    const [ended, last] = report.byShift
    const { end: _end, ...stillOpen } = last!
    const open = { ...report, batch: { number: 8 }, byShift: [ended!, stillOpen] }
    const text = receiptText(dayReportSlip(open, { ...merchant, training: true }, closedAt), 48).join('\n')
    expect(text).toContain('X-REPORT (BATCH STILL OPEN)')
    expect(text).not.toContain('Z-REPORT')
    expect(text).toContain('Operator 9, from 13:30, still signed in')
    // First and last: a training report can never pass for a real one, whichever end is torn off.
    expect(text.split('\n').filter((line) => line.includes('TRAINING – NOT A VALID'))).toHaveLength(2)
  })
})
