/**
 * The queue, derived at a given moment: how old the oldest stored payment is and how long before it
 * expires (needs a manager). `now` is passed in; the status's countdown started when it arrived.
 */
import type { QueueItemView } from '../../../../src-shared/contract'
import type { PosState } from '../store-types'

export interface QueueExpiry {
  oldestAgeMs: number | null
  timeLeftMs: number | null
  expired: boolean
}

export function queueExpiry(s: Pick<PosState, 'queue' | 'queueAt'>, now: number): QueueExpiry {
  const queue = s.queue
  const oldestAgeMs = queue?.oldestStoredAt !== undefined ? Math.max(0, now - queue.oldestStoredAt) : null
  if (queue?.oldestExpiresInMs === undefined) return { oldestAgeMs, timeLeftMs: null, expired: false }
  const timeLeftMs = Math.max(0, queue.oldestExpiresInMs - Math.max(0, now - s.queueAt))
  return { oldestAgeMs, timeLeftMs, expired: timeLeftMs === 0 }
}

/** Under an hour left before the oldest stored payment expires: worth a warning. */
export const EXPIRY_WARNING_MS = 60 * 60 * 1000

export function expirySoon(expiry: QueueExpiry): boolean {
  return expiry.timeLeftMs !== null && expiry.timeLeftMs < EXPIRY_WARNING_MS
}

export function storedAmounts(s: Pick<PosState, 'queue'>): Array<{ currency: string; minor: number }> {
  const amounts = s.queue?.storedAmountMinor ?? {}
  return Object.entries(amounts)
    .map(([currency, minor]) => ({ currency, minor }))
    .sort((a, b) => a.currency.localeCompare(b.currency))
}

export type HostReach = 'reachable' | 'unreachable' | 'unknown'

export function hostReach(s: Pick<PosState, 'queue'>): HostReach {
  const reachable = s.queue?.hostReachable
  return reachable === undefined ? 'unknown' : reachable ? 'reachable' : 'unreachable'
}

/** Queue items a manager must look at (state 'attention' in the outbox). */
export function attentionItems(s: Pick<PosState, 'queueItems'>): QueueItemView[] {
  return s.queueItems.filter((item) => item.state === 'attention' || item.state === 'needsAttention')
}

export function waitingItems(s: Pick<PosState, 'queueItems'>): QueueItemView[] {
  return s.queueItems.filter((item) => item.state !== 'attention' && item.state !== 'needsAttention')
}

export function itemTimeLeftMs(s: Pick<PosState, 'queueItemsAt'>, item: QueueItemView, now: number): number {
  return Math.max(0, item.expiresInMs - Math.max(0, now - s.queueItemsAt))
}
