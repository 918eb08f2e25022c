/**
 * svc.offline.reversal (docs/gateway.md §D3 "Reversal"): idempotent, never Failed, so the agent can
 * repeat it until acknowledged and then stop.
 *
 * - Authorised or Captured payment: status becomes Reversed (the training host never settles).
 * - Unknown original: Success without `payment`; the id is remembered, and a payment arriving
 *   later under it is Failed B0042 (payment-operation.ts).
 * - Already reversed, cancelled or declined: Success, nothing changes.
 * - Every repeat returns the first reversal record (same svcTransID) with the payment as it is now.
 *
 * A reversal has no merchantTransInfo of its own; its record carries the original's.
 */
import type { OfflineReversalBody } from '../../gateway'
import { stateKey, type HostState } from './host-state'
import { paymentRecord, record, successResult, type Body, type Handled } from './records'

export function handleReversal(state: HostState, aid: string, originalId: string, body: OfflineReversalBody, now: Date): Handled {
  const key = stateKey(aid, originalId)
  const original = state.payments.get(key)
  let first = state.reversals.get(key)
  const replayed = first !== undefined
  if (first === undefined) {
    if (original && (original.status === 'Authorised' || original.status === 'Captured')) original.status = 'Reversed'
    const svcTransInfo = state.ids.svcTransInfo(now)
    first = {
      svcTransID: svcTransInfo.svcTransID,
      record: record({
        merchantTransInfo: original?.merchantTransInfo ?? { merchantTransID: originalId },
        svcTransInfo,
        pspTransInfo: state.ids.pspTransInfo(now, true),
        status: 'Success',
      }),
    }
    state.reversals.set(key, first)
  }
  const response: Body = {
    result: successResult(),
    reversal: first.record,
    ...(original ? { payment: paymentRecord(original) } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  }
  return {
    type: 'processed',
    response,
    entry: {
      aid,
      operation: 'reversal',
      merchantTransID: originalId,
      originalMerchantTransID: originalId,
      status: 'Success',
      resultCode: 'S0000',
      svcTransID: first.svcTransID,
      ...(original ? { maskedPan: original.card.maskedPan } : {}),
      ...(replayed ? { replayed: true as const } : {}),
    },
    payment: original,
    paymentId: original ? originalId : undefined,
  }
}
