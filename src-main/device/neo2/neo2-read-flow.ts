/**
 * readCard on a NEO 2: 02-40 Activate Transaction until a usable card is read (docs/device-protocol.md
 * §7 D7.1-D7.5, D7.19-D7.21, D7.27, D5.4):
 * - 00/23 with card data → by read method: swipe (the chip-card-swiped rule), contactless (done),
 *   contact chip (continue with 60-11, `neo2-emv-flow.ts`);
 * - 08 → no card in time; 0A/80 on a chip → the chip failed: fallback to the stripe when allowed;
 * - 81 (tap/swipe given up because a card was inserted), A3 (card inserted) or a failure record saying
 *   "go to contact" → a new 02-40 on the contact interface only;
 * - a chip card swiped → `insertChip` and a new 02-40 on the contact interface only, while the
 *   sale's own timeout lasts (the reader "keeps waiting" from the cashier's point of view).
 */
import type { ReadCardRequest, ReadCardResult } from '../card-reader'
import { CARD_READ_EXTENSION } from '../card-reader'
import { decideSwipe } from '../card-data/entry-mode'
import type { ReaderInterface } from './neo2-commands'
import { NEO2_COMMANDS } from './neo2-commands'
import { chipCardData, serviceCodeOf, swipeCardData, swipeTracksOf } from './neo2-card-data'
import { contactRead } from './neo2-emv-flow'
import type { Neo2ResponseFrame } from './neo2-frame'
import { captureKindOf, cardWantsOnlinePin, isEncrypted, parseTransactionData, readMethodOf } from './neo2-responses'
import type { TransactionData } from './neo2-responses'
import { activateRequest } from './neo2-requests'
import type { FlowContext, SaleSession } from './neo2-session'
import { cardContext, finishRead } from './neo2-session'
import { Neo2StatusError } from './neo2-status'
import { findNeo2ErrorRecord, Neo2TransactionError } from './neo2-transaction-error'
import { ReaderError } from '../reader-error'
import { parseServiceCode } from '../card-data/track'
import { SYSTEM_CLOCK } from '../../../src-shared/clock'

const ACTIVATE = NEO2_COMMANDS.activateTransaction.command
const STATUS = {
  ok: 0x00,
  timeout: 0x08,
  failed: 0x0a,
  onlineAuthorization: 0x23,
  cannotStartContactEmv: 0x80,
  cancelledByCardInsertion: 0x81,
  cardInserted: 0xa3,
} as const
/** Failure-record codes that mean the chip itself could not be read (docs/neo2-protocol.md §9.2; D7.19). */
const CHIP_READ_FAILURES: ReadonlySet<number> = new Set([0x20, 0x24, 0x30, 0x70])
/** Failure-record codes that send the card to the chip reader: "Go to (Nearby) Contact Interface" (D7.27). */
const GO_TO_CONTACT: ReadonlySet<number> = new Set([0x02, 0x05])

type Step = { kind: 'done'; result: ReadCardResult } | { kind: 'again'; interfaces: ReaderInterface[]; prompt: string }

export function enabledInterfaces(ctx: FlowContext): ReaderInterface[] {
  const { contact, contactless, magstripe } = ctx.capabilities
  return [
    ...(contact ? ['contact' as const] : []),
    ...(contactless ? ['contactless' as const] : []),
    ...(magstripe ? ['magstripe' as const] : []),
  ]
}

function promptFor(interfaces: readonly ReaderInterface[]): string {
  const verbs = { contact: 'insert', contactless: 'tap', magstripe: 'swipe' } as const
  const words = interfaces.map((name) => verbs[name])
  const text = words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? 'present')
  return `${text[0]?.toUpperCase()}${text.slice(1)} the card`
}

export async function readCardFlow(ctx: FlowContext, session: SaleSession, request: ReadCardRequest): Promise<ReadCardResult> {
  // The deadline lives on the session: the customer may move it (Neo2CardReader.extendRead). It is a
  // time of day the screens count down to, read from the computer's own clock, never a set one: a
  // clock set for a test or a replay must not stop the prompt's timer (src-shared/clock.ts).
  const wait = { expiresAt: SYSTEM_CLOCK.now() + request.timeoutSeconds * 1000, prompt: '', extensions: 0, waiting: false }
  session.cardWait = wait
  let interfaces = enabledInterfaces(ctx)
  let prompt = promptFor(interfaces)
  for (;;) {
    if (session.cancelRequested) return { kind: 'cancelled' }
    const left = Math.min(255, Math.ceil((wait.expiresAt - SYSTEM_CLOCK.now()) / 1000))
    if (left <= 0) return { kind: 'timeout' }
    wait.prompt = prompt
    wait.waiting = true
    ctx.emit({ type: 'waitingForCard', prompt, expiresAt: wait.expiresAt, extensionsLeft: CARD_READ_EXTENSION.times - wait.extensions })
    const params = {
      timeoutSeconds: left,
      amountMinor: request.amountMinor,
      currency: request.currency,
      purpose: request.purpose,
      interfaces,
      fallback: ctx.fallbackAllowed,
      nextCommandTimeoutSeconds: ctx.nextCommandTimeoutSeconds,
    }
    const frame = await ctx.channel
      .send({ ...activateRequest(params, ctx.timeouts), abandonIf: () => session.cancelRequested })
      .finally(() => {
        wait.waiting = false
      })
    if (session.cancelRequested) return { kind: 'cancelled' }
    // The reader's own wait ended, but the customer asked for more time meanwhile: listen again.
    if (frame.status === STATUS.timeout && wait.expiresAt - SYSTEM_CLOCK.now() >= 1000) continue
    const step = await activated(ctx, session, request, frame)
    if (step.kind === 'done') return step.result
    interfaces = step.interfaces
    prompt = step.prompt
  }
}

