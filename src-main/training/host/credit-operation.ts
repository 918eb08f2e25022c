/**
 * svc.e-commerce.merchandiseCredit (host-contract §3 "MerchandiseCredit", §4): a return credited to the
 * card presented at the counter. Always `Success`, except for a card whose number fails the Luhn check
 * (`Failed`, pspFailureCode 14) or that has expired (54). The host does not link a credit to the
 * original payment (the terminal keeps that link and the "never more than was charged" rule); a
 * repeat of the same body gets the first answer again and a different body under a known id gets
 * B0031, both by the shared duplicate rule (process-operation.ts). Card data the host cannot read
 * (encryptedCardInfo only) is V0008 on the field, nothing recorded, as for a payment.
 */
import { parseAmount } from '../../../src-shared/money'
import type { MerchandiseCreditBody } from '../../gateway'
import { DECLINE_REASONS, isCardReadProblem, isExpired, luhnValid, readCard, summarizeCard, type DeclineCode } from './card-rules'
import type { Failure, HostState } from './host-state'
import { HOST_FAILURES, merchantTransInfoOf, record, rejected, successResult, type Body, type Handled } from './records'

export function handleMerchandiseCredit(state: HostState, aid: string, body: MerchandiseCreditBody, now: Date): Handled {
  const amountMinor = parseAmount(body.transAmount.value, body.transAmount.currency)
  if (amountMinor === 0) return rejected('transAmount.value must be greater than zero')
  if (body.paymentMethod === undefined) return rejected('paymentMethod is required for a credit to a card', 'V0007')
  const card = readCard(body.paymentMethod.card.cardInfo)
  if (isCardReadProblem(card)) return rejected(card.message)

  const decline: DeclineCode | undefined = !luhnValid(card.pan) ? '14' : isExpired(card.expiry, now) ? '54' : undefined
  const failure: Failure | undefined =
    decline === undefined
      ? undefined
      : {
          failureCode: HOST_FAILURES.issuerDecline.code,
          failureReason: HOST_FAILURES.issuerDecline.reason,
          pspFailureCode: decline,
          pspFailureReason: DECLINE_REASONS[decline],
        }
  const status = failure === undefined ? 'Success' : 'Failed'
  const summary = summarizeCard(card.pan)
  const svcTransInfo = state.ids.svcTransInfo(now)
  const transAmount = { currency: body.transAmount.currency, value: body.transAmount.value }
  const response: Body = {
    result: successResult(
      failure === undefined ? { code: '00', message: 'Approved' } : { code: decline!, message: DECLINE_REASONS[decline!] },
    ),
    merchandiseCredit: record({
      merchantTransInfo: merchantTransInfoOf(body.merchantTransInfo),
      svcTransInfo,
      pspTransInfo: state.ids.pspTransInfo(now, failure === undefined),
      status,
      failure,
      extra: { transAmount },
    }),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  }
  return {
    type: 'processed',
    response,
    entry: {
      aid,
      operation: 'merchandiseCredit',
      merchantTransID: body.merchantTransInfo.merchantTransID,
      ...originalNamedIn(body.metadata),
      amount: transAmount,
      status,
      resultCode: 'S0000',
      svcTransID: svcTransInfo.svcTransID,
      maskedPan: summary.maskedPan,
    },
  }
}

/**
 * The payment a credit names in its metadata (the terminal writes `originalMerchantTransID` there for
 * a referenced return): kept in the ledger so that a check can add credits up per payment. Only
 * recorded, never acted on: the host still does not link the two.
 */
function originalNamedIn(metadata: string | undefined): { originalMerchantTransID?: string } {
  if (metadata === undefined) return {}
  try {
    const named = (JSON.parse(metadata) as { originalMerchantTransID?: unknown } | null)?.originalMerchantTransID
    return typeof named === 'string' ? { originalMerchantTransID: named } : {}
  } catch {
    return {}
  }
}
