/**
 * Tip adjustment rows, validated: the typed text as minor units, and the tolerance rule of
 * docs/transactions.md "Tips" (tip above appInfo.tipTolerancePercent of the base needs a manager
 * override; the agent's tip-policy applies the same floor(base × percent / 100) limit).
 */
import type { SaleView } from '../../../../src-shared/contract'
import { formatAmount, isKnownCurrency } from '../../../../src-shared/money'
import { parseTypedAmount } from '../amount-entry'
import { STANDING_PAYMENT } from '../sale-records'
import { tipLimitMinor } from '../../../../src-shared/sale'
import type { Notice, PosState } from '../store-types'

export interface TipRow {
  sale: SaleView
  /** What the field shows: the draft, else the tip already on the sale. */
  text: string
  override: boolean
  /** The typed tip in minor units; null when the text is not an amount. */
  tipMinor: number | null
  inputError: string | null
  limitMinor: number
  overTolerance: boolean
  /** Over the tolerance and no override ticked: cannot be sent. */
  needsOverride: boolean
  /** Differs from the tip the sale has. */
  changed: boolean
  /** The tip shown is the one the sale has (an override it needed was given when it was saved). */
  saved: boolean
  outcome: Notice | null
}

/** One formula for the screen and the agent's tip policy. */
export { tipLimitMinor } from '../../../../src-shared/sale'

export interface TipCheck {
  tipMinor: number | null
  inputError: string | null
  limitMinor: number
  overTolerance: boolean
  needsOverride: boolean
}

export function checkTip(baseMinor: number, currency: string, text: string, tolerancePercent: number, override: boolean): TipCheck {
  const limitMinor = tipLimitMinor(baseMinor, tolerancePercent)
  const parsed = isKnownCurrency(currency)
    ? parseTypedAmount(text, currency)
    : ({ ok: false, reason: `Unknown currency ${currency}` } as const)
  if (!parsed.ok) return { tipMinor: null, inputError: parsed.reason, limitMinor, overTolerance: false, needsOverride: false }
  const overTolerance = parsed.minor > limitMinor
  return { tipMinor: parsed.minor, inputError: null, limitMinor, overTolerance, needsOverride: overTolerance && !override }
}

export function tipText(sale: SaleView): string {
  return sale.tipMinor > 0 && isKnownCurrency(sale.currency) ? formatAmount(sale.tipMinor, sale.currency) : ''
}

/** Tip-able payments of the day (approved, forwarded, stored offline), oldest first. */
export function tipRows(s: Pick<PosState, 'sales' | 'tipDrafts' | 'tipOutcomes' | 'appInfo'>): TipRow[] {
  const tolerance = s.appInfo?.tipTolerancePercent ?? 20
  return Object.values(s.sales)
    .filter((sale) => STANDING_PAYMENT.has(sale.state))
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
    .map((sale) => {
      const draft = s.tipDrafts[sale.id]
      const text = draft?.text ?? tipText(sale)
      const override = draft?.override ?? false
      const check = checkTip(sale.amountMinor, sale.currency, text, tolerance, override)
      const saved = check.tipMinor === sale.tipMinor
      const changed = draft !== undefined && check.tipMinor !== null && !saved
      // A tip the agent already took above the limit was approved then: it asks for nothing now.
      const needsOverride = check.needsOverride && !saved
      return { sale, text, override, ...check, needsOverride, changed, saved, outcome: s.tipOutcomes[sale.id] ?? null }
    })
}

export interface TipTotal {
  currency: string
  count: number
  baseMinor: number
  tipMinor: number
  totalMinor: number
}

/** Totals per currency, with the typed tips (the tip already on the sale where the text is not valid). */
export function tipTotals(rows: readonly TipRow[]): TipTotal[] {
  const byCurrency = new Map<string, TipTotal>()
  for (const row of rows) {
    const total = byCurrency.get(row.sale.currency) ?? { currency: row.sale.currency, count: 0, baseMinor: 0, tipMinor: 0, totalMinor: 0 }
    const tip = row.tipMinor ?? row.sale.tipMinor
    total.count += 1
    total.baseMinor += row.sale.amountMinor
    total.tipMinor += tip
    total.totalMinor += row.sale.amountMinor + tip
    byCurrency.set(row.sale.currency, total)
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency))
}

/** At least one changed tip, and every row valid (an amount, within tolerance or overridden). */
export function canSubmitTips(s: Pick<PosState, 'sales' | 'tipDrafts' | 'tipOutcomes' | 'appInfo' | 'tipsSubmitting'>): boolean {
  if (s.tipsSubmitting) return false
  const rows = tipRows(s)
  return rows.some((row) => row.changed) && rows.every((row) => row.inputError === null && !row.needsOverride)
}
