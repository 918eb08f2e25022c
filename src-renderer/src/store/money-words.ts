/**
 * Amounts for display: "USD 12.34", "USD 1,234.56", "JPY 1,234", thousands grouped so a large amount
 * reads at a glance. Never throws: an unexpected currency shows raw minor units.
 */
import { formatAmount, isKnownCurrency, minorUnitDigits } from '../../../src-shared/money'
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

/** The currency's name in English for `count` of it ("US dollars", "US dollar"), or its code when the platform has none. */
function currencyName(currency: string, count: number): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'name', maximumFractionDigits: 0 })
    return format.formatToParts(count).find((part) => part.type === 'currency')?.value ?? currency
  } catch {
    return currency
  }
}

/**
 * An amount as it is spoken: "43 US dollars 21", "1,500 US dollars", "1,234 Japanese yen", so a speech
 * engine says "forty-three US dollars twenty-one" and never spells the code ("U S D") or reads a
 * decimal point. Never throws: an unexpected currency is said as it is shown.
 */
export function spokenMoney(minor: number, currency: string | null | undefined): string {
  if (!currency || !isKnownCurrency(currency) || !Number.isSafeInteger(minor) || minor < 0) return moneyText(minor, currency)
  const digits = minorUnitDigits(currency)
  const scale = 10 ** digits
  const whole = Math.floor(minor / scale)
  const part = minor % scale
  const name = currencyName(currency, whole === 1 && part === 0 ? 1 : 2)
  return `${groupThousands(String(whole))} ${name}${part > 0 ? ` ${String(part).padStart(digits, '0')}` : ''}`
}
