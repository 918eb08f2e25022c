/**
 * The largest tip accepted without a manager: a share of the base amount, rounded down to the minor
 * unit. One formula for the agent's tip policy and the cashier's tip screen (docs/product-defaults.md §2).
 */
export function tipLimitMinor(baseMinor: number, tolerancePercent: number): number {
  return Math.floor((baseMinor * tolerancePercent) / 100)
}
