/**
 * BMP 60, "individual totals" (PA00P015, End-of-Day `06 50` and Send Turnover Totals `06 10`): the
 * batch's first and last receipt numbers, then for each of seven card groups how many payments and
 * their turnover. The layout is fixed, 53 bytes, as a real terminal sends it (the EVerest/zvt capture
 * `1680761828.489701000_pt_ecr` in test/fixtures/zvt/captured-vectors.json):
 *
 *   receipt-no start  2 bytes BCD
 *   receipt-no end    2 bytes BCD
 *   7 × { number 1 byte binary, turnover 6 bytes BCD (minor units) }
 *        girocard, JCB, Eurocard (Mastercard), Amex, Visa, Diners, other cards
 *
 * Pure: built from the batch's totals by card brand (the day report's `totals`) and the receipt numbers
 * of the batch's ZVT payments.
 */
import { decodeBcdNumber, encodeAmount, encodeBcd } from './zvt-bcd'
import { decoded, failed, type Decoded } from './zvt-decode-error'

/** The card groups of BMP 60, in their order in the field. */
export const TOTAL_GROUPS = ['girocard', 'jcb', 'eurocard', 'amex', 'visa', 'diners', 'other'] as const
export type TotalGroup = (typeof TOTAL_GROUPS)[number]

export interface GroupTotal {
  count: number
  turnoverMinor: number
}

export interface IndividualTotals {
  receiptStart: number
  receiptEnd: number
  groups: Record<TotalGroup, GroupTotal>
}

const BMP60_LENGTH = 4 + TOTAL_GROUPS.length * 7
/** The count is one binary byte; turnover six BCD bytes. */
const MAX_COUNT = 0xff
const MAX_TURNOVER = 999_999_999_999

/** The group a card brand (as the journal names it) is totalled in. */
export function totalGroupOf(brand: string): TotalGroup {
  const name = brand.toLowerCase().replace(/[^a-z]/g, '')
  if (name === 'girocard' || name === 'eccard') return 'girocard'
  if (name === 'jcb') return 'jcb'
  if (name === 'mastercard' || name === 'eurocard' || name === 'maestro' || name === 'debitmastercard') return 'eurocard'
  if (name === 'amex' || name === 'americanexpress') return 'amex'
  if (name === 'visa' || name === 'vpay' || name === 'visaelectron' || name === 'visadebit') return 'visa'
  if (name === 'diners' || name === 'dinersclub') return 'diners'
  return 'other'
}

/**
 * The individual totals of a batch: its payments in `currency` by card group (amount plus tip), and the
 * range of the ZVT receipt numbers in it (0 and 0 when the register made none).
 */
export function individualTotals(
  totals: ReadonlyArray<{ currency: string; brand: string; count: number; amountMinor: number; tipMinor: number }>,
  currency: string,
  receipts: readonly number[],
): IndividualTotals {
  const groups = Object.fromEntries(TOTAL_GROUPS.map((group) => [group, { count: 0, turnoverMinor: 0 }])) as Record<TotalGroup, GroupTotal>
  for (const row of totals) {
    if (row.currency !== currency) continue
    const group = groups[totalGroupOf(row.brand)]
    group.count += row.count
    group.turnoverMinor += row.amountMinor + row.tipMinor
  }
  return {
    receiptStart: receipts.length > 0 ? Math.min(...receipts) : 0,
    receiptEnd: receipts.length > 0 ? Math.max(...receipts) : 0,
    groups,
  }
}

/**
 * BMP 60's value. A count over 255 is sent as 255 and a turnover over twelve digits as the largest
 * that fits: the field cannot carry more, and BMP 04 still carries the batch's whole total.
 */
export function encodeIndividualTotals(totals: IndividualTotals): Uint8Array {
  const out = new Uint8Array(BMP60_LENGTH)
  out.set(encodeBcd(totals.receiptStart % 10_000, 2), 0)
  out.set(encodeBcd(totals.receiptEnd % 10_000, 2), 2)
  TOTAL_GROUPS.forEach((group, index) => {
    const { count, turnoverMinor } = totals.groups[group]
    out[4 + index * 7] = Math.min(MAX_COUNT, Math.max(0, count))
    out.set(encodeAmount(Math.min(MAX_TURNOVER, Math.max(0, turnoverMinor))), 5 + index * 7)
  })
  return out
}

/** BMP 60's value read back (a register's view, and the tests' on captured bytes); total, never throws. */
export function decodeIndividualTotals(value: Uint8Array): Decoded<IndividualTotals> {
  if (value.length !== BMP60_LENGTH)
    return failed({ kind: 'malformed', what: 'BMP 60', detail: `${value.length} bytes where individual totals take ${BMP60_LENGTH}` })
  const receiptStart = decodeBcdNumber(value.subarray(0, 2), 'BMP 60 receipt-no start')
  if (!receiptStart.ok) return receiptStart
  const receiptEnd = decodeBcdNumber(value.subarray(2, 4), 'BMP 60 receipt-no end')
  if (!receiptEnd.ok) return receiptEnd
  const groups = {} as Record<TotalGroup, GroupTotal>
  for (const [index, group] of TOTAL_GROUPS.entries()) {
    const turnover = decodeBcdNumber(value.subarray(5 + index * 7, 11 + index * 7), `BMP 60 ${group} turnover`)
    if (!turnover.ok) return turnover
    groups[group] = { count: value[4 + index * 7]!, turnoverMinor: turnover.value }
  }
  return decoded({ receiptStart: receiptStart.value, receiptEnd: receiptEnd.value, groups })
}
