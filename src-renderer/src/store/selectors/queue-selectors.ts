/**
 * The queue, derived at a given moment: how old the oldest stored payment is and how long before it
 * expires (needs a manager). `now` is passed in; the status's countdown started when it arrived.
 */
import type { QueueItemView, SaleView } from '../../../../src-shared/contract'
import { plainReason } from '../reason-words'
import { QUEUE_OPERATION_WORDS } from '../sale-words'
import { QUEUE_FAILURE_WORDS } from '../../../../src-shared/sale/queue-operations'
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

/** What a queued message is, in words ("Stored payment", "Tip", ...). */
export function queueItemWords(item: Pick<QueueItemView, 'operation'>): string {
  return QUEUE_OPERATION_WORDS[item.operation] ?? 'Message to the bank'
}

/**
 * What a manager can do for a sale: send its parked message again (`retry`), take note that a stored
 * payment the bank declined will not be paid (`acknowledge`), or nothing from this screen (`none`).
 */
export type ManagerAction = 'retry' | 'acknowledge' | 'none'

/** One sale that needs a manager, as the queue screen lists it. */
export interface ManagerCase {
  saleId: string
  action: ManagerAction
  /** What went wrong, in a few words. */
  what: string
  amountMinor: number
  currency: string | null
  /** Brand and masked card number, when the sale has them. */
  card: string | null
  /** When the sale was made (or the message queued, for a sale not in the day's list). */
  at: number
  /** Why, in plain words. */
  reason: string | null
}

function plainOrNull(reason: string | null | undefined): string | null {
  return reason ? plainReason(reason) : null
}

/**
 * Why a queued message has not gone through, in the words of its failure's kind. An item that failed
 * under an earlier version has no kind, only the log's text: that is reworded as a last resort.
 */
export function queueErrorWords(item: Pick<QueueItemView, 'lastFailure' | 'lastError'>): string | null {
  return item.lastFailure ? QUEUE_FAILURE_WORDS[item.lastFailure] : plainOrNull(item.lastError)
}

function cardText(sale: SaleView | undefined): string | null {
  return [sale?.brand, sale?.maskedPan].filter(Boolean).join(' ') || null
}

/**
 * Every sale that needs a manager: each sale with a parked queue item (retried), and each of the
 * day's sales that needs one with no parked item: a stored payment the bank declined when it was
 * sent (acknowledged). The second kind is known only once the queue items are loaded. Oldest first.
 */
export function managerCases(s: Pick<PosState, 'queueItems' | 'queueItemsLoaded' | 'sales'>): ManagerCase[] {
  const parked = new Map<string, QueueItemView>()
  for (const item of attentionItems(s)) {
    const first = parked.get(item.saleId)
    if (!first || item.seq < first.seq) parked.set(item.saleId, item)
  }
  const cases: ManagerCase[] = []
  for (const item of parked.values()) {
    const sale = s.sales[item.saleId]
    cases.push({
      saleId: item.saleId,
      action: 'retry',
      what: `${queueItemWords(item)} stopped in the queue`,
      amountMinor: sale ? sale.amountMinor : item.amountMinor,
      currency: sale ? sale.currency : item.currency,
      card: cardText(sale),
      at: sale ? sale.createdAt : item.createdAt,
      // The sale's reason is written for people; the item's last error is the log's, for a sale not in the list.
      reason: sale?.reason ? plainReason(sale.reason) : queueErrorWords(item),
    })
  }
  if (s.queueItemsLoaded) {
    for (const sale of Object.values(s.sales)) {
      if (sale.state !== 'needsAttention' || parked.has(sale.id)) continue
      // Only a payment stored offline can be declined when it is sent later.
      const declinedStored = sale.offline
      cases.push({
        saleId: sale.id,
        action: declinedStored ? 'acknowledge' : 'none',
        what: declinedStored ? 'Stored payment declined by the bank' : 'Not finished with the bank',
        amountMinor: sale.amountMinor,
        currency: sale.currency,
        card: cardText(sale),
        at: sale.createdAt,
        reason: plainOrNull(sale.reason),
      })
    }
  }
  return cases.sort((a, b) => a.at - b.at || a.saleId.localeCompare(b.saleId))
}

/** Sales the queue status counts as needing a manager that the list cannot show (an earlier day's). */
export function unlistedAttentionCount(s: Pick<PosState, 'queue' | 'queueItemsLoaded'>, listed: number): number {
  if (!s.queue || !s.queueItemsLoaded) return 0
  return Math.max(0, s.queue.attentionCount - listed)
}

export function itemTimeLeftMs(s: Pick<PosState, 'queueItemsAt'>, item: QueueItemView, now: number): number {
  return Math.max(0, item.expiresInMs - Math.max(0, now - s.queueItemsAt))
}
