/**
 * Amount entry, as cashiers type it. Digits alone shift in from the right as minor units, like a cash
 * register (1, 2, 3, 4 → 12.34 USD, 1234 JPY). A decimal point ("." or ",") switches to the amount as
 * written: what was keyed so far becomes the whole part and the next digits the decimals (12 . 3 →
 * 12.30), at most the currency's minor-unit digits. No float is ever made: the entry is a string and
 * becomes minor units with src-shared/money. Tip fields take a typed decimal ("2.5", "2.50") the same way.
 */
import { minorUnitDigits, parseAmount } from '../../../src-shared/money'

/** Nine digits of minor units: USD 9 999 999.99, far inside Number.MAX_SAFE_INTEGER. */
export const MAX_ENTRY_DIGITS = 9

/** The keyed entry: digits, or digits, one "." and the decimals typed after it. */
export type AmountEntry = string

const POINT = '.'

function split(entry: AmountEntry): { whole: string; fraction: string | null } {
  const at = entry.indexOf(POINT)
  return at < 0 ? { whole: entry, fraction: null } : { whole: entry.slice(0, at), fraction: entry.slice(at + 1) }
}

/** Digits pressed (one, or "00" from the keypad). A full entry or full decimals take no more. */
export function appendDigits(entry: AmountEntry, digits: string, fractionDigits = 2): AmountEntry {
  if (!/^\d+$/.test(digits)) return entry
  const { whole, fraction } = split(entry)
  if (fraction === null) {
    const next = (whole + digits).replace(/^0+/, '')
    return next.length > MAX_ENTRY_DIGITS ? entry : next
  }
  const decimals = (fraction + digits).slice(0, fractionDigits)
  return `${whole}${POINT}${decimals}`
}

/** The decimal point: what was keyed becomes the whole part. Ignored for a currency without decimals, or a second time. */
export function appendPoint(entry: AmountEntry, fractionDigits = 2): AmountEntry {
  if (fractionDigits === 0 || entry.includes(POINT)) return entry
  const whole = entry.replace(/^0+/, '')
  // The whole part keeps room for the decimals inside the nine digits.
  if (whole.length > MAX_ENTRY_DIGITS - fractionDigits) return entry
  return `${whole}${POINT}`
}

export function eraseLastDigit(entry: AmountEntry): AmountEntry {
  const next = entry.slice(0, -1)
  return next === POINT ? '' : next
}

/**
 * Text pasted or typed into the field as a whole ("12.34", "$1,234.50", "12,5") → an entry. With a
 * decimal point it is the amount as written, "," and spaces grouping thousands; a lone "," followed
 * by at most the currency's decimals is the point; digits alone are read cash-register style.
 */
export function entryFromText(text: string, fractionDigits = 2): AmountEntry {
  const cleaned = text.replace(/[^\d.,]/g, '')
  let decimalAt = cleaned.lastIndexOf('.')
  if (decimalAt < 0 && fractionDigits > 0) {
    const comma = cleaned.lastIndexOf(',')
    const after = comma < 0 ? '' : cleaned.slice(comma + 1)
    if (comma >= 0 && cleaned.indexOf(',') === comma && /^\d*$/.test(after) && after.length <= fractionDigits) decimalAt = comma
  }
  if (decimalAt < 0 || fractionDigits === 0) {
    const digits = cleaned.replace(/\D/g, '').replace(/^0+/, '')
    return digits.length > MAX_ENTRY_DIGITS ? digits.slice(0, MAX_ENTRY_DIGITS) : digits
  }
  const whole = cleaned
    .slice(0, decimalAt)
    .replace(/\D/g, '')
    .replace(/^0+/, '')
    .slice(0, MAX_ENTRY_DIGITS - fractionDigits)
  const fraction = cleaned
    .slice(decimalAt + 1)
    .replace(/\D/g, '')
    .slice(0, fractionDigits)
  return `${whole}${POINT}${fraction}`
}

/**
 * What the field's text became after one edit, as an entry: a character added at the end is that key;
 * one taken off the end is an erase; anything else (a paste, a selection typed over) is read whole.
 */
export function entryAfterEdit(entry: AmountEntry, before: string, after: string, fractionDigits = 2): AmountEntry {
  if (after.startsWith(before) && after.length === before.length + 1) {
    const key = after.slice(-1)
    if (/\d/.test(key)) return appendDigits(entry, key, fractionDigits)
    if (key === '.' || key === ',') return appendPoint(entry, fractionDigits)
    return entry
  }
  if (before.startsWith(after) && before.length === after.length + 1) return eraseLastDigit(entry)
  return entryFromText(after, fractionDigits)
}

export function entryMinor(entry: AmountEntry, fractionDigits = 2): number {
  const { whole, fraction } = split(entry)
  if (fraction === null) return whole === '' ? 0 : Number(whole)
  return Number(`${whole || '0'}${fraction.padEnd(fractionDigits, '0')}`)
}

/** Thousands grouped with ",": "1234567" → "1,234,567". */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** The field's text: the amount with separators; after a point, the decimals as typed so far ("12.", "1,234.5"). */
export function entryText(entry: AmountEntry, fractionDigits = 2): string {
  if (entry === '') return ''
  const { whole, fraction } = split(entry)
  if (fraction !== null) return `${groupThousands(whole || '0')}${POINT}${fraction}`
  const minor = whole.padStart(fractionDigits + 1, '0')
  if (fractionDigits === 0) return groupThousands(whole)
  return `${groupThousands(minor.slice(0, -fractionDigits))}${POINT}${minor.slice(-fractionDigits)}`
}

export type TypedAmount = { ok: true; minor: number } | { ok: false; reason: string }

/** "2.5" USD → 250; "1,234.50" → 123450; "" → 0; "2.555" USD, "1.5" JPY, "abc" → a reason. */
export function parseTypedAmount(text: string, currency: string): TypedAmount {
  // "1,234.50": with a point present, commas only group thousands.
  const trimmed = text.includes('.') ? text.trim().replace(/,/g, '') : text.trim()
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
