/**
 * Contact EMV after 02-40 found a chip (docs/neo2-protocol.md §4; IDG p.160, p.185, p.189;
 * docs/device-protocol.md §7 D7.6-D7.9):
 * 1. 60-11 Authenticate (ODA, restrictions, CVM, risk management, 1st GENERATE AC): result code
 *    0004 "go online" with the ARQC data → the card is read; 0000 approved offline; 0001 declined.
 * 2. completeCard: 60-12 Apply Host Response with 8A/91/71/72 (2nd GENERATE AC) → TC approved,
 *    AAC declined, with the card's final cryptogram and the final 8A (docs/card-reader.md §2.5).
 *    The reader then asks the customer to remove the card.
 */
import type { CardCompletion, CardDecision, HostAnswerForCard, ReadCardRequest, ReadCardResult } from '../card-reader'
import { buildIcCardData, withCompletion } from '../card-data/ic-card-data'
import { encodeTlv, findTlv } from '../card-data/tlv'
import type { Tlv } from '../card-data/tlv'
import { COMPLETION_TAGS } from '../card-data/tlv-dictionary'
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

/**
 * The authorisation response codes the terminal sets itself when the host did not decide (EMV 4.4
 * Book 4 Annex A6): Y1 approved offline at the first GENERATE AC; Y3 / Z3 unable to go online, then
 * approved (TC) / declined (AAC) by the card.
 */
const TERMINAL_RESPONSE_CODES = { offlineApproved: 'Y1', unableToGoOnlineApproved: 'Y3', unableToGoOnlineDeclined: 'Z3' } as const

/** The card's final decision for a chip sale, with its final cryptogram data; `none` when no contact transaction is open. */
export async function completeContact(ctx: FlowContext, session: SaleSession, answer: HostAnswerForCard): Promise<CardCompletion> {
  if (!session.emvOpen) return { decision: 'none' }
  if (session.offlineDecision) {
    session.emvOpen = false
    // The TC came with the read (60-11); only the response code is the terminal's to add.
    return { decision: session.offlineDecision, icCardData: responseCodeTlv(TERMINAL_RESPONSE_CODES.offlineApproved) }
  }
  ctx.emit({ type: 'processing' })
  const frame = await ctx.channel.send(applyHostResponseRequest(answer, ctx.timeouts))
  if (frame.status !== 0x00) throw new Neo2StatusError(frame.status, CONTACT)
  const result = parseContactResult(frame.data)
  const decision = cardDecisionOf(result)
  session.emvOpen = false
  ctx.emit({ type: 'removeCard' })
  const finalCode = finalResponseCode(answer, decision, result.tlvs)
  return { decision, icCardData: withCompletion(buildIcCardData(result.tlvs, { tags: COMPLETION_TAGS }), responseCodeTlv(finalCode)) }
}

/**
 * 8A as the forwarded message carries it: after "unable to go online" the terminal's own code for
 * what the card decided (Annex A6); after a host answer, the code the card echoed, else the host's.
 */
function finalResponseCode(answer: HostAnswerForCard, decision: CardDecision, output: readonly Tlv[]): string {
  if (answer.result === 'unableToGoOnline')
    return decision === 'approved' ? TERMINAL_RESPONSE_CODES.unableToGoOnlineApproved : TERMINAL_RESPONSE_CODES.unableToGoOnlineDeclined
  return findTlv(output, '8A')?.value.toString('latin1') ?? answer.authorizationResponseCode
}

function responseCodeTlv(code: string): string {
  return encodeTlv([{ tag: '8A', value: Buffer.from(code, 'latin1') }])
    .toString('hex')
    .toUpperCase()
}
