/**
 * svc.offline.payment (docs/gateway.md §4; §D2, §D4).
 *
 * Approved: status `Authorised` (autoCapture false) or `Captured` (autoCapture true), with a
 * 6-character authorizationCode. Declined by the §4 rules: status `Failed`, failureCode B0050 and
 * the ISO 8583 code in pspFailureCode. Decisions of the training host beyond the contract:
 * - a zero amount is a validation failure (V0008 transAmount.value): there is nothing to authorise;
 * - card data the host cannot read (a malformed track, or encryptedCardInfo only) is V0008 on that
 *   field, nothing recorded;
 * - a payment whose merchantTransID was reversed before the payment arrived (the reversal overtook
 *   it) is `Failed` with B0042: a reversal must never be undone by a late original.
 */
import { parseAmount } from '../../../src-shared/money'
import type { OfflinePaymentBody } from '../../gateway'
import { decide, isCardReadProblem, readCard, summarizeCard, type Decision } from './card-rules'
import { stateKey, type Failure, type HostState, type PaymentState, type PaymentStatus } from './host-state'
import { HOST_FAILURES, hostFailure, merchantTransInfoOf, record, rejected, successResult, type Body, type Handled } from './records'

export function handlePayment(state: HostState, aid: string, body: OfflinePaymentBody, now: Date): Handled {
  const amountMinor = parseAmount(body.transAmount.value, body.transAmount.currency)
  if (amountMinor === 0) return rejected('transAmount.value must be greater than zero')
  const card = readCard(body.paymentMethod.card.cardInfo)
  if (isCardReadProblem(card)) return rejected(card.message)

  const id = body.merchantTransInfo.merchantTransID
  const reversedFirst = state.reversals.has(stateKey(aid, id))
  const decision: Decision = reversedFirst ? { approved: true } : decide(amountMinor, card, now)
  const approved = decision.approved && !reversedFirst
  let failure: Failure | undefined
  if (reversedFirst) failure = hostFailure('reversedFirst')
  else if (!decision.approved) {
    failure = {
      failureCode: HOST_FAILURES.issuerDecline.code,
      failureReason: HOST_FAILURES.issuerDecline.reason,
      pspFailureCode: decision.pspFailureCode,
      pspFailureReason: decision.pspFailureReason,
    }
  }
  const status: PaymentStatus = approved ? (body.autoCapture ? 'Captured' : 'Authorised') : 'Failed'
  const summary = summarizeCard(card.pan)
  const chipData = body.paymentMethod.card.cardInfo?.icCardData
  const payment: PaymentState = {
    aid,
    merchantTransInfo: merchantTransInfoOf(body.merchantTransInfo),
    transAmount: { currency: body.transAmount.currency, value: body.transAmount.value },
    amountMinor,
    card: summary,
    svcTransInfo: state.ids.svcTransInfo(now),
    pspTransInfo: state.ids.pspTransInfo(now, approved),
    status,
    ...(failure ? { failure } : {}),
  }
  state.payments.set(stateKey(aid, id), payment)

  const psp = approved
    ? { code: '00', message: 'Approved' }
    : decision.approved
      ? undefined
      : { code: decision.pspFailureCode, message: decision.pspFailureReason }
  const response: Body = {
    result: successResult(psp),
    payment: record({
      merchantTransInfo: payment.merchantTransInfo,
      svcTransInfo: payment.svcTransInfo,
      pspTransInfo: payment.pspTransInfo,
      status,
      failure,
      extra: { transAmount: payment.transAmount },
    }),
    paymentMethod: {
      type: 'card',
      card: { first6No: summary.first6No, last4No: summary.last4No, paymentBrand: summary.paymentBrand, fundingType: summary.fundingType },
    },
    // docs/gateway.md §4: metadata is echoed back.
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  }
  return {
    type: 'processed',
    response,
    entry: {
      aid,
      operation: 'payment',
      merchantTransID: id,
      amount: payment.transAmount,
      status,
      resultCode: 'S0000',
      svcTransID: payment.svcTransInfo.svcTransID,
      maskedPan: summary.maskedPan,
      ...(chipData !== undefined ? { icCardData: chipData } : {}),
    },
    payment,
    paymentId: id,
  }
}
