/**
 * A live PosEvent → the state change it causes. Pure: the store's `receive` applies it, and tests
 * call it directly.
 */
import type { PosEvent } from '../../../src-shared/contract'
import { upsertAlarm } from './app-slice'
import { adoptRunningSale } from './counter-sale'
import { upsertSale } from './sale-records'
import type { PosState } from './store-types'

export function applyEvent(state: PosState, event: PosEvent, now: number): Partial<PosState> {
  switch (event.type) {
    case 'sale': {
      const sales = upsertSale(state.sales, event.sale)
      if (sales === state.sales) return {}
      return { sales, ...adoptRunningSale({ ...state, sales }, event.sale) }
    }
    case 'queue':
      return { queue: event.queue, queueAt: now }
    case 'alarm':
      return { alarms: upsertAlarm(state.alarms, event.alarm) }
    case 'device': {
      const prompt = event.prompt
      if (prompt.type !== 'connection') return { prompt, promptSaleId: event.saleId ?? null }
      return {
        device: {
          link: prompt.state,
          busy: prompt.state === 'connected' ? state.device.busy : false,
          ...(prompt.port !== undefined ? { port: prompt.port } : state.device.port !== undefined ? { port: state.device.port } : {}),
        },
      }
    }
  }
}

/** The queue changed in a way the item list shows: fetch the items again. */
export function queueItemsStale(before: PosState, after: PosState): boolean {
  if (!after.queueItemsLoaded || !after.queue) return false
  const previous = before.queue
  return (
    !previous ||
    previous.count !== after.queue.count ||
    previous.attentionCount !== after.queue.attentionCount ||
    previous.lockedCount !== after.queue.lockedCount
  )
}
