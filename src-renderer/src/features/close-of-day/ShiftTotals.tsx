/** Close of day: each operator's shifts at the counter, in local time, with what they charged in each. */
import { moneyText } from '../../components/money-text'
import { dateTimeText, localDay, timeOfDay } from '../../components/time-text'
import { useEffect } from 'react'
import { usePos } from '../../store'
import type { DayReportView, ShiftTotalsView } from '../../../../src-shared/contract'

/** "09:00 to 13:30"; "22:00 to 2026-01-16 02:15" over midnight; "since 13:30, still signed in" while open. */
export function shiftTimeText(shift: Pick<ShiftTotalsView, 'start' | 'end'>): string {
  if (shift.end === undefined) return `since ${timeOfDay(shift.start)}, still signed in`
  const end = localDay(shift.end) === localDay(shift.start) ? timeOfDay(shift.end) : dateTimeText(shift.end)
  return `${timeOfDay(shift.start)} to ${end}`
}

/** "USD 33.00 (USD 3.00 of it tips)", per currency; "nothing" for a shift without sales. */
function chargedText(shift: ShiftTotalsView): string {
  const parts = Object.entries(shift.amountMinor).map(([currency, amount]) => {
    const tips = shift.tipMinor[currency] ?? 0
    const total = moneyText(amount + tips, currency)
    return tips > 0 ? `${total} (${moneyText(tips, currency)} of it tips)` : total
  })
  return parts.length === 0 ? 'nothing' : parts.join(', ')
}

export function ShiftTotals({ report }: { report: DayReportView }) {
  // An agent of an earlier version sends no shifts.
  const shifts = (report.byShift as ShiftTotalsView[] | undefined) ?? []
  // Operators by name, as the Transactions filter shows them (the number alone when not known).
  const operators = usePos((s) => s.searchOperators)
  const loadOperators = usePos((s) => s.loadSearchOperators)
  useEffect(() => {
    if (shifts.length > 0) void loadOperators()
  }, [shifts.length, loadOperators])
  const nameOf = (id: string) => {
    const person = operators.find((o) => o.id === id)
    return person ? `${person.name} (${id})` : `Operator ${id}`
  }
  return (
    <>
      <h3>Shifts at the counter</h3>
      {shifts.length === 0 ? (
        <p className="empty">No one signed in at the counter in this batch.</p>
      ) : (
        <table className="table" data-testid="day-shifts">
          <thead>
            <tr>
              <th scope="col">Operator</th>
              <th scope="col">Signed in</th>
              <th scope="col">Sales</th>
              <th scope="col">Charged, with tips</th>
            </tr>
          </thead>
          <tbody>
            {shifts.map((shift) => (
              <tr key={`${shift.operatorId}-${shift.start}`}>
                <td>{nameOf(shift.operatorId)}</td>
                <td>{shiftTimeText(shift)}</td>
                <td>{shift.count}</td>
                <td>{chargedText(shift)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
