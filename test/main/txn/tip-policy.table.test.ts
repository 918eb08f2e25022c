/**
 * The tip tolerance as a table: base amount × tip × tolerance × manager override, in minor units.
 * The limit is floor(base × percent / 100); rows sit exactly at it and one minor unit above.
 */
import { describe, expect, it } from 'vitest'
import { checkTip, DEFAULT_TIP_POLICY, maxTotalMinor, type TipCheck } from '../../../src-main/txn/tip-policy'

/** Rows with a plain-text title each (vitest quotes and shortens `$field` strings). */
const titled = <T>(rows: readonly T[], title: (row: T) => string): Array<[string, T]> => rows.map((row) => [title(row), row])

const OK: TipCheck = { ok: true }
const PAST_MAX: TipCheck = {
  ok: false,
  needsOverride: false,
  reason: "amount and tip together may not exceed USD 10000.00, even with a manager's approval",
}
const INVALID: TipCheck = { ok: false, needsOverride: false, reason: 'a tip must be a whole, non-negative amount' }
const OVERRIDE = (percent: number): TipCheck => ({
  ok: false,
  needsOverride: true,
  reason: `the tip is more than ${percent}% of the sale: a manager must approve it`,
})
const say = (check: TipCheck): string => (check.ok ? 'ok' : check.needsOverride ? 'needs a manager' : 'invalid')

interface TipRow {
  name: string
  percent: number
  baseMinor: number
  tipMinor: number
  override: boolean
  expected: TipCheck
}

const row = (name: string, percent: number, baseMinor: number, tipMinor: number, override: boolean, expected: TipCheck): TipRow => ({
  name,
  percent,
  baseMinor,
  tipMinor,
  override,
  expected,
})

const TIP_ROWS: TipRow[] = [
  // The default 20 % on 100.00.
  row('no tip', 20, 10_000, 0, false, OK),
  row('a small tip', 20, 10_000, 1, false, OK),
  row('exactly 20 %', 20, 10_000, 2_000, false, OK),
  row('one minor unit above 20 %', 20, 10_000, 2_001, false, OVERRIDE(20)),
  row('one minor unit above 20 %, manager approves', 20, 10_000, 2_001, true, OK),
  row('an extra zero (200 %)', 20, 10_000, 20_000, false, OVERRIDE(20)),
  row('an extra zero, manager approves', 20, 10_000, 20_000, true, OK),
  row('no tip, manager override set anyway', 20, 10_000, 0, true, OK),
  // The limit is rounded down to a whole minor unit.
  row('9.99 base: 20 % is 1.998, the limit is 1.99', 20, 999, 199, false, OK),
  row('9.99 base: 2.00 is above the rounded-down limit', 20, 999, 200, false, OVERRIDE(20)),
  row('0.01 base: the limit rounds down to 0', 20, 1, 1, false, OVERRIDE(20)),
  row('0.01 base, no tip', 20, 1, 0, false, OK),
  row('zero base: any tip is above', 20, 0, 1, false, OVERRIDE(20)),
  row('zero base, no tip', 20, 0, 0, false, OK),
  // Not a whole, non-negative, safe integer: refused, and an override does not help.
  row('negative', 20, 10_000, -1, false, INVALID),
  row('negative, manager approves', 20, 10_000, -1, true, INVALID),
  row('half a minor unit', 20, 10_000, 0.5, false, INVALID),
  row('a decimal amount in major units', 20, 10_000, 1.5, true, INVALID),
  row('NaN', 20, 10_000, Number.NaN, true, INVALID),
  row('Infinity', 20, 10_000, Number.POSITIVE_INFINITY, true, INVALID),
  row('above Number.MAX_SAFE_INTEGER', 20, 10_000, Number.MAX_SAFE_INTEGER + 1, true, INVALID),
  // Past the terminal's maximum sale in sum: refused, and an override does not help (no approval lifts it).
  row('Number.MAX_SAFE_INTEGER', 20, 10_000, Number.MAX_SAFE_INTEGER, false, PAST_MAX),
  row('Number.MAX_SAFE_INTEGER, manager approves', 20, 10_000, Number.MAX_SAFE_INTEGER, true, PAST_MAX),
  row('minus zero counts as zero', 20, 10_000, -0, false, OK),
  row('a huge base (90 trillion): exactly 20 %', 20, 9_000_000_000_000_000, 1_800_000_000_000_000, false, PAST_MAX),
  // Other tolerances.
  row('0 %: no tip', 0, 10_000, 0, false, OK),
  row('0 %: one minor unit', 0, 10_000, 1, false, OVERRIDE(0)),
  row('0 %: one minor unit, manager approves', 0, 10_000, 1, true, OK),
  row('100 %: tip equal to the base', 100, 5_000, 5_000, false, OK),
  row('100 %: one minor unit above the base', 100, 5_000, 5_001, false, OVERRIDE(100)),
  row('1000 % (the configuration maximum): exactly at', 1000, 5_000, 50_000, false, OK),
  row('1000 %: one above', 1000, 5_000, 50_001, false, OVERRIDE(1000)),
  row('12.5 %: exactly at', 12.5, 1_000, 125, false, OK),
  row('12.5 %: one above', 12.5, 1_000, 126, false, OVERRIDE(12.5)),
  // The rule works in minor units, so the currency's exponent changes nothing.
  row('JPY (no decimals), 1000 yen: exactly 200 yen', 20, 1_000, 200, false, OK),
  row('JPY, 1000 yen: 201 yen', 20, 1_000, 201, false, OVERRIDE(20)),
  row('BHD (3 decimals), 10.000: exactly 2.000', 20, 10_000, 2_000, false, OK),
  row('BHD, 10.000: 2.001', 20, 10_000, 2_001, false, OVERRIDE(20)),
]

