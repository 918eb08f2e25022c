/**
 * Close of day (pure): is the open batch ready to close, and what are a batch's totals. Blocked
 * while reversals are pending (docs/product-defaults.md §4: a stuck reversal must be cleared before
 * a batch closes), a sale is still at the counter, or a sale needs a manager (a manager may
 * override that last one). Totals per brand and currency, counts per outcome, the money not
 * received; a closed batch's are those frozen at its close (after-sale.ts keeps them).
 */
import { csvCell } from '../../src-shared/csv-cell'
import { formatAmount } from '../../src-shared/money'
import type { ClosedBatch } from '../journal'
import type {
  BatchSummaryView,
  BatchView,
  DayReportView,
  DayTotalsView,
  OperatorTotalsView,
  SaleView,
  ShiftTotalsView,
} from '../../src-shared/contract'
import { CHARGED, COUNTER_BUSY, CREDITING, plainReason, readMethodWords, saleWords, showsAuthCode } from '../../src-shared/sale'
import { addMinor, addTo } from './money-sums'

export type DayTotals = DayTotalsView
export type DayReport = DayReportView

// CHARGED (counted in the totals) and COUNTER_BUSY (a sale still at the counter blocks the close)
// are classes of the shared vocabulary, src-shared/sale.

/** What a close freezes: the counts and totals of a batch as they stood when it closed. */
export type BatchSummary = Pick<
  DayReport,
  | 'counts'
  | 'notReceivedMinor'
  | 'storedMinor'
  | 'confirmedNetMinor'
  | 'totals'
  | 'tipsMinor'
  | 'returnsMinor'
  | 'grandTotalMinor'
  | 'byOperator'
  | 'byShift'
>

/** A shift as the journal keeps it: who was signed in at the counter, from when, until when. */
export interface Shift {
  operatorId: string
  startedAt: number
  endedAt?: number
}

/**
 * A summary as a closed batch recorded it: batches closed before the grand total and the operator
 * totals lack them, those closed before returns existed lack the returns (there were none), and
 * those closed before shifts were kept lack the shifts.
 */
export type FrozenSummary = Omit<
  BatchSummary,
  'grandTotalMinor' | 'byOperator' | 'byShift' | 'returnsMinor' | 'counts' | 'storedMinor' | 'confirmedNetMinor'
> &
  Partial<Pick<BatchSummary, 'grandTotalMinor' | 'byOperator' | 'byShift' | 'returnsMinor' | 'storedMinor' | 'confirmedNetMinor'>> & {
    counts: Omit<BatchSummary['counts'], 'returns'> & { returns?: number }
  }

/** The batch a report is about, and the local day it is reported under. */
export interface ReportedBatch {
  batch: BatchView
  businessDay: string
}

/** The open batch: its totals so far, and whether it may be closed now. */
export function openBatchReport(reported: ReportedBatch, sales: readonly SaleView[], shifts: readonly Shift[] = []): DayReport {
  const summary = summarise(sales, shifts)
  const reversalsPending = sales.filter((sale) => sale.state === 'reversalPending').length
  const atCounter = sales.filter((sale) => COUNTER_BUSY.has(sale.state)).length
  const needsAttention = summary.counts.needsAttention
  // A sale that needs a manager may still have a charge standing at the bank (a reversal or a void
  // that gave up) or be money the store will not get: like a pending reversal, it blocks the close.
  const blockedReason =
    sales.length === 0
      ? reported.batch.number === 1
        ? 'there are no sales to close yet'
        : `there are no sales since the last close (batch ${reported.batch.number - 1})`
      : reversalsPending > 0
        ? `${reversalsPending === 1 ? '1 reversal is' : `${reversalsPending} reversals are`} still waiting for the bank: the day closes once the bank has them`
        : atCounter > 0
          ? 'a sale is still running at the counter'
          : needsAttention > 0
            ? `${needsAttention === 1 ? '1 sale needs' : `${needsAttention} sales need`} a manager (see the Queue screen): a manager resolves ${needsAttention === 1 ? 'it' : 'them'}, or closes the day anyway with "Close anyway"`
            : undefined
  return {
    ...reported,
    closable: blockedReason === undefined,
    ...(blockedReason ? { blockedReason } : {}),
    overridable: sales.length > 0 && reversalsPending === 0 && atCounter === 0 && needsAttention > 0,
    ...summary,
    sales: [...sales],
  }
}

/**
 * A closed batch: the totals frozen at its close, whatever its sales did since (a stored payment
 * forwarded later, a capture acknowledged), its sales as they stand now, and `sinceClose`: the
 * money that was still on the terminal or never received, as it stands now.
 */
