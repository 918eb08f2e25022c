/**
 * What the cashier should do next when the reader reports a problem. Each typed device error carries
 * one of these plus a short English message, so the UI can show an actionable line without knowing
 * NEO 2 codes (docs/device-protocol.md §2).
 */
export const CASHIER_ACTIONS = [
  'none',
  'tryAgain',
  'waitAndRetry',
  'presentCardAgain',
  'insertCard',
  'useAnotherCard',
  'cardDeclined',
  'callSupport',
] as const
export type CashierAction = (typeof CASHIER_ACTIONS)[number]

/** How a status or error code is handled: its advice to the cashier and whether repeating can help. */
export interface CashierAdvice {
  action: CashierAction
  /** Short English line for the cashier. */
  message: string
  /** True when repeating the same request may succeed (PosError `retryable`). */
  retryable: boolean
}
