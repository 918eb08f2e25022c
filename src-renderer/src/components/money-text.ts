/** Amounts for display: "USD 12.34", "JPY 1234". Never throws: an unexpected currency shows raw minor units. */
import { displayAmount, formatAmount, isKnownCurrency } from '../../../src-shared/money'

export function moneyText(minor: number, currency: string | null | undefined): string {
  if (!currency || !isKnownCurrency(currency) || !Number.isSafeInteger(minor) || minor < 0)
    return `${currency ?? ''} ${minor} (minor units)`.trim()
  return displayAmount(minor, currency)
}

/** The number part only ("12.34"), for the amount field. */
export function amountText(minor: number, currency: string | null | undefined): string {
  if (!currency || !isKnownCurrency(currency)) return String(minor)
  return formatAmount(minor, currency)
}