export function closedBatchReport(reported: ReportedBatch, frozen: FrozenSummary, sales: readonly SaleView[]): DayReport {
  // Batches closed before the grand total and the operator totals were frozen get them from what was.
  const grandTotalMinor = frozen.grandTotalMinor ?? grandTotals(frozen.totals, {})
  const complete: BatchSummary = {
    ...frozen,
    counts: { ...frozen.counts, returns: frozen.counts.returns ?? 0 },
    returnsMinor: frozen.returnsMinor ?? {},
    grandTotalMinor,
    // Batches closed before the stored amount was frozen: what was stored at the close is not known
    // in money (the count is), so nothing is taken off the net.
    storedMinor: frozen.storedMinor ?? {},
    confirmedNetMinor: frozen.confirmedNetMinor ?? grandTotalMinor,
    byOperator: frozen.byOperator ?? [],
    byShift: frozen.byShift ?? [],
  }
  return {
    ...reported,
    closable: false,
    blockedReason: 'this batch is already closed',
    overridable: false,
    ...complete,
    sinceClose: standingNow(sales),
    sales: [...sales],
  }
}

/** What of a batch's money is, now, still on the terminal or never received from the bank. */
function standingNow(sales: readonly SaleView[]): NonNullable<DayReport['sinceClose']> {
  const now = { stored: 0, notReceived: 0, storedMinor: {} as Record<string, number>, notReceivedMinor: {} as Record<string, number> }
  for (const sale of sales) {
    if (sale.kind === 'return') continue
    if (sale.state === 'storedOffline') {
      now.stored++
      addTo(now.storedMinor, sale.currency, sale.amountMinor, sale.tipMinor)
    }
    if (sale.state === 'notReceived') {
      now.notReceived++
      addTo(now.notReceivedMinor, sale.currency, sale.amountMinor, sale.tipMinor)
    }
  }
  return now
}

/** Amount plus tips of what was charged, less what was returned, per currency. */
function grandTotals(totals: readonly DayTotals[], returnsMinor: Readonly<Record<string, number>>): Record<string, number> {
  const grand: Record<string, number> = {}
  for (const row of totals) addTo(grand, row.currency, row.amountMinor, row.tipMinor)
  for (const [currency, returned] of Object.entries(returnsMinor)) addTo(grand, currency, -returned)
  return grand
}

/**
 * What each shift charged: the sales its operator rang up between its start and its end (the sale's
 * creation is the moment that counts), counted as byOperator counts them: charged sales, returns
 * apart. An open shift takes every later sale of its operator.
 */
export function shiftTotals(shifts: readonly Shift[], sales: readonly SaleView[]): ShiftTotalsView[] {
  return shifts.map((shift) => {
    const row: ShiftTotalsView = {
      operatorId: shift.operatorId,
      start: shift.startedAt,
      ...(shift.endedAt !== undefined ? { end: shift.endedAt } : {}),
      count: 0,
      amountMinor: {},
      tipMinor: {},
    }
    for (const sale of sales) {
      if (sale.kind === 'return' || !CHARGED.has(sale.state) || sale.operatorId !== shift.operatorId) continue
      if (sale.createdAt < shift.startedAt || (shift.endedAt !== undefined && sale.createdAt >= shift.endedAt)) continue
      row.count++
      addTo(row.amountMinor, sale.currency, sale.amountMinor)
      addTo(row.tipMinor, sale.currency, sale.tipMinor)
    }
    return row
  })
}

