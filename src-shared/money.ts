/**
 * Money inside the program is an integer count of the currency's minor units; it becomes a decimal
 * string only at the gateway edge. docs/gateway.md §D3 "Amounts": `transAmount.value` carries exactly
 * the currency's ISO 4217 minor-unit digits ("12.34" USD, "1234" JPY, "12.345" BHD).
 */

/** ISO 4217 minor-unit exponents for every active alphabetic code whose exponent is not 2. */
const EXPONENT_EXCEPTIONS: Readonly<Record<string, number>> = {
  // zero-decimal currencies
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // three-decimal currencies
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // four-decimal units of account
  CLF: 4,
  UYW: 4,
}

/** Alphabetic ISO 4217 codes the agent accepts (active codes; funds and metals excluded). */
const KNOWN_CURRENCIES = new Set([
  'AED',
  'AFN',
  'ALL',
  'AMD',
  'ANG',
  'AOA',
  'ARS',
  'AUD',
  'AWG',
  'AZN',
  'BAM',
  'BBD',
  'BDT',
  'BGN',
  'BHD',
  'BIF',
  'BMD',
  'BND',
  'BOB',
  'BRL',
  'BSD',
  'BTN',
  'BWP',
  'BYN',
  'BZD',
  'CAD',
  'CDF',
  'CHF',
  'CLF',
  'CLP',
  'CNY',
  'COP',
  'CRC',
  'CUP',
  'CVE',
  'CZK',
  'DJF',
  'DKK',
  'DOP',
  'DZD',
  'EGP',
  'ERN',
  'ETB',
  'EUR',
  'FJD',
  'FKP',
  'GBP',
  'GEL',
  'GHS',
  'GIP',
  'GMD',
  'GNF',
  'GTQ',
  'GYD',
  'HKD',
  'HNL',
  'HTG',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'IQD',
  'IRR',
  'ISK',
  'JMD',
  'JOD',
  'JPY',
  'KES',
  'KGS',
  'KHR',
  'KMF',
  'KPW',
  'KRW',
  'KWD',
  'KYD',
  'KZT',
  'LAK',
  'LBP',
  'LKR',
  'LRD',
  'LSL',
  'LYD',
  'MAD',
  'MDL',
  'MGA',
  'MKD',
  'MMK',
  'MNT',
  'MOP',
  'MRU',
  'MUR',
  'MVR',
  'MWK',
  'MXN',
  'MYR',
  'MZN',
  'NAD',
  'NGN',
  'NIO',
  'NOK',
  'NPR',
  'NZD',
  'OMR',
  'PAB',
  'PEN',
  'PGK',
  'PHP',
  'PKR',
  'PLN',
  'PYG',
  'QAR',
  'RON',
  'RSD',
  'RUB',
  'RWF',
  'SAR',
  'SBD',
  'SCR',
  'SDG',
  'SEK',
  'SGD',
  'SHP',
  'SLE',
  'SOS',
  'SRD',
  'SSP',
  'STN',
  'SVC',
  'SYP',
  'SZL',
  'THB',
  'TJS',
  'TMT',
  'TND',
  'TOP',
  'TRY',
  'TTD',
  'TWD',
  'TZS',
  'UAH',
  'UGX',
  'USD',
  'UYI',
  'UYU',
  'UYW',
  'UZS',
  'VED',
  'VES',
  'VND',
  'VUV',
  'WST',
  'XAF',
  'XCD',
  'XCG',
  'XOF',
  'XPF',
  'YER',
  'ZAR',
  'ZMW',
  'ZWG',
])

export class MoneyError extends Error {
  override readonly name = 'MoneyError'
}

export function isKnownCurrency(code: string): boolean {
  return KNOWN_CURRENCIES.has(code)
}

/** Number of minor-unit digits of an ISO 4217 alphabetic code; throws on an unknown code. */
export function minorUnitDigits(currency: string): number {
  if (!KNOWN_CURRENCIES.has(currency)) throw new MoneyError(`unknown currency code "${currency}" (ISO 4217 alphabetic expected)`)
  return EXPONENT_EXCEPTIONS[currency] ?? 2
}

/** Minor units → the gateway's decimal string, e.g. (1234, 'USD') → "12.34", (1234, 'JPY') → "1234". */
export function formatAmount(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new MoneyError(`amount must be a non-negative whole number of minor units, got ${minor}`)
  const digits = minorUnitDigits(currency)
  if (digits === 0) return String(minor)
  const text = String(minor).padStart(digits + 1, '0')
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`
}

/**
 * The gateway's decimal string → minor units. Strict: exactly the currency's digits after the point,
 * no sign, no exponent, no grouping; a value with the wrong number of decimals is an error, never rounded.
 */
export function parseAmount(value: string, currency: string): number {
  const digits = minorUnitDigits(currency)
  const pattern = digits === 0 ? /^(0|[1-9]\d*)$/ : new RegExp(`^(0|[1-9]\\d*)\\.(\\d{${digits}})$`)
  const match = pattern.exec(value)
  if (!match) {
    const shape = digits === 0 ? 'a whole number' : `a decimal with exactly ${digits} digits after the point`
    throw new MoneyError(`amount "${value}" is not ${shape} for ${currency}`)
  }
  const minor = Number(`${match[1]}${match[2] ?? ''}`)
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`amount "${value}" is too large`)
  return minor
}

/** Human display, e.g. "USD 12.34"; the renderer may localise further. */
export function displayAmount(minor: number, currency: string): string {
  return `${currency} ${formatAmount(minor, currency)}`
}
