/**
 * When the store-and-forward queue tries an item again, and when it gives up. Pure. Exponential
 * backoff with full jitter (docs/product-defaults.md §3: PayEx asks for an exponential wait; the
 * gateway specification suggests it, docs/gateway.md §7); an item past its limits goes to needs
 * attention, never away.
 */
import type { QueuedOperation } from './txn-types'
import { QUEUE_OPERATION_NOUNS } from '../../src-shared/sale'

export interface RetryPolicy {
  baseDelayMs: number
  maxDelayMs: number
  /** Counted attempts (an attempt with no answer counts too, unlike jPOS: a dead host must surface). */
  maxAttempts: number
  /**
   * Age after which an item needs a manager, per operation. A stored payment expires at the host's side.
   * A return's credit without a limit of its own waits as long as a stored payment: both are money
   * the bank has not confirmed yet, and a manager's retry sends the very same message again.
   */
  maxAgeHours: Readonly<Record<Exclude<QueuedOperation, 'merchandiseCredit'>, number>> & { readonly merchandiseCredit?: number }
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 2_000,
  maxDelayMs: 5 * 60_000,
  maxAttempts: 200,
  maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
}

/** Delay before attempt `attempts + 1`; `random` in [0, 1) is passed in to keep this pure. */
export function nextDelayMs(policy: RetryPolicy, attempts: number, random: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(attempts, 30))
  // Never below half the base, never above the cap: a cap under half the base wins.
  const floor = Math.min(policy.baseDelayMs / 2, ceiling)
  return Math.round(floor + random * (ceiling - floor))
}

export type RetryVerdict = { retry: true; at: number } | { retry: false; reason: string }

export function afterFailedAttempt(
  policy: RetryPolicy,
  operation: QueuedOperation,
  attempts: number,
  createdAt: number,
  now: number,
  random: number,
): RetryVerdict {
  const noun = QUEUE_OPERATION_NOUNS[operation]
  if (attempts >= policy.maxAttempts)
    return { retry: false, reason: `the bank did not confirm the ${noun} after ${attempts} ${attempts === 1 ? 'try' : 'tries'}` }
  const ageHours = (now - createdAt) / 3_600_000
  const limit = maxAgeHoursOf(policy, operation)
  if (ageHours >= limit)
    return { retry: false, reason: `the bank did not confirm the ${noun} within ${limit} ${limit === 1 ? 'hour' : 'hours'}` }
  return { retry: true, at: now + nextDelayMs(policy, attempts, random) }
}

/** Remaining time before a queued item would need attention (shown in the queue panel). */
export function timeLeftMs(policy: RetryPolicy, operation: QueuedOperation, createdAt: number, now: number): number {
  return Math.max(0, createdAt + maxAgeHoursOf(policy, operation) * 3_600_000 - now)
}

/** The age limit of `operation`'s queued items, in hours. */
export function maxAgeHoursOf(policy: RetryPolicy, operation: QueuedOperation): number {
  return operation === 'merchandiseCredit'
    ? (policy.maxAgeHours.merchandiseCredit ?? policy.maxAgeHours.payment)
    : policy.maxAgeHours[operation]
}
