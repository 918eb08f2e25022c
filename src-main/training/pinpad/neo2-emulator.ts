/**
 * A simulated ID TECH NEO 2 PIN pad: the device end of a byte stream. It reads command frames with
 * the same framer the agent uses, in command mode with a strict CRC (docs/device-protocol.md D1.2), and
 * answers the protocol the driver speaks (§7): 18-01, 02-40 (+ 0E card-detected events), 05-01,
 * 60-11, 60-12, 62-01 (ACK, then KSN + EPB from a real DUKPT) and 62-00. Other commands during 02-40
 * count as a cancel, during 62-01 they get 0A (IDG p.208, p.346). Cards come from `present(name)`
 * or, in training mode, from `defaultCard` after `autoPresentMs`; `scriptActivation` makes the next
 * 02-40 end with any status or failure record (docs/device-protocol.md D7.25).
 */
import { Neo2Framer } from '../../device/neo2'
import type { Neo2CommandFrame, Neo2ReceivedFrame } from '../../device/neo2'
import { EmulatorFaults } from './emulator-faults'
import type { PinpadFault } from './emulator-faults'
import { EmulatorOutput } from './emulator-output'
import type { Timer } from './emulator-output'
import { SimPinEncryptor } from './pin-encryptor'
import {
  ATTRIBUTION,
  authenticateAnswer,
  failureAnswer,
  completionAnswer,
  contactlessAnswer,
  contactSelectAnswer,
  swipeAnswer,
} from './sim-card-data'
import type { ActivationParams, FailureRecord, FailureRecordLayout } from './sim-card-data'
import { parseActivation, parseHostResponse } from './sim-requests'
import { isTestCardName, TEST_CARDS } from './test-cards'
import type { SimCard } from './test-cards'
import { CardSlot } from './card-slot'
import type { CardRead } from './card-slot'
import { SYSTEM_CLOCK } from '../../../src-shared/clock'

export interface EmulatorOptions {
  cards?: Readonly<Record<string, SimCard>>
  /** Presented `autoPresentMs` after an 02-40 when nobody presented a card (training mode). */
  defaultCard?: string
  autoPresentMs?: number
  /** From card detection to the answer. */
  cardReadMs?: number
  /** From the 62-01 ACK to the PIN answer. */
  pinEntryMs?: number
  /** Order of the replies to a 05-01 during 02-40 (IDG silent: docs/neo2-protocol.md §5). */
  cancelReplies?: 'cancelFirst' | 'activateFirst' | 'cancelOnly'
  /** Send the 14-01 boot frame whenever a link attaches (IDG p.150). */
  bootNotification?: boolean
  /** Where failure records go (docs/neo2-protocol.md §3.2); default `FFEE1F`, the IDG's table. */
  failureRecord?: FailureRecordLayout
  now?: () => Date
}

/** The chip failures the card steps produce (docs/neo2-protocol.md §9.2, §3.2). */
const CARD_DID_NOT_RESPOND: FailureRecord = { errorCode: 0x30 }
const CARD_RETURNED_ERROR_STATUS: FailureRecord = { errorCode: 0x20, sw: 0x9000, rfState: 0x03 }
const STATUS_CANNOT_START_CONTACT_EMV = 0x80
const STATUS_CANCELLED_BY_CARD_INSERTION = 0x81

/** How the next 02-40 ends, whatever the customer does: a bare status, or 0A with a failure record. */
export type ScriptedActivation =
  { kind: 'status'; status: number } | ({ kind: 'failure'; attribution?: number; layout?: FailureRecordLayout } & FailureRecord)

export interface ReceivedCommand {
  command: number
  subCommand: number
  length: number
}

