/**
 * Close of day: the money (what was charged, what returns gave back, the tips, the net the bank
 * confirmed; apart, in amounts, what is still on the terminal and what was never received) and the
 * counts, each tile saying what it counts. The counts are not added up: payments approved offline and
 * those still stored are counted again inside "Approved", and say so.
 */
import { moneyText } from '../../components/money-text'
import type { DayReportView } from '../../../../src-shared/contract'
import { bankUnreachable } from '../../../../src-shared/sale'

/** Per currency: charged (amounts and tips), returned, tips, and the net the bank confirmed. */
export function DayMoney({ report, authorisedOnly = false }: { report: DayReportView; authorisedOnly?: boolean }) {
  const charged: Record<string, number> = {}
  for (const row of report.totals) charged[row.currency] = (charged[row.currency] ?? 0) + row.amountMinor + row.tipMinor
  // An agent of an earlier version sends no confirmed net: its net is then the whole net.
  const confirmed = report.confirmedNetMinor ?? report.grandTotalMinor
  const currencies = [
    ...new Set([...Object.keys(charged), ...Object.keys(report.returnsMinor), ...Object.keys(report.grandTotalMinor)]),
  ].sort()
  if (currencies.length === 0) return <p className="empty">No money taken yet.</p>
  return (
    <table className="table day-money" data-testid="day-money">
      <thead>
        <tr>
          <th scope="col">Currency</th>
          {/* Restaurant mode before its close: the payments are authorised, taken at the close. */}
          <th scope="col">{authorisedOnly ? 'Authorised (with tips), taken at close' : 'Charged (with tips)'}</th>
          <th scope="col">Returned to cards</th>
          <th scope="col">Of the charged, tips</th>
          <th scope="col">Net the bank confirmed</th>
        </tr>
      </thead>
      <tbody>
        {currencies.map((currency) => (
          <tr key={currency} data-testid={`day-money-${currency}`}>
            <th scope="row">{currency}</th>
            <td>{moneyText(charged[currency] ?? 0, currency)}</td>
            <td>{moneyText(report.returnsMinor[currency] ?? 0, currency)}</td>
            <td>{moneyText(report.tipsMinor[currency] ?? 0, currency)}</td>
            <td className="day-net">{signedMoney(confirmed[currency] ?? 0, currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** "USD 12.00", "-USD 12.00" (returns larger than the charges). */
function signedMoney(minor: number, currency: string): string {
  return minor < 0 ? `-${moneyText(-minor, currency)}` : moneyText(minor, currency)
}

/** "USD 67.89 (1 payment)", or the count alone when an older close kept no amount. */
function amountsOf(record: Readonly<Record<string, number>> | undefined, count: number): string {
  const payments = count === 1 ? '1 payment' : `${count} payments`
  const amounts = Object.entries(record ?? {})
    .filter(([, minor]) => minor > 0)
    .map(([currency, minor]) => moneyText(minor, currency))
  return amounts.length === 0 ? payments : `${amounts.join(', ')} (${payments})`
}

/**
 * The money that is not at the store's bank account: still stored on this terminal (approved offline,
 * not sent), and what the bank never paid. Apart from the net, in amounts. For a closed batch, these
 * are the facts at its close, then what became of them since.
 */
export function MoneyNotAtTheBank({ report }: { report: DayReportView }) {
  const closed = report.batch.closedAt !== undefined
  const { stored, notReceived } = report.counts
  const since = report.sinceClose
  const rows: Array<{ key: string; label: string; value: string; alert: boolean }> = []
  const at = closed ? 'At the close, ' : ''
  if (stored > 0)
    rows.push({
      key: 'stored',
      label: `${at}${closed ? 'still' : 'Still'} on this terminal, not at the bank yet`,
      value: amountsOf(report.storedMinor, stored),
      alert: !closed,
    })
  if (notReceived > 0)
    rows.push({
      key: 'not-received',
      label: `${at}${closed ? 'never' : 'Never'} received from the bank`,
      value: amountsOf(report.notReceivedMinor, notReceived),
      alert: true,
    })
  if (closed && since && (stored > 0 || notReceived > 0)) {
    rows.push({
      key: 'now-stored',
      label: 'Now still on this terminal',
      value: since.stored === 0 ? 'nothing: everything was sent' : amountsOf(since.storedMinor, since.stored),
      alert: since.stored > 0,
    })
    if (since.notReceived > notReceived)
      rows.push({
        key: 'now-not-received',
        label: 'Now never received (declined after the close)',
        value: amountsOf(since.notReceivedMinor, since.notReceived),
        alert: true,
      })
  }
  if (rows.length === 0) return null
  return (
    <dl className="facts facts-wide money-not-at-bank" data-testid="money-not-at-bank">
      {rows.map((row) => (
        <div key={row.key} className={row.alert ? 'fact-alert' : undefined} data-testid={`money-${row.key}`}>
          <dt>{row.label}</dt>
          <dd data-testid={`money-${row.key}-amount`}>{row.value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** What a close is asked with: the money of the batch in amounts, and apart what is not at the bank. */
export function CloseAmounts({ report }: { report: DayReportView }) {
  const charged: Record<string, number> = {}
  for (const row of report.totals) charged[row.currency] = (charged[row.currency] ?? 0) + row.amountMinor + row.tipMinor
  const each = (record: Readonly<Record<string, number>> | undefined, signed = false) =>
    Object.entries(record ?? {})
      .filter(([, minor]) => minor !== 0)
      .map(([currency, minor]) => (signed ? signedMoney(minor, currency) : moneyText(minor, currency)))
      .join(', ') || 'none'
  const rows: Array<[string, string, string, boolean]> = [
    ['charged', 'Charged (with tips)', each(charged), false],
    ['returned', 'Returned to cards', each(report.returnsMinor), false],
    ['tips', 'Tips', each(report.tipsMinor), false],
    ['net', 'Net the bank confirmed', each(report.confirmedNetMinor ?? report.grandTotalMinor, true), false],
  ]
  if (report.counts.stored > 0) rows.push(['stored', 'Not at the bank yet', amountsOf(report.storedMinor, report.counts.stored), true])
  if (report.counts.notReceived > 0)
    rows.push(['not-received', 'Never received', amountsOf(report.notReceivedMinor, report.counts.notReceived), true])
  return (
    <dl className="facts" data-testid="close-amounts">
      {rows.map(([key, label, value, alert]) => (
        <div key={key} className={alert ? 'fact-alert' : undefined} data-testid={`close-${key}`}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

interface Tile {
  key: keyof DayReportView['counts'] | 'unreachable'
  label: string
  meaning: string
}

/** A tile's number: the report's count, or (a part of Declined) the sales the bank could not be reached for. */
function countOf(report: DayReportView, key: Tile['key']): number {
  // The counter said "Could not reach the bank" for these (sale-words.ts): the report says so too.
  if (key === 'unreachable') return report.sales.filter((sale) => sale.kind !== 'return' && bankUnreachable(sale)).length
  return report.counts[key]
}

const TILES: readonly Tile[] = [
  { key: 'approved', label: 'Approved', meaning: 'Payments that stand, online or offline.' },
  { key: 'offline', label: 'of these, approved offline', meaning: 'Already counted in Approved.' },
  { key: 'stored', label: 'of these, not sent yet', meaning: 'Approved offline, stored on this terminal (see above).' },
  { key: 'returns', label: 'Returns', meaning: 'Money given back to a card.' },
  { key: 'declined', label: 'Declined', meaning: 'Refused, or the bank could not be reached; nothing charged.' },
  { key: 'unreachable', label: 'of these, bank not reached', meaning: 'Could not be approved offline; nothing charged.' },
  { key: 'abandoned', label: 'Not completed', meaning: 'Stopped before the bank; nothing charged.' },
  { key: 'reversed', label: 'Reversed', meaning: 'Charged, then taken back by the terminal.' },
  { key: 'cancelled', label: 'Voided', meaning: 'Cancelled after approval; not paid.' },
  { key: 'notReceived', label: 'Not paid by the bank', meaning: 'Approved offline, declined later.' },
  { key: 'needsAttention', label: 'Needs a manager', meaning: 'See the Queue screen.' },
]

/** Tiles that are a part of the tile before them. */
const PARTS: ReadonlySet<Tile['key']> = new Set(['offline', 'stored', 'unreachable'])

export function DayCounts({ report }: { report: DayReportView }) {
  return (
    <dl className="counts" data-testid="day-counts">
      {TILES.map((tile) => (
        <div key={tile.key} className={PARTS.has(tile.key) ? 'count count-part' : 'count'}>
          <dt>{tile.label}</dt>
          <dd>{countOf(report, tile.key)}</dd>
          <dd className="count-meaning">
            {tile.key === 'stored' && report.batch.closedAt !== undefined
              ? 'Approved offline, not sent yet when the batch closed.'
              : tile.meaning}
          </dd>
        </div>
      ))}
    </dl>
  )
}