/** Counts per outcome, totals per brand and currency, tips, the money not received, per operator and shift. */
export function summarise(sales: readonly SaleView[], shifts: readonly Shift[] = []): BatchSummary {
  const counts = {
    approved: 0,
    declined: 0,
    offline: 0,
    stored: 0,
    reversed: 0,
    cancelled: 0,
    needsAttention: 0,
    abandoned: 0,
    notReceived: 0,
    returns: 0,
  }
  const notReceivedMinor: Record<string, number> = {}
  const storedMinor: Record<string, number> = {}
  const returnsMinor: Record<string, number> = {}
  const totals = new Map<string, DayTotals>()
  const tipsMinor: Record<string, number> = {}
  const byOperator = new Map<string, OperatorTotalsView>()
  for (const sale of sales) {
    if (sale.kind === 'return') {
      // A return credits the customer: counted apart and netted in the grand total, never as a sale.
      // One that needs a manager still blocks the close like any other.
      if (sale.state === 'needsAttention') counts.needsAttention++
      if (!CREDITING.has(sale.state)) continue
      counts.returns++
      addTo(returnsMinor, sale.currency, sale.amountMinor)
      continue
    }
    if (sale.offline && CHARGED.has(sale.state)) counts.offline++
    if (sale.state === 'storedOffline') {
      counts.stored++
      addTo(storedMinor, sale.currency, sale.amountMinor, sale.tipMinor)
    }
    if (sale.state === 'declined') counts.declined++
    if (sale.state === 'reversed') counts.reversed++
    if (sale.state === 'cancelled') counts.cancelled++
    if (sale.state === 'needsAttention') counts.needsAttention++
    if (sale.state === 'abandoned') counts.abandoned++
    if (sale.state === 'notReceived') {
      counts.notReceived++
      addTo(notReceivedMinor, sale.currency, sale.amountMinor, sale.tipMinor)
    }
    if (!CHARGED.has(sale.state)) continue
    counts.approved++
    const key = `${sale.currency}|${sale.brand ?? 'UNKNOWN'}`
    const row = totals.get(key) ?? { currency: sale.currency, brand: sale.brand ?? 'UNKNOWN', count: 0, amountMinor: 0, tipMinor: 0 }
    row.count++
    row.amountMinor = addMinor(row.amountMinor, sale.amountMinor)
    row.tipMinor = addMinor(row.tipMinor, sale.tipMinor)
    totals.set(key, row)
    addTo(tipsMinor, sale.currency, sale.tipMinor)
    const operatorKey = `${sale.operatorId ?? ''}|${sale.currency}`
    const mine = byOperator.get(operatorKey) ?? {
      ...(sale.operatorId !== undefined ? { operatorId: sale.operatorId } : {}),
      currency: sale.currency,
      count: 0,
      amountMinor: 0,
      tipMinor: 0,
    }
    mine.count++
    mine.amountMinor = addMinor(mine.amountMinor, sale.amountMinor)
    mine.tipMinor = addMinor(mine.tipMinor, sale.tipMinor)
    byOperator.set(operatorKey, mine)
  }
  const sortedTotals = [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency) || a.brand.localeCompare(b.brand))
  const grandTotalMinor = grandTotals(sortedTotals, returnsMinor)
  // A stored payment counts in what was charged, but the bank has not said yes to it yet.
  const confirmedNetMinor = { ...grandTotalMinor }
  for (const [currency, stored] of Object.entries(storedMinor)) addTo(confirmedNetMinor, currency, -stored)
  return {
    counts,
    notReceivedMinor,
    storedMinor,
    confirmedNetMinor,
    totals: sortedTotals,
    tipsMinor,
    returnsMinor,
    grandTotalMinor,
    // Sales without an operator (rung up by a POS, or before operators) are one row of their own, last.
    byOperator: [...byOperator.values()].sort(
      (a, b) =>
        Number(a.operatorId === undefined) - Number(b.operatorId === undefined) ||
        (a.operatorId ?? '').localeCompare(b.operatorId ?? '') ||
        a.currency.localeCompare(b.currency),
    ),
    byShift: shiftTotals(shifts, sales),
  }
}

/** A closed batch in the list a manager picks a report from. */
export function batchSummaryView(closed: ClosedBatch): BatchSummaryView {
  const frozen = JSON.parse(closed.summary) as BatchSummary
  const totalMinor: Record<string, number> = {}
  for (const row of frozen.totals) addTo(totalMinor, row.currency, row.amountMinor, row.tipMinor)
  return {
    number: closed.number,
    closedAt: closed.closedAt,
    businessDay: closed.businessDay,
    managerOverride: closed.managerOverride,
    saleCount: closed.saleCount,
    totalMinor,
  }
}

/**
 * One line per sale, for a manager's spreadsheet: the time in the terminal's local time, the outcome
 * and the read method in the words the screens use (src-shared/sale/sale-words.ts), amounts as
 * decimal strings; then the machine values in their own columns, for an integrator's tools. Each
 * cell is formula-safe (csvCell: a bank's words may start like a formula).
 */
const CSV_COLUMNS = [
  'time',
  'outcome',
  'amount',
  'tip',
  'currency',
  'brand',
  'card',
  'readBy',
  'authCode',
  'offline',
  'reason',
  'id',
  'state',
  'readMethod',
  'createdAtUtc',
  'agentReason',
] as const

export function dayReportCsv(report: DayReport): string {
  const lines = [CSV_COLUMNS.join(',')]
  for (const sale of report.sales) {
    const row: Record<(typeof CSV_COLUMNS)[number], string> = {
      time: localTime(new Date(sale.createdAt)),
      outcome: saleWords(sale).title,
      amount: formatAmount(sale.amountMinor, sale.currency),
      tip: formatAmount(sale.tipMinor, sale.currency),
      currency: sale.currency,
      brand: sale.brand ?? '',
      card: sale.maskedPan ?? '',
      readBy: sale.readMethod ? readMethodWords(sale.readMethod) : '',
      authCode: showsAuthCode(sale) ? (sale.authCode ?? '') : '',
      offline: sale.offline ? 'yes' : 'no',
      reason: sale.reason ? plainReason(sale.reason) : '',
      id: sale.id,
      state: sale.state,
      readMethod: sale.readMethod ?? '',
      createdAtUtc: new Date(sale.createdAt).toISOString(),
      agentReason: sale.reason ?? '',
    }
    lines.push(CSV_COLUMNS.map((c) => csvCell(row[c])).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}

/** `YYYY-MM-DD HH:MM:SS` in the terminal's local time, as a spreadsheet reads it. */
function localTime(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`
}
