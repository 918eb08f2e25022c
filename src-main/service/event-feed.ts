/**
 * The service's live events, from the engine's own: each sale change (with its journal position), the
 * queue (also when the store copy’s class changes), a queued message that needs a manager (an alarm in a manager's words; the technical detail
 * to the log), and the reader's prompts. Returns how to stop listening.
 */
import type { AlarmView, PosEvent, QueueStatusView, SaleView } from '../../src-shared/contract'
import { QUEUE_FAILURE_WORDS, QUEUE_OPERATION_NOUNS, type QueueOperation } from '../../src-shared/sale'
import type { QueueAttention } from '../txn'
import type { SaleEvents } from './sale-events'
import type { ServiceDeps } from './service-parts'

/**
 * The alarm a queued message needing a manager raises stays standing while any waits: a window opened
 * or reloaded after the live alarm went out reads it here (appInfo, a stream's snapshot), and it is
 * over once the last such message was handled (the queue's attention count back to 0).
 */
export function standingAlarms(engineAlarms: readonly AlarmView[], queue: QueueStatusView): AlarmView[] {
  if (queue.attentionCount === 0) return [...engineAlarms]
  const waiting = queue.attentionCount === 1 ? 'A queued message needs' : `${queue.attentionCount} queued messages need`
  return [...engineAlarms, { code: 'NEEDS_ATTENTION', message: `${waiting} a manager: see the Queue screen.` }]
}

export function feedEvents(
  deps: ServiceDeps,
  saleEvents: SaleEvents,
  queueStatus: () => QueueStatusView,
  emit: (event: PosEvent) => void,
): Array<() => void> {
  const unsubscribe: Array<() => void> = []
  const { engine, logger, reader } = deps
  const onSale = (update: { sale: SaleView }) => emit(saleEvents.sale(update.sale))
  engine.txn.on('update', onSale)
  unsubscribe.push(() => engine.txn.off('update', onSale))
  const onQueue = () => emit({ type: 'queue', queue: queueStatus() })
  engine.forwarder.on('status', onQueue)
  unsubscribe.push(() => engine.forwarder.off('status', onQueue))
  // The store copy's class is part of the queue's status: a new class is a new status at once.
  if (engine.onStoreCopy) unsubscribe.push(engine.onStoreCopy(onQueue))
  // A queued message past its limits is an alarm for the manager, on top of the sale's own state.
  // Its message is in a manager's words; the technical detail goes to the log.
  const onAttention = (item: { operation: QueueOperation; saleId: string }, why: QueueAttention) => {
    logger.warn(
      { sale: item.saleId, operation: item.operation, failure: why.failure, detail: why.detail },
      'queued message needs a manager',
    )
    const message = `The ${QUEUE_OPERATION_NOUNS[item.operation]} of sale ${item.saleId} needs a manager. ${QUEUE_FAILURE_WORDS[why.failure]}`
    emit(saleEvents.alarm({ code: 'NEEDS_ATTENTION', message }, item.saleId))
  }
  engine.forwarder.on('attention', onAttention)
  unsubscribe.push(() => engine.forwarder.off('attention', onAttention))
  unsubscribe.push(reader.onEvent((prompt) => emit(saleEvents.device(prompt))))
  // An alarm the engine raises after start (a check at idle found the journal or its audit trail altered).
  if (engine.onAlarm) unsubscribe.push(engine.onAlarm((alarm) => emit({ type: 'alarm', alarm })))
  return unsubscribe
}