/** The terminal's maximum sale in these rows (config limits.maxSaleAmount 10 000.00). */
const MAX_TOTAL = 1_000_000

describe('checkTip', () => {
  it('defaults to 20 % (docs/product-defaults.md §2)', () => {
    expect(DEFAULT_TIP_POLICY).toEqual({ tolerancePercent: 20 })
  })

  const rows = titled(
    TIP_ROWS,
    (r) => `${r.percent} %, base ${r.baseMinor}, tip ${r.tipMinor}${r.override ? ', override' : ''} (${r.name}) → ${say(r.expected)}`,
  )
  it.each(rows)('%s', (_, r) => {
    expect(checkTip({ tolerancePercent: r.percent }, r.baseMinor, r.tipMinor, r.override, MAX_TOTAL, 'USD')).toEqual(r.expected)
  })
})

describe('checkTip with a fractional tolerance (the configuration allows any number from 0 to 1000)', () => {
  // Current behaviour, kept visible: base × percent / 100 is computed in binary floating point, so for
  // some fractional percentages the limit lands one minor unit below the exact share. 2.3 % of 30.00
  // is exactly 0.69, yet a 0.69 tip needs a manager (3000 × 2.3 = 6899.999…).
  const rows = titled(
    [
      { percent: 2.3, baseMinor: 3_000, exactLimit: 69 },
      { percent: 4.6, baseMinor: 1_500, exactLimit: 69 },
      { percent: 8.7, baseMinor: 3_000, exactLimit: 261 },
    ],
    (r) => `${r.percent} % of ${r.baseMinor} is exactly ${r.exactLimit}: a tip of exactly that needs a manager`,
  )
  it.each(rows)('%s', (_, { percent, baseMinor, exactLimit }) => {
    expect(checkTip({ tolerancePercent: percent }, baseMinor, exactLimit, false, MAX_TOTAL, 'USD')).toEqual(OVERRIDE(percent))
    expect(checkTip({ tolerancePercent: percent }, baseMinor, exactLimit - 1, false, MAX_TOTAL, 'USD')).toEqual(OK)
  })
})

describe('no approval lifts the limits on amount plus tip', () => {
  it('refuses a tip that takes the sale past the maximum sale, with or without a manager', () => {
    for (const override of [false, true])
      expect(checkTip(DEFAULT_TIP_POLICY, 100, MAX_TOTAL - 99, override, MAX_TOTAL, 'USD')).toMatchObject({
        ok: false,
        needsOverride: false,
        reason: expect.stringMatching(/may not exceed USD 10000\.00.*even with a manager/),
      })
    expect(checkTip(DEFAULT_TIP_POLICY, 100, MAX_TOTAL - 100, true, MAX_TOTAL, 'USD')).toEqual(OK)
  })

  it('refuses the 90,071,992,547,409.91 tip on a 1.00 sale: past 2^53 in sum, past EMV, past any maximum', () => {
    const tip = 9_007_199_254_740_991
    expect(checkTip(DEFAULT_TIP_POLICY, 100, tip, true, maxTotalMinor({ maxSaleMinor: Number.MAX_SAFE_INTEGER }), 'USD')).toMatchObject({
      ok: false,
      needsOverride: false,
    })
    expect(maxTotalMinor({ maxSaleMinor: Number.MAX_SAFE_INTEGER })).toBe(999_999_999_999)
  })
})
