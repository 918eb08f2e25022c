/**
 * What the sale flows share: the reader's settings and ports (`FlowContext`), the state of one sale on
 * the device (`SaleSession`), and the last step of every read: take the online PIN if needed,
 * announce the masked card, return CardData.
 */
import type { CardData, DeviceEvent, EncryptedPin, ReadCardResult } from '../card-reader'
import type { ReaderCapabilities, ReadMethod } from '../card-data/entry-mode'
import type { CardContext } from './neo2-card-data'
import type { Neo2Channel } from './neo2-channel'
import type { PinRequest } from './neo2-pin'
import { parsePinAnswer } from './neo2-pin'
import type { PinAnswer } from './neo2-pin'
import type { Neo2Timeouts } from './neo2-requests'
import { getPinRequest } from './neo2-requests'
import { Neo2StatusError } from './neo2-status'
import { NEO2_COMMANDS } from './neo2-commands'

export interface FlowContext {
  channel: Neo2Channel
  emit(event: DeviceEvent): void
  capabilities: ReaderCapabilities
  /** Magstripe fallback after a failed chip read (docs/device-protocol.md D5.4). */
  fallbackAllowed: boolean
  timeouts: Neo2Timeouts
  /** DFEF3C: how long the reader keeps a contact transaction open waiting for 60-11/60-12. */
  nextCommandTimeoutSeconds: number
  pinRequest: PinRequest
  icCardDataTags?: readonly string[]
  now(): Date
}

export interface SaleSession {
  purpose: 'purchase' | 'void'
  /** reading: readCard runs; awaitingHost: a chip card waits for completeCard; completing: 60-12 runs. */
  phase: 'reading' | 'awaitingHost' | 'completing'
  cancelRequested: boolean
  /** A 05-01 already went out for this sale: no clean-up cancel needed. */
  cancelSent: boolean
  chipReadFailed: boolean
  /** The contact EMV transaction is open on the reader (after 02-40 read a chip, until 60-12). */
  emvOpen: boolean
  /** 60-11 already decided (approved offline): completeCard returns it without 60-12. */
  offlineDecision?: 'approved'
  /** Set when the link dropped or the reader restarted during the sale. */
  lost?: Error
  /** While waiting for a card: when the wait ends (epoch ms), the prompt shown, and extensions granted. */
  cardWait?: { expiresAt: number; prompt: string; extensions: number; waiting: boolean }
}

export function newSession(purpose: 'purchase' | 'void'): SaleSession {
  return { purpose, phase: 'reading', cancelRequested: false, cancelSent: false, chipReadFailed: false, emvOpen: false }
}

/** The CardData context of this reader, with the PIN once entered. */
export function cardContext(ctx: FlowContext, pin?: EncryptedPin): CardContext {
  return {
    capabilities: ctx.capabilities,
    now: ctx.now(),
    ...(ctx.icCardDataTags ? { icCardDataTags: ctx.icCardDataTags } : {}),
    ...(pin ? { pin } : {}),
  }
}

/** 62-01: enter PIN on the pad; resolves with the encrypted PIN or who cancelled. */
export async function takePin(ctx: FlowContext, session: SaleSession): Promise<PinAnswer> {
  const request = getPinRequest(ctx.pinRequest, ctx.timeouts, () => ctx.emit({ type: 'enterPin' }))
  const frame = await ctx.channel.send({ ...request, abandonIf: () => session.cancelRequested })
  if ((frame.status !== 0x00 && frame.status !== 0x0a) || frame.data.length === 0)
    throw new Neo2StatusError(frame.status, NEO2_COMMANDS.getEncryptedPin.command)
  const answer = parsePinAnswer(frame.data)
  if (answer.kind === 'pin') ctx.emit({ type: 'pinEntered' })
  return answer
}

/**
 * Builds the card (validating it), announces it masked, takes the online PIN when wanted and the
 * reader has a PIN pad, and builds it again with the PIN.
 */
export async function finishRead(
  ctx: FlowContext,
  session: SaleSession,
  method: ReadMethod,
  wantsPin: boolean,
  build: (pin?: EncryptedPin) => CardData,
): Promise<ReadCardResult> {
  let card = build()
  ctx.emit({ type: 'cardRead', maskedPan: card.summary.maskedPan, method })
  if (wantsPin && ctx.capabilities.pinPad) {
    const answer = await takePin(ctx, session)
    if (answer.kind === 'cancelled') return { kind: 'cancelled' }
    card = build(answer.pin)
  }
  return { kind: 'card', card }
}
