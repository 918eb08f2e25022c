/** The store-and-forward queue: status (pushed by `queue` events), waiting items, forward now, retry. */
import type { QueueItemView, QueueStatusView } from '../../../src-shared/contract'
import { describeError } from './error-words'
import { upsertSale } from './sale-records'
import type { Notice, SliceCreator } from './store-types'

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
  queueNotice: Notice | null
  refreshQueue(): Promise<void>
  refreshQueueItems(): Promise<void>
  forwardNow(): Promise<void>
  retryAttention(saleId: string): Promise<void>
}

export const createQueueSlice: SliceCreator<QueueSlice> =
  ({ bridge, now }) =>
  (set, get) => ({
    queue: null,
    queueAt: 0,
    queueItems: [],
    queueItemsAt: 0,
    queueItemsLoaded: false,
    forwarding: false,
    retrying: {},
    queueNotice: null,

    async refreshQueue() {
      const result = await bridge.call('queueStatus', {})
      if (result.ok) set({ queue: result.value, queueAt: now() })
    },

    async refreshQueueItems() {
      const result = await bridge.call('queueItems', {})
      if (result.ok) set({ queueItems: result.value, queueItemsAt: now(), queueItemsLoaded: true })
      else set({ queueNotice: { tone: 'error', text: describeError(result.error) } })
    },

    async forwardNow() {
      if (get().forwarding) return
      set({ forwarding: true, queueNotice: null })
      const result = await bridge.call('forwardNow', {})
      if (result.ok) {
        set({
          forwarding: false,
          queue: result.value,
          queueAt: now(),
          queueNotice: { tone: 'ok', text: `Forwarding done. ${result.value.count} left in the queue.` },
        })
      } else {
        set({ forwarding: false, queueNotice: { tone: 'error', text: `Forwarding failed: ${describeError(result.error)}` } })
      }
      await get().refreshQueueItems()
    },

    async retryAttention(saleId) {
      if (get().retrying[saleId]) return
      set((s) => ({ retrying: { ...s.retrying, [saleId]: true }, queueNotice: null }))
      const result = await bridge.call('retryAttention', { id: saleId })
      set((s) => {
        const { [saleId]: _done, ...retrying } = s.retrying
        return result.ok
          ? {
              retrying,
              sales: upsertSale(s.sales, result.value),
              queueNotice: { tone: 'ok', text: `Sale ${saleId} is back in the queue.` },
            }
          : { retrying, queueNotice: { tone: 'error', text: `Retry of sale ${saleId} failed: ${describeError(result.error)}` } }
      })
      await Promise.all([get().refreshQueue(), get().refreshQueueItems()])
    },
  })
