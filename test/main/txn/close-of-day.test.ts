import { describe, expect, it } from 'vitest'
import { closedBatchReport, openBatchReport, dayReportCsv, summarise } from '../../../src-main/txn/close-of-day'
import type { SaleView } from '../../../src-main/txn/sale-view'

const sale = (id: string, state: SaleView['state'], amountMinor: number, extra: Partial<SaleView> = {}): SaleView => ({
  id,
  state,
  amountMinor,
  currency: 'USD',
  tipMinor: 0,
  tipState: 'none',
  autoCapture: true,
  offline: false,
  createdAt: Date.parse('2026-11-21T10:00:00Z'),
  updatedAt: 0,
  businessDay: '2026-11-21',
  brand: 'VISA',
  ...extra,
})

const OPEN = { batch: { number: 1 }, businessDay: '2026-11-21' }

describe('close of day', () => {
  const sales = [
    sale('A', 'approved', 1000, { tipMinor: 150 }),
    sale('B', 'forwarded', 2000, { offline: true, brand: 'MASTERCARD' }),
    sale('C', 'storedOffline', 500, { offline: true }),
    sale('D', 'declined', 999),
    sale('E', 'reversed', 700),
    sale('F', 'cancelled', 300),
    sale('G', 'needsAttention', 400, { reason: 'stored payment declined when forwarded' }),
    sale('H', 'approved', 1200, { currency: 'EUR' }),
    sale('N', 'notReceived', 650, { offline: true, tipMinor: 50 }),
  ]

  it('totals per currency and brand, counts per outcome, tips, the money not received', () => {
    const report = openBatchReport(OPEN, sales)
    // G needs a manager: the day waits for one, who may also close it anyway
    expect(report).toMatchObject({ closable: false, overridable: true, blockedReason: expect.stringMatching(/1 sale needs a manager/) })
    expect(report.notReceivedMinor).toEqual({ USD: 700 })
    expect(report.totals).toEqual([
      { currency: 'EUR', brand: 'VISA', count: 1, amountMinor: 1200, tipMinor: 0 },
      { currency: 'USD', brand: 'MASTERCARD', count: 1, amountMinor: 2000, tipMinor: 0 },
      { currency: 'USD', brand: 'VISA', count: 2, amountMinor: 1500, tipMinor: 150 },
    ])
    expect(report.counts).toEqual({
      approved: 4,
      declined: 1,
      offline: 2,
      stored: 1,
      reversed: 1,
      cancelled: 1,
      needsAttention: 1,
      abandoned: 0,
      notReceived: 1,
      returns: 0,
    })
    expect(report.tipsMinor).toEqual({ USD: 150, EUR: 0 })
  })

  it('counts returns apart, per currency, and nets what they credit in the grand total; a return never counts as a sale', () => {
    const summary = summarise([
      sale('A', 'approved', 5000, { tipMinor: 500 }),
      sale('R1', 'credited', 2000, { kind: 'return', originalId: 'A' }),
      sale('R2', 'creditPending', 1000, { kind: 'return', originalId: 'A' }),
      sale('R3', 'declined', 700, { kind: 'return', originalId: 'A' }),
      sale('R4', 'abandoned', 300, { kind: 'return' }),
      sale('R5', 'credited', 400, { kind: 'return', currency: 'EUR' }),
    ])
    expect(summary.counts).toMatchObject({ approved: 1, declined: 0, abandoned: 0, returns: 3 })
    expect(summary.returnsMinor).toEqual({ USD: 3000, EUR: 400 })
    expect(summary.grandTotalMinor).toEqual({ USD: 5500 - 3000, EUR: -400 })
  })

  it('a grand total per currency (amount plus tips of what was charged) and a row per operator, the POS apart', () => {
    const staffed = [
      sale('A', 'approved', 1000, { tipMinor: 150, operatorId: '7' }),
      sale('B', 'forwarded', 2000, { offline: true, operatorId: '12' }),
      sale('C', 'approved', 500, { operatorId: '7' }),
      sale('D', 'declined', 999, { operatorId: '7' }),
      sale('E', 'approved', 400),
      sale('H', 'approved', 1200, { currency: 'EUR', operatorId: '7' }),
    ]
    const summary = summarise(staffed)
    expect(summary.grandTotalMinor).toEqual({ USD: 1000 + 150 + 2000 + 500 + 400, EUR: 1200 })
    expect(summary.byOperator).toEqual([
      { operatorId: '12', currency: 'USD', count: 1, amountMinor: 2000, tipMinor: 0 },
      { operatorId: '7', currency: 'EUR', count: 1, amountMinor: 1200, tipMinor: 0 },
      { operatorId: '7', currency: 'USD', count: 2, amountMinor: 1500, tipMinor: 150 },
      { currency: 'USD', count: 1, amountMinor: 400, tipMinor: 0 },
    ])
  })

  it('a batch closed before grand totals were frozen reports them from its frozen per-brand totals', () => {
    const { grandTotalMinor: _grand, byOperator: _byOperator, ...older } = summarise(sales)
    const report = closedBatchReport({ batch: { number: 3, closedAt: 1 }, businessDay: '2026-11-21' }, older, [])
    expect(report.grandTotalMinor).toEqual({ USD: 1000 + 150 + 2000 + 500, EUR: 1200 })
    expect(report.byOperator).toEqual([])
  })

  it('is blocked while a reversal is pending, with the reason', () => {
    const report = openBatchReport(OPEN, [...sales, sale('R', 'reversalPending', 100)])
    expect(report).toMatchObject({ closable: false, overridable: false })
    expect(report.blockedReason).toMatch(/1 reversal is still waiting for the bank/)
  })

  it('exports CSV in local time and words a manager reads, the machine values in their own columns, formulas neutralised', () => {
    const at = new Date(Date.parse('2026-11-21T10:00:00Z'))
    const local = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')} ${String(at.getHours()).padStart(2, '0')}:00:00`
    const csv = dayReportCsv(
      openBatchReport(OPEN, [
        sale('A', 'approved', 1234, { tipMinor: 5, reason: '=HYPERLINK("x")', readMethod: 'contactlessChip', authCode: 'A1B2' }),
        sale('B', 'declined', 700, {
          offline: true,
          readMethod: 'swipe',
          authCode: 'ZZ',
          reason: 'the bank could not be reached and this sale cannot be stored: the amount is over the offline limit per sale',
        }),
        sale('C', 'needsAttention', 300),
      ]),
    )
    const [head, approved, unreachable, attention] = csv.trim().split('\r\n')
    expect(head).toBe(
      'time,outcome,amount,tip,currency,brand,card,readBy,authCode,offline,reason,id,state,readMethod,createdAtUtc,agentReason',
    )
    expect(approved).toBe(
      `${local},Approved,12.34,0.05,USD,VISA,,Contactless,A1B2,no,"'=HYPERLINK(""x"")",A,approved,contactlessChip,2026-11-21T10:00:00.000Z,"'=HYPERLINK(""x"")"`,
    )
    // A refusal for want of the bank is not a decline, and a sale that did not stand shows no auth code.
    const [reason, agentReason] = [unreachable!.split(',')[10], unreachable!.split(',').at(-1)]
    expect(unreachable).toMatch(new RegExp(`^${local},Could not reach the bank,7.00,0.00,USD,VISA,,Swiped,,yes,`))
    expect(reason).not.toMatch(/host|unreachable/)
    expect(agentReason).toBe('the bank could not be reached and this sale cannot be stored: the amount is over the offline limit per sale')
    expect(attention).toMatch(/^[^,]+,Needs a manager,.*,C,needsAttention,,/)
    for (const line of [approved, unreachable, attention])
      expect(line!.split(',')[1]).not.toMatch(/needsAttention|contactlessChip|declined/)
  })
})

