/**
 * Close of day (pure): is the day ready to close, and what are its totals. Blocked while reversals
 * are pending (docs/product-defaults.md §4: a stuck reversal must be cleared before a batch
 * closes), a sale is still at the counter, or a sale needs a manager (a manager may override that
 * last one). Totals per brand and currency, counts per outcome, the money not received.
 */
import { formatAmount } from '../../src-shared/money'
import type { DayReportView, DayTotalsView, SaleView } from '../../src-shared/contract'
import { CHARGED, COUNTER_BUSY } from '../../src-shared/sale'

export type DayTotals = DayTotalsView
export type DayReport = DayReportView

// CHARGED (counted in the totals) and COUNTER_BUSY (a sale still at the counter blocks the close)
// are classes of the shared vocabulary, src-shared/sale.

export function dayReport(businessDay: string, sales: readonly SaleView[]): DayReport {
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
  }
  const notReceivedMinor: Record<string, number> = {}
  const totals = new Map<string, DayTotals>()
  const tipsMinor: Record<string, number> = {}
  let reversalsPending = 0
  let atCounter = 0
  for (const sale of sales) {
    if (sale.state === 'reversalPending') reversalsPending++
    if (COUNTER_BUSY.has(sale.state)) atCounter++
    if (sale.offline && CHARGED.has(sale.state)) counts.offline++
    if (sale.state === 'storedOffline') counts.stored++
    if (sale.state === 'declined') counts.declined++
    if (sale.state === 'reversed') counts.reversed++
    if (sale.state === 'cancelled') counts.cancelled++
    if (sale.state === 'needsAttention') counts.needsAttention++
    if (sale.state === 'abandoned') counts.abandoned++
    if (sale.state === 'notReceived') {
      counts.notReceived++
      notReceivedMinor[sale.currency] = (notReceivedMinor[sale.currency] ?? 0) + sale.amountMinor + sale.tipMinor
    }
    if (!CHARGED.has(sale.state)) continue
    counts.approved++
    const key = `${sale.currency}|${sale.brand ?? 'UNKNOWN'}`
    const row = totals.get(key) ?? { currency: sale.currency, brand: sale.brand ?? 'UNKNOWN', count: 0, amountMinor: 0, tipMinor: 0 }
    row.count++
    row.amountMinor += sale.amountMinor
    row.tipMinor += sale.tipMinor
    totals.set(key, row)
    tipsMinor[sale.currency] = (tipsMinor[sale.currency] ?? 0) + sale.tipMinor
  }
  // A sale that needs a manager may still have a charge standing at the bank (a reversal or a void
  // that gave up) or be money the store will not get: like a pending reversal, it blocks the close.
  const blockedReason =
    reversalsPending > 0
      ? `${reversalsPending} reversal(s) are still waiting for the bank: the day closes once they are acknowledged`
      : atCounter > 0
        ? 'a sale is still running at the counter'
        : counts.needsAttention > 0
          ? `${counts.needsAttention} sale(s) need a manager (see the queue): a manager resolves them, or closes the day anyway`
          : undefined
  return {
    businessDay,
    closable: blockedReason === undefined,
    ...(blockedReason ? { blockedReason } : {}),
    overridable: reversalsPending === 0 && atCounter === 0 && counts.needsAttention > 0,
    counts,
    notReceivedMinor,
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency) || a.brand.localeCompare(b.brand)),
    tipsMinor,
    sales: [...sales],
  }
}

const CSV_COLUMNS = [
  'id',
  'state',
  'createdAt',
  'currency',
  'amount',
  'tip',
  'brand',
  'maskedPan',
  'readMethod',
  'authCode',
  'offline',
  'reason',
] as const

/** One line per sale, amounts as decimal strings, ready for a spreadsheet. */
export function dayReportCsv(report: DayReport): string {
  const quote = (value: string) =>
    /[",\n\r]/.test(value) || /^[=+\-@]/.test(value) ? `"${value.replace(/^([=+\-@])/, "'$1").replaceAll('"', '""')}"` : value
  const lines = [CSV_COLUMNS.join(',')]
  for (const sale of report.sales) {
    const row: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: sale.id,
      state: sale.state,
      createdAt: new Date(sale.createdAt).toISOString(),
      currency: sale.currency,
      amount: formatAmount(sale.amountMinor, sale.currency),
      tip: formatAmount(sale.tipMinor, sale.currency),
      brand: sale.brand ?? '',
      maskedPan: sale.maskedPan ?? '',
      readMethod: sale.readMethod ?? '',
      authCode: sale.authCode ?? '',
      offline: sale.offline ? 'yes' : 'no',
      reason: sale.reason ?? '',
    }
    lines.push(CSV_COLUMNS.map((c) => quote(row[c])).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}
