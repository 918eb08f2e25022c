/**
 * PAN masking for display (PCI DSS v4.0.1 Req. 3.4.1; docs/card-reader.md §5): never more than the first 6
 * and the last 4 digits. For short PANs fewer are shown, so that at least 6 digits always stay hidden
 * (the brands' "at least 6 digits removed" floor in PCI SSC FAQ 1091); the last 4 have priority because
 * receipts and the cashier identify a card by them. Decision recorded in docs/device-protocol.md §4.
 *
 *   16 digits  411111******1111     13 digits  401******8909 (first 3)
 *   12 digits  40******8909 (first 2)     10 digits  ******8909     8 digits  ******09
 */

export class PanError extends Error {
  override readonly name = 'PanError'
  readonly code = 'badPan' as const
}

/** At least this many digits are always masked. */
export const MIN_HIDDEN_DIGITS = 6
const MAX_FIRST = 6
const MAX_LAST = 4

export const MASK_STYLES = ['firstSixLastFour', 'lastFour'] as const
export type MaskStyle = (typeof MASK_STYLES)[number]

/** How many leading and trailing digits may be shown for a PAN of this length. */
export function visibleDigits(panLength: number, style: MaskStyle = 'firstSixLastFour'): { first: number; last: number } {
  const last = Math.min(MAX_LAST, Math.max(0, panLength - MIN_HIDDEN_DIGITS))
  const first = style === 'lastFour' ? 0 : Math.min(MAX_FIRST, Math.max(0, panLength - MIN_HIDDEN_DIGITS - last))
  return { first, last }
}

/** PAN (8-19 digits, ISO/IEC 7812) with the hidden digits replaced by `*`. */
export function maskPan(pan: string, style: MaskStyle = 'firstSixLastFour'): string {
  if (!/^\d{8,19}$/.test(pan)) throw new PanError(`a PAN is 8 to 19 digits, got ${pan.length} characters`)
  const { first, last } = visibleDigits(pan.length, style)
  return pan.slice(0, first) + '*'.repeat(pan.length - first - last) + pan.slice(pan.length - last)
}
