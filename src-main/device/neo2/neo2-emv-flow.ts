/**
 * Contact EMV after 02-40 found a chip (docs/neo2-protocol.md §4; IDG p.160, p.185, p.189;
 * docs/device-protocol.md §7 D7.6-D7.9):
 * 1. 60-11 Authenticate (ODA, restrictions, CVM, risk management, 1st GENERATE AC): result code
 *    0004 "go online" with the ARQC data → the card is read; 0000 approved offline; 0001 declined.
 * 2. completeCard: 60-12 Apply Host Response with 8A/91/71/72 (2nd GENERATE AC) → TC approved,
 *    AAC declined. The reader then asks the customer to remove the card.
 */
import type { CardDecision, HostAnswerForCard, ReadCardRequest, ReadCardResult } from '../card-reader'
import { NEO2_COMMANDS } from './neo2-commands'
import { chipCardData } from './neo2-card-data'
import { cardDecisionOf, cardWantsOnlinePin, EMV_RESULT_CODES, parseContactResult } from './neo2-responses'
import type { TransactionData } from './neo2-responses'
import { applyHostResponseRequest, authenticateRequest } from './neo2-requests'
import type { FlowContext, SaleSession } from './neo2-session'
import { cardContext, finishRead } from './neo2-session'
import { Neo2StatusError } from './neo2-status'
import { ReaderError } from '../reader-error'

const CONTACT = NEO2_COMMANDS.contactAuthenticate.command

/** Reads a contact chip to its ARQC (or offline decision) and, if needed, takes the online PIN. */
export async function contactRead(
  ctx: FlowContext,
  session: SaleSession,
  request: ReadCardRequest,
  first: TransactionData,
): Promise<ReadCardResult> {
  session.emvOpen = true
  ctx.emit({ type: 'processing' })
  const frame = await ctx.channel.send({ ...authenticateRequest(ctx.timeouts), abandonIf: () => session.cancelRequested })
  if (session.cancelRequested) return { kind: 'cancelled' }
  if (frame.status !== 0x00) throw new Neo2StatusError(frame.status, CONTACT)
  const result = parseContactResult(frame.data)
  switch (result.resultCode) {
    case EMV_RESULT_CODES.goOnline:
      break
    case EMV_RESULT_CODES.approvedOffline:
      session.offlineDecision = 'approved'
      break
    case EMV_RESULT_CODES.declinedOffline:
    case EMV_RESULT_CODES.declined:
      throw new ReaderError('cardDeclinedOffline')
    default:
      throw new ReaderError('unreadableCardData', `contact result 0x${result.resultCode.toString(16).padStart(4, '0')}`)
  }
  // The 60-11 values are newer (TVR, CVM results after CVM processing): they come first, and
  // buildIcCardData keeps the first occurrence of a tag.
  const tlvs = [...result.tlvs, ...first.tlvs]
  const wantsPin = request.forceOnlinePin === true || cardWantsOnlinePin(tlvs)
  return finishRead(ctx, session, 'chip', wantsPin, (pin) => chipCardData('chip', tlvs, cardContext(ctx, pin)))
}

/** The card's final decision for a chip sale; `none` when no contact transaction is open. */
export async function completeContact(ctx: FlowContext, session: SaleSession, answer: HostAnswerForCard): Promise<CardDecision> {
  if (!session.emvOpen) return 'none'
  if (session.offlineDecision) {
    session.emvOpen = false
    return session.offlineDecision
  }
  ctx.emit({ type: 'processing' })
  const frame = await ctx.channel.send(applyHostResponseRequest(answer, ctx.timeouts))
  if (frame.status !== 0x00) throw new Neo2StatusError(frame.status, CONTACT)
  const decision = cardDecisionOf(parseContactResult(frame.data))
  session.emvOpen = false
  ctx.emit({ type: 'removeCard' })
  return decision
}