export class Neo2Emulator {
  readonly faults = new EmulatorFaults()
  /** Every command received (no data: it may hold amounts; tests only need the sequence). */
  readonly received: ReceivedCommand[] = []
  private readonly cards: Readonly<Record<string, SimCard>>
  private readonly pins = new SimPinEncryptor()
  private readonly io = new EmulatorOutput(this.faults)
  private framer: Neo2Framer | undefined
  private readonly slot: CardSlot
  /** The open contact transaction; `atc` is the counter its 60-11 used, which its 60-12 uses too. */
  private emv: { card: SimCard; params: ActivationParams; online: boolean; atc?: number } | undefined
  private pinTimer: Timer | undefined
  private lastCard: SimCard | undefined
  private atc = 0
  private readonly scripted: ScriptedActivation[] = []

  constructor(private readonly options: EmulatorOptions = {}) {
    this.cards = options.cards ?? TEST_CARDS
    if (options.defaultCard !== undefined) this.card(options.defaultCard)
    this.slot = new CardSlot(
      this.io,
      options,
      (name) => this.card(name),
      (read) => this.answerRead(read),
    )
  }

  /** A link to the agent is up: answers go to `send`. */
  attach(send: (bytes: Buffer) => void): void {
    this.detach()
    this.io.attach(send)
    this.framer = new Neo2Framer({ reads: 'command', acceptSwappedCrc: false })
    this.framer.on('data', (frame: Neo2ReceivedFrame) => {
      if (frame.kind === 'command') this.command(frame)
    })
    if (this.options.bootNotification) this.bootFrame()
  }

  private bootFrame(): void {
    this.io.reply(0x14, 0x01, Buffer.from('NEO 2 SIM 1.00', 'latin1'))
  }

  /** The link is gone (cable pulled): like a USB-powered reader, the device forgets its transaction. */
  detach(): void {
    this.framer?.destroy()
    this.framer = undefined
    this.io.detach()
    this.reset()
  }

  receive(chunk: Buffer): void {
    this.framer?.write(chunk)
  }

  /** The customer presents a card (by catalogue name); it is used by the current or next 02-40. */
  present(name: string): void {
    this.slot.present(this.card(name))
  }

  /** Whether the default card comes by itself at the next card requests (see CardSlot.autoPresent). */
  autoPresent(on: boolean): void {
    this.slot.autoPresent(on)
  }

  fault(fault: PinpadFault, times?: number): void {
    this.faults.add(fault, times)
  }

  /** The next 02-40 (one per call, in order) ends at once with this answer instead of reading a card. */
  scriptActivation(answer: ScriptedActivation): void {
    this.scripted.push(answer)
  }

  /** Power cycle on a live link: the transaction is forgotten and the 14-01 boot frame goes out (IDG p.150). */
  reboot(): void {
    this.reset()
    this.bootFrame()
  }

  /** Stops every timer; the emulator stays usable. */
  reset(): void {
    this.io.stopTimers()
    this.slot.reset()
    this.emv = undefined
    this.pinTimer = undefined
  }

  private card(name: string): SimCard {
    const card = this.cards[name] ?? (isTestCardName(name) ? TEST_CARDS[name] : undefined)
    if (!card) throw new RangeError(`no test card "${name}"; known: ${Object.keys(this.cards).join(', ')}`)
    return card
  }

  private command(frame: Neo2CommandFrame): void {
    this.received.push({ command: frame.command, subCommand: frame.subCommand, length: frame.data.length })
    const fault = this.faults.takeInput()
    if (fault === 'silence') return
    if (fault === 'crcStatus') return this.io.reply(frame.command, 0x04)
    const key = (frame.command << 8) | frame.subCommand
    if (this.pinTimer && key !== 0x6200) return this.io.reply(frame.command, 0x0a)
    // IDG p.208: during 02-40 any command but a cancel is taken as one.
    if (this.slot.waiting && key !== 0x0501) this.slot.end(0x08)
    switch (key) {
      case 0x1801:
        return this.io.reply(0x18, 0x00)
      case 0x0240:
        return this.activate(frame.data)
      case 0x0501:
        this.emv = undefined
        return this.slot.cancel()
      case 0x6011:
        return this.authenticate()
      case 0x6012:
        return this.complete(frame.data)
      case 0x6201:
        return this.getPin()
      case 0x6200:
        return this.cancelPin()
      default:
        return this.io.reply(frame.command, [0x18, 0x02, 0x05, 0x60, 0x62].includes(frame.command) ? 0x03 : 0x02)
    }
  }

