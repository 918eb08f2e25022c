/**
 * Amount entry. The sale keypad works like a cash register: digits shift in from the right as minor
 * units (1, 2, 3, 4 → 12.34 USD, 1234 JPY), so no decimal point is ever typed and no float is made.
 * Tip fields take a typed decimal ("2.5", "2.50") and turn it into minor units with src-shared/money.
 */
import { minorUnitDigits, parseAmount } from '../../../src-shared/money'

/** Nine digits: USD 9 999 999.99, far inside Number.MAX_SAFE_INTEGER. */
export const MAX_ENTRY_DIGITS = 9

export function appendDigits(entry: string, digits: string, max = MAX_ENTRY_DIGITS): string {
  if (!/^\d+$/.test(digits)) return entry
  const next = (entry + digits).replace(/^0+/, '')
  return next.length > max ? entry : next
}

export function eraseLastDigit(entry: string): string {
  return entry.slice(0, -1)
}

/** Whatever was typed or pasted into the amount field ("12.34", "$1,234") → its digits, cash-register style. */
export function entryFromText(text: string, max = MAX_ENTRY_DIGITS): string {
  const digits = text.replace(/\D/g, '').replace(/^0+/, '')
  return digits.length > max ? digits.slice(0, max) : digits
}

export function entryMinor(entry: string): number {
  return entry === '' ? 0 : Number(entry)
}

export type TypedAmount = { ok: true; minor: number } | { ok: false; reason: string }

/** "2.5" USD → 250; "" → 0; "2.555" USD, "1.5" JPY, "abc" → a reason. */
export function parseTypedAmount(text: string, currency: string): TypedAmount {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: true, minor: 0 }
  const digits = minorUnitDigits(currency)
  const example = digits === 0 ? '500' : `2.${'5'.padEnd(digits, '0')}`
  const pattern = digits === 0 ? /^(\d+)$/ : new RegExp(`^(\\d*)(?:[.,](\\d{0,${digits}}))?$`)
  const match = pattern.exec(trimmed)
  if (!match || (match[1] === '' && !match[2])) {
    const decimals = digits === 0 ? 'no decimals' : `at most ${digits} decimals`
    return { ok: false, reason: `Enter an amount like ${example} (${decimals})` }
  }
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '') || '0'
  const normalized = digits === 0 ? whole : `${whole}.${(match[2] ?? '').padEnd(digits, '0')}`
  try {
    return { ok: true, minor: parseAmount(normalized, currency) }
  } catch {
    return { ok: false, reason: 'That amount is too large' }
  }
}
