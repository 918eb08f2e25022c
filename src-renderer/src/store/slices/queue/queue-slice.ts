/**
 * The store-and-forward queue: status (pushed by `queue` events), waiting items, forward now, and what
 * a manager does for a sale that needs one: retry its parked message, or take note that a stored
 * payment the bank declined will not be paid.
 */
import type { QueueItemView, QueueStatusView } from '../../../../../src-shared/contract'
import { describeError } from '../../error-words'
import { alarmsWithQueue, forwardingNotice } from './queue-words'
import { upsertSale } from '../../sale-records'
import type { Notice, SliceCreator } from '../../store-types'

export interface QueueSlice {
  queue: QueueStatusView | null
  /** Local time the status arrived: its `oldestExpiresInMs` counts down from here. */
  queueAt: number
  queueItems: QueueItemView[]
  queueItemsAt: number
  /** Items are fetched once the queue screen asks; after that, queue events keep them fresh. */
  queueItemsLoaded: boolean
  forwarding: boolean
  /** Sale ids whose retry is on its way. */
  retrying: Readonly<Record<string, true>>
  /** Sale ids whose acknowledgement (money not received) is on its way. */
  acknowledging: Readonly<Record<string, true>>
  queueNotice: Notice | null
  /** The queue as it stood when the notice was written (queueShape): once the queue moves on, the notice is old news. */
  queueNoticeFor: string | null
  /** Forgets the notice (the cashier left the Queue screen). */
  dismissQueueNotice(): void
  refreshQueue(): Promise<void>
  refreshQueueItems(): Promise<void>
  forwardNow(): Promise<void>
  /** `label` names the sale in the notice, in words ("USD 42.00 at 10:15"). */
  retryAttention(saleId: string, label?: string): Promise<void>
  /** A manager takes note that a stored payment the bank declined will not be paid. */
  acknowledgeAttention(saleId: string, label?: string): Promise<void>
}

/** What a queue notice speaks of: how many wait, how many need a manager, whether the bank answers. */
export function queueShape(queue: QueueStatusView | null): string {
  return queue ? `${queue.count}|${queue.attentionCount}|${queue.hostReachable ?? '?'}` : ''
}

/** The queue notice while it is still true of the queue; null once the queue moved on since it was written. */
export function currentQueueNotice(s: Pick<QueueSlice, 'queueNotice' | 'queueNoticeFor' | 'queue'>): Notice | null {
  if (!s.queueNotice || s.queueNoticeFor === null) return s.queueNotice
  return s.queueNoticeFor === queueShape(s.queue) ? s.queueNotice : null
}

function withoutId(ids: Readonly<Record<string, true>>, saleId: string): Readonly<Record<string, true>> {
  const { [saleId]: _done, ...rest } = ids
  return rest
}

export const createQueueSlice: SliceCreator<QueueSlice> =
  ({ bridge, now }) =>
  (set, get) => {
    /** After a manager acted: the list, the status and the day's sales, fresh from the agent. */
    const refreshAfterManager = async (): Promise<void> => {
      const s = get()
      await Promise.all([s.refreshQueue(), s.refreshQueueItems(), s.refreshSales()])
    }
    return {
      queue: null,
      queueAt: 0,
      queueItems: [],
      queueItemsAt: 0,
      queueItemsLoaded: false,
      forwarding: false,
      retrying: {},
      acknowledging: {},
      queueNotice: null,
      queueNoticeFor: null,

      dismissQueueNotice() {
        set({ queueNotice: null, queueNoticeFor: null })
      },

      async refreshQueue() {
        const result = await bridge.call('queueStatus', {})
        if (result.ok) set((s) => ({ queue: result.value, queueAt: now(), alarms: alarmsWithQueue(s.alarms, result.value) }))
      },

      async refreshQueueItems() {
        const result = await bridge.call('queueItems', {})
        if (result.ok) set({ queueItems: result.value, queueItemsAt: now(), queueItemsLoaded: true })
        else set({ queueNotice: { tone: 'error', text: describeError(result.error) } })
      },

      async forwardNow() {
        if (get().forwarding) return
        set({ forwarding: true, queueNotice: null, queueNoticeFor: null })
        const before = get().queue
        const result = await bridge.call('forwardNow', {})
        if (result.ok) {
          set((s) => ({
            forwarding: false,
            queue: result.value,
            queueAt: now(),
            alarms: alarmsWithQueue(s.alarms, result.value),
            queueNotice: forwardingNotice(before, result.value),
          }))
        } else {
          set({ forwarding: false, queueNotice: { tone: 'error', text: `Forwarding failed: ${describeError(result.error)}` } })
        }
        await get().refreshQueueItems()
        set((s) => ({ queueNoticeFor: queueShape(s.queue) }))
      },

      async retryAttention(saleId, label = `the sale ${saleId}`) {
        if (get().retrying[saleId]) return
        set((s) => ({ retrying: { ...s.retrying, [saleId]: true }, queueNotice: null, queueNoticeFor: null }))
        const result = await bridge.call('retryAttention', { id: saleId })
        set((s) => {
          const retrying = withoutId(s.retrying, saleId)
          return result.ok
            ? {
                retrying,
                sales: upsertSale(s.sales, result.value),
                queueNotice: { tone: 'ok', text: `Sent again: ${label} is back in the queue.` },
              }
            : { retrying, queueNotice: { tone: 'error', text: `Retry of ${label} failed: ${describeError(result.error)}` } }
        })
        await refreshAfterManager()
        set((s) => ({ queueNoticeFor: queueShape(s.queue) }))
      },

      async acknowledgeAttention(saleId, label = `the sale ${saleId}`) {
        if (get().acknowledging[saleId]) return
        set((s) => ({ acknowledging: { ...s.acknowledging, [saleId]: true }, queueNotice: null, queueNoticeFor: null }))
        const result = await bridge.call('acknowledgeAttention', { id: saleId })
        set((s) => {
          const acknowledging = withoutId(s.acknowledging, saleId)
          return result.ok
            ? {
                acknowledging,
                sales: upsertSale(s.sales, result.value),
                queueNotice: { tone: 'ok', text: `Recorded: the money for ${label} was not received.` },
              }
            : {
                acknowledging,
                queueNotice: { tone: 'error', text: `Could not record ${label} as not received: ${describeError(result.error)}` },
              }
        })
        await refreshAfterManager()
        set((s) => ({ queueNoticeFor: queueShape(s.queue) }))
      },
    }
  }
