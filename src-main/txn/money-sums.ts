/**
 * Sums of money in minor units, checked. A JavaScript number counts every minor unit exactly only up
 * to 2^53 − 1 (Number.MAX_SAFE_INTEGER, ECMA-262 §21.1.2.6); past it, a sum rounds and a total is
 * silently wrong. Every total the terminal reports (the day report, a closed batch, the queue) is
 * added here, and one that would pass the limit is refused in plain words instead of being wrong.
 */
import { PosError } from '../../src-shared/pos-error'

/** a + b + …, every term and the result a safe integer. */
export function addMinor(...values: number[]): number {
  let total = 0
  for (const value of values) {
    if (!Number.isSafeInteger(value)) throw unsafe()
    total += value
    if (!Number.isSafeInteger(total)) throw unsafe()
  }
  return total
}

/** Adds `values` to `record[currency]` (a per-currency total). */
export function addTo(record: Record<string, number>, currency: string, ...values: number[]): void {
  record[currency] = addMinor(record[currency] ?? 0, ...values)
}

function unsafe(): PosError {
  return new PosError('AMOUNT_TOO_LARGE', 'these totals are larger than the terminal can count exactly; call support')
}
