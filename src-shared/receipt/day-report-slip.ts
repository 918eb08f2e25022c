/**
 * The day report as the receipt printer prints it: a Z-report for a closed batch (its totals as they
 * were closed, never changing: reprinting a batch prints the same figures), an X-report for the open
 * batch (the running totals, nothing closed). Grand total (less returns), per card brand, per operator,
 * per shift, tips, returns, the counts of each outcome and the money the store did not get, in the words of the close-of-day screen,
 * and the audit trail's head (its last record and a short check value of its seal) as the batch closed.
 */
import type { DayReportView } from '../contract'
import { localDateTime, money, type ReceiptLine, type ReceiptMerchant, type Slip, TRAINING_LINE } from './receipt'

/** The outcomes a day report counts, in the order and words the close-of-day screen shows them. */
export const DAY_COUNT_WORDS: ReadonlyArray<readonly [keyof DayReportView['counts'], string]> = [
  ['approved', 'Approved'],
  ['declined', 'Declined'],
  ['offline', 'Approved offline'],
  ['stored', 'Stored, not yet sent'],
  ['reversed', 'Reversed'],
  ['cancelled', 'Voided'],
  ['needsAttention', 'Needs a manager'],
  ['abandoned', 'Not completed'],
  ['notReceived', 'Not paid by the bank'],
  ['returns', 'Returns'],
]

export function dayReportSlip(report: DayReportView, merchant: ReceiptMerchant, printedAt: number): Slip {
  const lines: ReceiptLine[] = []
  const field = (label: string, value: string, strong?: boolean) =>
    lines.push({ kind: 'field', label, value, ...(strong ? { strong } : {}) })
  const closed = report.batch.closedAt !== undefined

  if (merchant.training) lines.push({ kind: 'text', text: TRAINING_LINE, strong: true })
  lines.push({ kind: 'title', text: merchant.name })
  for (const text of merchant.addressLines) lines.push({ kind: 'text', text })
  field('Merchant ID', merchant.merchantId)
  field('Terminal', merchant.terminalId)
  lines.push({ kind: 'rule' })

  lines.push({ kind: 'text', text: closed ? 'Z-REPORT' : 'X-REPORT (BATCH STILL OPEN)', strong: true })
  field('Batch', String(report.batch.number))
  field('Business day', report.businessDay)
  if (report.batch.closedAt !== undefined) field('Closed', localDateTime(report.batch.closedAt))
  if (report.batch.closedBy) field('Closed by operator', report.batch.closedBy)
  if (report.batch.managerOverride) lines.push({ kind: 'text', text: 'Closed by a manager past sales that needed one' })
  lines.push({ kind: 'rule' })

  lines.push({ kind: 'text', text: 'BY CARD', strong: true })
  for (const row of report.totals) field(`${row.brand || 'Other'} (${row.count})`, money(row.amountMinor + row.tipMinor, row.currency))
  if (report.totals.length === 0) lines.push({ kind: 'text', text: 'No card payments' })
  for (const [currency, tips] of Object.entries(report.tipsMinor)) field('Of which tips', money(tips, currency))
  for (const [currency, returned] of Object.entries(report.returnsMinor)) field('Returned to cards', `-${money(returned, currency)}`)
  lines.push({ kind: 'rule' })

  if (report.byOperator.length > 0) {
    lines.push({ kind: 'text', text: 'BY OPERATOR', strong: true })
    for (const row of report.byOperator) {
      const who = row.operatorId ? `Operator ${row.operatorId}` : 'Started by the POS'
      field(`${who} (${row.count})`, money(row.amountMinor + row.tipMinor, row.currency))
    }
    lines.push({ kind: 'rule' })
  }

  if (report.byShift.length > 0) {
    // Each operator's time at the counter, in local time: the end's date only when it is another day.
    lines.push({ kind: 'text', text: 'BY SHIFT', strong: true })
    for (const shift of report.byShift) {
      const [startDay = '', startTime = ''] = localDateTime(shift.start).split(' ')
      const end = shift.end === undefined ? undefined : localDateTime(shift.end)
      const until = end?.startsWith(startDay) ? end.slice(startDay.length + 1) : end
      const when = until === undefined ? `from ${startTime}, still signed in` : `${startTime} to ${until}`
      lines.push({ kind: 'text', text: `Operator ${shift.operatorId}, ${when}` })
      const currencies = Object.keys(shift.amountMinor)
      if (currencies.length === 0) field('Sales (0)', 'none')
      for (const currency of currencies) {
        const amount = shift.amountMinor[currency] ?? 0
        const tips = shift.tipMinor[currency] ?? 0
        field(`Sales (${shift.count})`, money(amount + tips, currency))
        if (tips > 0) field('Of which tips', money(tips, currency))
      }
    }
    lines.push({ kind: 'rule' })
  }

  lines.push({ kind: 'text', text: 'COUNTS', strong: true })
  for (const [key, words] of DAY_COUNT_WORDS) if (report.counts[key] > 0) field(words, String(report.counts[key]))
  for (const [currency, amount] of Object.entries(report.notReceivedMinor)) field('Money not received', money(amount, currency), true)
  // Older agents send no stored amount: nothing to print then.
  for (const [currency, amount] of Object.entries(report.storedMinor ?? {}))
    if (amount > 0) field('Not at the bank yet', money(amount, currency), true)
  lines.push({ kind: 'rule' })

  const totals = Object.entries(report.grandTotalMinor)
  for (const [currency, amount] of totals) field('GRAND TOTAL', money(amount, currency), true)
  if (totals.length === 0) field('GRAND TOTAL', '0', true)
  lines.push({ kind: 'rule' })
  // The audit trail's head, kept on paper: what the trail must still show later (`audit verify --head`).
  if (report.auditHead) field('Audit trail', `record ${report.auditHead.seq}, check ${report.auditHead.check}`)
  field('Printed', localDateTime(printedAt))
  if (merchant.training) lines.push({ kind: 'text', text: TRAINING_LINE, strong: true })
  return { lines }
}