  private activate(data: Buffer): void {
    const params = parseActivation(data)
    if (!params) return this.io.reply(0x02, 0x05)
    this.emv = undefined
    const scripted = this.scripted.shift()
    if (!scripted) return this.slot.activate(params)
    if (scripted.kind === 'status') return this.io.reply(0x02, scripted.status)
    this.io.reply(0x02, 0x0a, failureAnswer(scripted.attribution ?? ATTRIBUTION.contact, scripted, scripted.layout ?? this.layout))
  }

  private get layout(): FailureRecordLayout {
    return this.options.failureRecord ?? 'FFEE1F'
  }

  private answerRead({ card, step, params, chipFailedBefore }: CardRead): void {
    this.lastCard = card
    switch (step) {
      case 'swipe':
        return this.io.reply(0x02, 0x00, swipeAnswer(card, params.fallback && chipFailedBefore))
      case 'chipFail':
        return this.io.reply(0x02, 0x0a, failureAnswer(ATTRIBUTION.contact, CARD_DID_NOT_RESPOND, this.layout))
      case 'chipError':
        return this.io.reply(0x02, 0x0a, failureAnswer(ATTRIBUTION.contact, CARD_RETURNED_ERROR_STATUS, this.layout))
      case 'chipCannotStart':
        return this.io.reply(0x02, STATUS_CANNOT_START_CONTACT_EMV)
      case 'insertWhileTapping':
        return this.io.reply(0x02, STATUS_CANCELLED_BY_CARD_INSERTION)
      case 'chip':
        this.emv = { card, params, online: false }
        return this.io.reply(0x02, 0x00, contactSelectAnswer(card))
      case 'contactless':
        return this.io.reply(0x02, 0x23, contactlessAnswer(card, params, ++this.atc, this.now()))
    }
  }

  private authenticate(): void {
    const emv = this.emv
    if (!emv || emv.online) return this.io.reply(0x60, 0x0c)
    emv.online = true
    emv.atc = ++this.atc
    this.io.reply(0x60, 0x00, authenticateAnswer(emv.card, emv.params, emv.atc, this.now()))
  }

  private complete(data: Buffer): void {
    const emv = this.emv
    const answer = parseHostResponse(data)
    if (!emv?.online || !answer) return this.io.reply(0x60, emv?.online ? 0x05 : 0x0c)
    this.emv = undefined
    // Approved by the host ("00") and the card agrees: TC; declined by the host: AAC; unable to go
    // online: the card's own offline decision.
    const approved = answer.online
      ? answer.responseCode.toString('latin1') === '00' && emv.card.afterApproval === 'tc'
      : emv.card.whenOffline === 'tc'
    this.io.reply(0x60, 0x00, completionAnswer(emv.card, approved, answer.responseCode, emv.atc ?? this.atc))
  }

  private getPin(): void {
    this.io.reply(0x62, 0x00)
    const card = this.lastCard
    this.pinTimer = this.io.later(this.options.pinEntryMs ?? 30, () => {
      this.pinTimer = undefined
      if (!card) return this.io.reply(0x62, 0x0a, Buffer.from([0x04]))
      const { pin, key } = card.onlinePin ?? { pin: '1234', key: 'tdes' as const }
      const block = this.pins.encrypt(pin, card.pan, key)
      this.io.reply(0x62, 0x00, Buffer.concat([Buffer.from([0x00]), Buffer.from(block.ksn + block.epb, 'latin1')]))
    })
  }

  private cancelPin(): void {
    this.io.reply(0x62, 0x00)
    if (!this.pinTimer) return
    this.io.cancel(this.pinTimer)
    this.pinTimer = undefined
    this.io.reply(0x62, 0x0a, Buffer.from([0x02]))
  }

  private now(): Date {
    return this.options.now?.() ?? new Date(SYSTEM_CLOCK.now())
  }
}
