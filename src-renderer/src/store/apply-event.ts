/**
 * A live PosEvent → the state change it causes. Pure: the store's `receive` applies it, and tests
 * call it directly.
 */
import type { PosEvent, QueueStatusView, SaleView } from '../../../src-shared/contract'
import { bankUnreachable, COUNTER_BUSY } from '../../../src-shared/sale'
import { upsertAlarm } from './slices/app/app-slice'
import { alarmsWithQueue } from './slices/queue/queue-words'
import { adoptRunningSale } from './counter-sale'
import { upsertSale } from './sale-records'
import type { PosState } from './store-types'

export function applyEvent(state: PosState, event: PosEvent, now: number): Partial<PosState> {
  switch (event.type) {
    case 'sale': {
      const sales = upsertSale(state.sales, event.sale)
      if (sales === state.sales) return {}
      const queue = queueAfterSale(state.queue, event.sale)
      // A sale at the counter is what the customer reads from now on: an amount checked before it is done with.
      const checked = state.amountCheck !== null && COUNTER_BUSY.has(event.sale.state) ? { amountCheck: null } : {}
      return {
        sales,
        ...adoptRunningSale({ ...state, sales }, event.sale),
        ...(queue !== state.queue ? { queue } : {}),
        ...checked,
      }
    }
    case 'queue': {
      const alarms = alarmsWithQueue(state.alarms, event.queue)
      return { queue: event.queue, queueAt: now, ...(alarms !== state.alarms ? { alarms } : {}) }
    }
    case 'alarm':
      return { alarms: upsertAlarm(state.alarms, event.alarm) }
    case 'amountCheck':
      return { amountCheck: event.amount }
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

/**
 * What a sale's outcome says about the bank, newer than the queue's last attempt: an online answer
 * (approved, or declined by the bank) means it was reached just now; a payment stored offline means it
 * was not. The header's bank badge must not say "offline" beside an online approval.
 */
export function queueAfterSale(queue: QueueStatusView | null, sale: SaleView): QueueStatusView | null {
  if (!queue || sale.kind === 'return') return queue
  const answered = sale.state === 'approved' || sale.state === 'declined'
  // A sale "declined" offline was refused because the bank could not be reached (sale-words: bankUnreachable).
  const reachable = answered && !sale.offline ? true : sale.state === 'storedOffline' || bankUnreachable(sale) ? false : undefined
  if (reachable === undefined || queue.hostReachable === reachable) return queue
  return { ...queue, hostReachable: reachable }
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
