/**
 * Store-and-forward eligibility: may a payment the host never saw be approved locally and stored?
 * Pure. Defaults come from established products (docs/product-defaults.md §1): Clover limits each offline
 * payment to $500 and the total to $5,000 by default, Moneris to $250 and 500 stored records, Square
 * uploads within 24 hours; a swiped card or an online-PIN card cannot be verified offline.
 */
import type { OfflineDecision, OfflinePolicy } from './txn-types'
import type { ReadMethod } from '../device'

export interface OfflineLimits {
  enabled: boolean
  /** Per transaction, in minor units, per currency. A currency without limits is never stored. */
  perTransactionMinor: Readonly<Record<string, number>>
  /** Total stored and not yet forwarded, in minor units, per currency. */
  totalStoredMinor: Readonly<Record<string, number>>
  maxStoredCount: number
  /** A stored payment older than this must be forwarded before another is stored. */
  maxOldestAgeHours: number
  allowSwipe: boolean
  allowOnlinePinCards: boolean
}

export const DEFAULT_OFFLINE_LIMITS = (currency: string, minorPerMajor: number): OfflineLimits => ({
  enabled: true,
  perTransactionMinor: { [currency]: 250 * minorPerMajor },
  totalStoredMinor: { [currency]: 5_000 * minorPerMajor },
  maxStoredCount: 500,
  maxOldestAgeHours: 24,
  allowSwipe: false,
  allowOnlinePinCards: false,
})

/** What the queue holds right now, for the limits that depend on it. */
export interface StoredTotals {
  count: number
  amountMinor: Readonly<Record<string, number>>
  oldestStoredAt: number | undefined
}

export interface OfflineCandidate {
  policy: OfflinePolicy
  amountMinor: number
  currency: string
  method: ReadMethod
  onlinePin: boolean
  expired: boolean
}

export function decideOffline(candidate: OfflineCandidate, limits: OfflineLimits, stored: StoredTotals, now: number): OfflineDecision {
  const no = (reason: string): OfflineDecision => ({ eligible: false, reason })
  if (candidate.policy === 'requireOnline') return no('this sale must be approved by the bank')
  if (!limits.enabled) return no('offline payments are switched off')
  if (candidate.expired) return no('the card has expired')
  if (
    (candidate.method === 'swipe' || candidate.method === 'fallbackSwipe' || candidate.method === 'contactlessMagstripe') &&
    !limits.allowSwipe
  ) {
    return no('a swiped card cannot be approved offline')
  }
  if (candidate.method === 'keyed') return no('a keyed card cannot be approved offline')
  if (candidate.onlinePin && !limits.allowOnlinePinCards) return no('a card that asked for online PIN cannot be approved offline')
  const perTransaction = limits.perTransactionMinor[candidate.currency]
  if (perTransaction === undefined) return no(`no offline limit is set for ${candidate.currency}`)
  if (candidate.amountMinor > perTransaction) return no('the amount is over the offline limit per sale')
  const total = (stored.amountMinor[candidate.currency] ?? 0) + candidate.amountMinor
  const totalLimit = limits.totalStoredMinor[candidate.currency]
  if (totalLimit === undefined || total > totalLimit) return no('the total of stored payments would exceed its limit')
  if (stored.count + 1 > limits.maxStoredCount) return no('too many payments are already stored')
  // At its age limit the oldest stored payment already needs a manager (the retry policy gives up at
  // age >= its limit): no new payment is stored beside it.
  if (stored.oldestStoredAt !== undefined && now - stored.oldestStoredAt >= limits.maxOldestAgeHours * 3_600_000) {
    return no('the oldest stored payment is too old: the bank must be reached first')
  }
  return { eligible: true }
}
