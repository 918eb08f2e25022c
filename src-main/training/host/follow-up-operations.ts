/**
 * Operations on an earlier payment that carry their own merchantTransInfo: cancel, tips, capture
 * (docs/gateway.md §D2, §D3). Each answers S0000 with its record's status Success or Failed, plus
 * the original `payment` as it now stands when the host knows it.
 *
 * Cancel  - unknown original: Failed B0040 (contract). Authorised or Captured: Success, payment
 *           Cancelled. Declined, cancelled or reversed original: Failed B0041 (nothing to void). When
 *           the cancel carries readable card data whose first6/last4 differ from the payment's:
 *           Failed B0044 (the cashier presented another card).
 * Tips    - the path id may be the payment's or its capture's (docs/gateway.md §1).
 *           Unknown: Failed B0040. Not Authorised/Captured: Failed B0041 (contract). Another
 *           currency than the payment's: Failed B0044. Otherwise Success and the tip replaces any
 *           earlier one; a zero tip removes it.
 * Capture - unknown: Failed B0040. Not Authorised (already captured, declined, cancelled,
 *           reversed): Failed B0041. transAmount not exactly base + current tip in the payment's
 *           currency: Failed B0044 (docs/gateway.md §D3 "Capture"). Otherwise Success, Captured.
 */
import { formatAmount, parseAmount } from '../../../src-shared/money'
import type { CaptureBody, OfflineCancelBody, TipsBody } from '../../gateway'
import { isCardReadProblem, readCard, summarizeCard } from './card-rules'
import { stateKey, type Failure, type HostState, type PaymentState } from './host-state'
import { hostFailure, merchantTransInfoOf, paymentRecord, record, rejected, successResult, type Body, type Handled } from './records'

type FollowUp = 'cancel' | 'tips' | 'capture'

const isOpen = (p: PaymentState): boolean => p.status === 'Authorised' || p.status === 'Captured'

export function handleCancel(state: HostState, aid: string, originalId: string, body: OfflineCancelBody, now: Date): Handled {
  const original = state.payments.get(stateKey(aid, originalId))
  const info = body.paymentMethod.card.cardInfo
  const card = info?.track2 || info?.cardNumber || info?.track1 ? readCard(info) : undefined
  if (card && isCardReadProblem(card)) return rejected(card.message)
  let failure: Failure | undefined
  if (!original) failure = hostFailure('notFound')
  else if (!isOpen(original)) failure = hostFailure('notAllowed', `payment is ${original.status}`)
  else if (card) {
    const presented = summarizeCard(card.pan)
    if (presented.first6No !== original.card.first6No || presented.last4No !== original.card.last4No)
      failure = hostFailure('mismatch', 'another card')
  }
  if (!failure && original) original.status = 'Cancelled'
  return answer(state, 'cancel', { aid, originalId, body, now, original, failure })
}

export function handleTips(state: HostState, aid: string, originalId: string, body: TipsBody, now: Date): Handled {
  const original = state.findPayment(aid, originalId)
  const tipMinor = parseAmount(body.transAmount.value, body.transAmount.currency)
  let failure: Failure | undefined
  if (!original) failure = hostFailure('notFound')
  else if (!isOpen(original)) failure = hostFailure('notAllowed', `payment is ${original.status}`)
  else if (body.transAmount.currency !== original.transAmount.currency) {
    failure = hostFailure('mismatch', `tip in ${body.transAmount.currency}, payment in ${original.transAmount.currency}`)
  }
  if (!failure && original) {
    if (tipMinor === 0) delete original.tip
    else original.tip = { amount: { currency: body.transAmount.currency, value: body.transAmount.value }, minor: tipMinor }
  }
  return answer(state, 'tips', { aid, originalId, body, now, original, failure, amount: body.transAmount })
}

export function handleCapture(state: HostState, aid: string, originalId: string, body: CaptureBody, now: Date): Handled {
  const original = state.payments.get(stateKey(aid, originalId))
  const amountMinor = parseAmount(body.transAmount.value, body.transAmount.currency)
  let failure: Failure | undefined
  if (!original) failure = hostFailure('notFound')
  else if (original.status !== 'Authorised') failure = hostFailure('notAllowed', `payment is ${original.status}`)
  else {
    const expected = original.amountMinor + (original.tip?.minor ?? 0)
    const { currency } = original.transAmount
    if (body.transAmount.currency !== currency || amountMinor !== expected) {
      failure = hostFailure(
        'mismatch',
        `capture ${body.transAmount.currency} ${body.transAmount.value}, expected base plus tip ${currency} ${formatAmount(expected, currency)}`,
      )
    }
  }
  if (!failure && original) original.status = 'Captured'
  return answer(state, 'capture', { aid, originalId, body, now, original, failure, amount: body.transAmount })
}

interface Outcome {
  aid: string
  originalId: string
  body: { merchantTransInfo: OfflineCancelBody['merchantTransInfo']; metadata?: string | undefined }
  now: Date
  original: PaymentState | undefined
  failure: Failure | undefined
  amount?: { currency: string; value: string }
}

function answer(state: HostState, operation: FollowUp, o: Outcome): Handled {
  const success = o.failure === undefined
  const status = success ? 'Success' : 'Failed'
  const svcTransInfo = state.ids.svcTransInfo(o.now)
  const amount = o.amount ? { currency: o.amount.currency, value: o.amount.value } : undefined
  const response: Body = {
    result: successResult(),
    [operation]: record({
      merchantTransInfo: merchantTransInfoOf(o.body.merchantTransInfo),
      svcTransInfo,
      pspTransInfo: state.ids.pspTransInfo(o.now, success),
      status,
      failure: o.failure,
      ...(amount ? { extra: { transAmount: amount } } : {}),
    }),
    ...(o.original ? { payment: paymentRecord(o.original) } : {}),
    ...(o.body.metadata !== undefined ? { metadata: o.body.metadata } : {}),
  }
  return {
    type: 'processed',
    response,
    entry: {
      aid: o.aid,
      operation,
      merchantTransID: o.body.merchantTransInfo.merchantTransID,
      originalMerchantTransID: o.originalId,
      ...(amount ? { amount } : {}),
      status,
      resultCode: 'S0000',
      svcTransID: svcTransInfo.svcTransID,
      ...(o.original ? { maskedPan: o.original.card.maskedPan } : {}),
    },
    payment: o.original,
    paymentId: o.original?.merchantTransInfo.merchantTransID,
  }
}
