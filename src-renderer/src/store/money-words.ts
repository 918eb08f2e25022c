/**
 * Amounts for display: "USD 12.34", "USD 1,234.56", "JPY 1,234", thousands grouped so a large amount
 * reads at a glance. Never throws: an unexpected currency shows raw minor units.
 */
import { formatAmount, isKnownCurrency } from '../../../src-shared/money'
import { groupThousands } from './amount-entry'

function grouped(minor: number, currency: string): string {
  const [whole = '', fraction] = formatAmount(minor, currency).split('.')
  return fraction === undefined ? groupThousands(whole) : `${groupThousands(whole)}.${fraction}`
}

export function moneyText(minor: number, currency: string | null | undefined): string {
  if (!currency || !isKnownCurrency(currency) || !Number.isSafeInteger(minor) || minor < 0)
    return `${currency ?? ''} ${minor} (minor units)`.trim()
  return `${currency} ${grouped(minor, currency)}`
}

/** The number part only ("1,234.56"), for the amount field. */
export function amountText(minor: number, currency: string | null | undefined): string {
  if (!currency || !isKnownCurrency(currency) || !Number.isSafeInteger(minor) || minor < 0) return String(minor)
  return grouped(minor, currency)
}
