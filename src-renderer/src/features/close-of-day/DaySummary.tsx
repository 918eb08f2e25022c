/**
 * Close of day: the money (what was charged, what returns gave back, the net the store keeps) and the
 * counts, each tile saying what it counts. The counts are not added up: payments approved offline and
 * those still stored are counted again inside "Approved", and say so.
 */
import { moneyText } from '../../components/money-text'
import type { DayReportView } from '../../../../src-shared/contract'

/** Per currency: charged (amounts and tips), returned, net; and what the bank did not pay. */
export function DayMoney({ report }: { report: DayReportView }) {
  const charged: Record<string, number> = {}
  for (const row of report.totals) charged[row.currency] = (charged[row.currency] ?? 0) + row.amountMinor + row.tipMinor
  const currencies = [
    ...new Set([...Object.keys(charged), ...Object.keys(report.returnsMinor), ...Object.keys(report.grandTotalMinor)]),
  ].sort()
  if (currencies.length === 0) return <p className="empty">No money taken yet.</p>
  return (
    <table className="table day-money" data-testid="day-money">
      <thead>
        <tr>
          <th scope="col">Currency</th>
          <th scope="col">Charged (with tips)</th>
          <th scope="col">Returned to cards</th>
          <th scope="col">Net total</th>
        </tr>
      </thead>
      <tbody>
        {currencies.map((currency) => (
          <tr key={currency} data-testid={`day-money-${currency}`}>
            <th scope="row">{currency}</th>
            <td>{moneyText(charged[currency] ?? 0, currency)}</td>
            <td>{moneyText(report.returnsMinor[currency] ?? 0, currency)}</td>
            <td className="day-net">{moneyText(report.grandTotalMinor[currency] ?? 0, currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

interface Tile {
  key: keyof DayReportView['counts']
  label: string
  meaning: string
}

const TILES: readonly Tile[] = [
  { key: 'approved', label: 'Approved', meaning: 'Payments that stand, online or offline.' },
  { key: 'offline', label: 'of these, approved offline', meaning: 'Already counted in Approved.' },
  { key: 'stored', label: 'of these, not sent yet', meaning: 'Approved offline, still stored on this terminal.' },
  { key: 'returns', label: 'Returns', meaning: 'Money given back to a card.' },
  { key: 'declined', label: 'Declined', meaning: 'Refused; nothing charged.' },
  { key: 'abandoned', label: 'Not completed', meaning: 'Stopped before the bank; nothing charged.' },
  { key: 'reversed', label: 'Reversed', meaning: 'Charged, then taken back by the terminal.' },
  { key: 'cancelled', label: 'Voided', meaning: 'Cancelled after approval; not paid.' },
  { key: 'notReceived', label: 'Not paid by the bank', meaning: 'Approved offline, declined later.' },
  { key: 'needsAttention', label: 'Needs a manager', meaning: 'See the Queue screen.' },
]

export function DayCounts({ report }: { report: DayReportView }) {
  return (
    <dl className="counts" data-testid="day-counts">
      {TILES.map((tile) => (
        <div key={tile.key} className={tile.key === 'offline' || tile.key === 'stored' ? 'count count-part' : 'count'}>
          <dt>{tile.label}</dt>
          <dd>{report.counts[tile.key]}</dd>
          <dd className="count-meaning">{tile.meaning}</dd>
        </div>
      ))}
    </dl>
  )
}
