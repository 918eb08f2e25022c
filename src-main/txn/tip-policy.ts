/**
 * Tip tolerance: a tip above a share of the base amount is likely a typo (an extra zero) and needs a
 * manager's override. Default 20 % of the base (docs/product-defaults.md §2: scheme tolerance is
 * typically 20 % for restaurant MCCs; Clover warns above 20 %). The override lifts the tolerance only:
 * amount plus tip never passes the terminal's maximum sale nor the 12 digits of EMV's amount, whoever
 * approves (docs/product-defaults.md §6). Pure.
 */
import { MAX_READ_AMOUNT_MINOR } from '../device'
import { displayAmount } from '../../src-shared/money'
import { tipLimitMinor } from '../../src-shared/sale'
import type { SaleLimits } from './sale-request'

export interface TipPolicy {
  tolerancePercent: number
}

export const DEFAULT_TIP_POLICY: TipPolicy = { tolerancePercent: 20 }

export type TipCheck =
  { ok: true } | { ok: false; needsOverride: true; reason: string } | { ok: false; needsOverride: false; reason: string }

/** The most amount plus tip may come to: the terminal's maximum sale, within EMV's 12-digit amount (always a safe integer). */
export function maxTotalMinor(limits: Pick<SaleLimits, 'maxSaleMinor'>): number {
  return Math.min(limits.maxSaleMinor, MAX_READ_AMOUNT_MINOR)
}

export function checkTip(
  policy: TipPolicy,
  baseMinor: number,
  tipMinor: number,
  managerOverride: boolean,
  maxTotal: number,
  currency: string,
): TipCheck {
  if (!Number.isSafeInteger(tipMinor) || tipMinor < 0)
    return { ok: false, needsOverride: false, reason: 'a tip must be a whole, non-negative amount' }
  // Compared without adding: base + tip could itself pass 2^53 and round.
  if (tipMinor > maxTotal - baseMinor)
    return {
      ok: false,
      needsOverride: false,
      reason: `amount and tip together may not exceed ${displayAmount(maxTotal, currency)}, even with a manager's approval`,
    }
  const limit = tipLimitMinor(baseMinor, policy.tolerancePercent)
  if (tipMinor > limit && !managerOverride)
    return {
      ok: false,
      needsOverride: true,
      reason: `the tip is more than ${policy.tolerancePercent}% of the sale: a manager must approve it`,
    }
  return { ok: true }
}