describe('the CSV export is formula-safe as every CSV the agent writes (src-shared/csv-cell.ts)', () => {
  it('a cell that starts with a tab before a formula is shown as text, not run', () => {
    const csv = dayReportCsv(openBatchReport(OPEN, [sale('T', 'declined', 100, { reason: '\t=1+2' })]))
    const line = csv.trim().split('\r\n')[1]!
    expect(line.endsWith(`,"'\t=1+2"`)).toBe(true)
    expect(line).not.toMatch(/,\t=/)
  })
})

describe('money sums are checked: a total is exact or refused, never rounded', () => {
  // A tip journaled before amount plus tip was capped (a manager's override of 90,071,992,547,409.91):
  // two such sales pass 2^53 in sum, where a double no longer counts cents.
  const huge = (id: string) => sale(id, 'approved', 100, { tipMinor: Number.MAX_SAFE_INTEGER - 100 })

  it('the day report and a closed batch refuse a total past Number.MAX_SAFE_INTEGER in plain words', () => {
    expect(() => summarise([huge('T1-1'), huge('T1-2')])).toThrow(/larger than the terminal can count exactly/)
    expect(() => openBatchReport({ batch: { number: 1 }, businessDay: '2026-11-25' }, [huge('T1-1'), huge('T1-2')])).toThrow(
      expect.objectContaining({ code: 'AMOUNT_TOO_LARGE' }),
    )
  })

  it('one such sale still counts exactly', () => {
    expect(summarise([huge('T1-1')]).grandTotalMinor).toEqual({ USD: Number.MAX_SAFE_INTEGER })
  })
})
