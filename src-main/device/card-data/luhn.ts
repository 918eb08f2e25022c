/**
 * Luhn check digit (ISO/IEC 7812-1, docs/card-reader.md §5): from the check digit leftwards, double every
 * second digit, subtract 9 from products above 9; the sum must be 0 mod 10.
 */

export class LuhnError extends Error {
  override readonly name = 'LuhnError'
  readonly code = 'notDigits' as const
}

function luhnSum(digits: string, doubleFirstFromRight: boolean): number {
  let sum = 0
  let double = doubleFirstFromRight
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
    double = !double
  }
  return sum
}

/** True when `pan` is all digits (at least 2) and its last digit is a correct Luhn check digit. */
export function isLuhnValid(pan: string): boolean {
  return /^\d{2,}$/.test(pan) && luhnSum(pan, false) % 10 === 0
}

/** The check digit to append to `payload` (digits only, at least one). */
export function luhnCheckDigit(payload: string): string {
  if (!/^\d+$/.test(payload)) throw new LuhnError('Luhn payload must be one or more digits')
  return String((10 - (luhnSum(payload, true) % 10)) % 10)
}