async function activated(ctx: FlowContext, session: SaleSession, request: ReadCardRequest, frame: Neo2ResponseFrame): Promise<Step> {
  switch (frame.status) {
    case STATUS.timeout:
      return { kind: 'done', result: { kind: 'timeout' } }
    case STATUS.cannotStartContactEmv:
      return chipFailed(ctx, session, new Neo2StatusError(frame.status, ACTIVATE))
    case STATUS.cancelledByCardInsertion:
    case STATUS.cardInserted:
      return toChip(ctx, new Neo2StatusError(frame.status, ACTIVATE))
    case STATUS.failed: {
      const data = parseTransactionData(frame.data)
      const record = findNeo2ErrorRecord(data.tlvs)
      if (!record) throw new Neo2StatusError(frame.status, ACTIVATE)
      const error = new Neo2TransactionError(record)
      if (captureKindOf(data.attribution) === 'contact' && CHIP_READ_FAILURES.has(record.errorCode)) return chipFailed(ctx, session, error)
      if (GO_TO_CONTACT.has(record.errorCode)) return toChip(ctx, error)
      throw error
    }
    case STATUS.ok:
    case STATUS.onlineAuthorization:
      return cardFrom(ctx, session, request, parseTransactionData(frame.data))
    default:
      throw new Neo2StatusError(frame.status, ACTIVATE)
  }
}

/**
 * The reader wants the chip: a card went into the slot while it listened for a tap or swipe (status 81,
 * or A3 as the C SDK names it), or the card told it to go to contact. The next 02-40 listens to the chip only (D7.27); a reader
 * without one cannot follow, and the sale fails with the status's advice.
 */
function toChip(ctx: FlowContext, error: Error): Step {
  if (!ctx.capabilities.contact) throw error
  ctx.emit({ type: 'insertChip', reason: 'readerAskedForChip' })
  return { kind: 'again', interfaces: ['contact'], prompt: 'Insert the card' }
}

/** The chip could not be read: swipe next if fallback is allowed (D5.4), else the sale fails. */
function chipFailed(ctx: FlowContext, session: SaleSession, error: Error): Step {
  session.chipReadFailed = true
  if (!ctx.fallbackAllowed || !ctx.capabilities.magstripe) throw error
  return { kind: 'again', interfaces: ['magstripe'], prompt: 'Chip read failed: swipe the card' }
}

async function cardFrom(ctx: FlowContext, session: SaleSession, request: ReadCardRequest, data: TransactionData): Promise<Step> {
  if (isEncrypted(data)) throw new ReaderError('encryptedDataNotSupported')
  const method = readMethodOf(data)
  switch (method) {
    case 'swipe':
    case 'fallbackSwipe':
      return swiped(ctx, session, request, data, method === 'fallbackSwipe')
    case 'chip':
      return done(await contactRead(ctx, session, request, data))
    case 'contactlessChip':
    case 'contactlessMagstripe': {
      const wantsPin = request.forceOnlinePin === true || cardWantsOnlinePin(data.tlvs)
      return done(await finishRead(ctx, session, method, wantsPin, (pin) => chipCardData(method, data.tlvs, cardContext(ctx, pin))))
    }
    default:
      throw new ReaderError('unreadableCardData', 'unknown read method')
  }
}

/**
 * The chip-card-swiped rule (D5.4): a chip card's swipe is refused with `insertChip` and a contact-only
 * 02-40, unless its chip already failed in this sale (or the reader reports 9F39 80 itself) and
 * fallback is allowed. Online PIN on a swipe: forced, or the service code asks for it (D7.20).
 */
async function swiped(
  ctx: FlowContext,
  session: SaleSession,
  request: ReadCardRequest,
  data: TransactionData,
  readerFallback: boolean,
): Promise<Step> {
  const tracks = swipeTracksOf(data.tlvs)
  const serviceCode = serviceCodeOf(tracks)
  const decision = decideSwipe({
    serviceCode,
    terminalReadsChip: ctx.capabilities.contact,
    chipReadFailed: session.chipReadFailed || readerFallback,
    fallbackAllowed: ctx.fallbackAllowed,
  })
  if (decision.action === 'reject') throw new ReaderError('unreadableCardData', 'service code')
  if (decision.action === 'insertChip') {
    ctx.emit({ type: 'insertChip', reason: decision.reason })
    return { kind: 'again', interfaces: ['contact'], prompt: 'Insert the chip' }
  }
  const pin = parseServiceCode(serviceCode)?.pin
  const wantsPin = request.forceOnlinePin === true || pin === 'required' || pin === 'ifPedPresent'
  return done(
    await finishRead(ctx, session, decision.method, wantsPin, (entered) =>
      swipeCardData(decision.method, tracks, cardContext(ctx, entered)),
    ),
  )
}

function done(result: ReadCardResult): Step {
  return { kind: 'done', result }
}
