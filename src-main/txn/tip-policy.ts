/**
 * Tip tolerance: a tip above a share of the base amount is likely a typo (an extra zero) and needs a
 * manager's override. Default 20 % of the base (docs/product-defaults.md §2: scheme tolerance is
 * typically 20 % for restaurant MCCs; Clover warns above 20 %). Pure.
 */
import { tipLimitMinor } from '../../src-shared/sale'

export interface TipPolicy {
  tolerancePercent: number
}

export const DEFAULT_TIP_POLICY: TipPolicy = { tolerancePercent: 20 }

export type TipCheck =
  { ok: true } | { ok: false; needsOverride: true; reason: string } | { ok: false; needsOverride: false; reason: string }

export function checkTip(policy: TipPolicy, baseMinor: number, tipMinor: number, managerOverride: boolean): TipCheck {
  if (!Number.isSafeInteger(tipMinor) || tipMinor < 0)
    return { ok: false, needsOverride: false, reason: 'a tip must be a whole, non-negative amount' }
  const limit = tipLimitMinor(baseMinor, policy.tolerancePercent)
  if (tipMinor > limit && !managerOverride)
    return {
      ok: false,
      needsOverride: true,
      reason: `the tip is more than ${policy.tolerancePercent}% of the sale: a manager must approve it`,
    }
  return { ok: true }
}
