/**
 * The simulated reader waiting for a card during 02-40 Activate Transaction: the cards the customer
 * holds out (`present`), the card at the reader mid-script, the card timeout (08), the 0E
 * card-detected event, and the replies to a 05-01 cancel in either order (docs/neo2-protocol.md §5: the
 * IDG does not say which comes first, so the driver must take both).
 */
import type { EmulatorOutput, Timer } from './emulator-output'
import type { ActivationParams } from './sim-card-data'
import type { SimCard, SimStep } from './test-cards'

/** DFEF37 bit each customer action needs (docs/neo2-protocol.md §2.2): contact, contactless, stripe. */
const STEP_INTERFACE: Readonly<Record<SimStep, number>> = {
  chip: 0x04,
  chipFail: 0x04,
  chipError: 0x04,
  chipCannotStart: 0x04,
  contactless: 0x02,
  swipe: 0x01,
  insertWhileTapping: 0x03,
}
/** Steps after which a swipe is a fallback: the chip was tried and failed. */
const CHIP_FAILURES: ReadonlySet<SimStep> = new Set(['chipFail', 'chipError', 'chipCannotStart'])

export interface CardRead {
  card: SimCard
  step: SimStep
  params: ActivationParams
  /** An earlier step of this card's script was a failed chip (a swipe now is a fallback). */
  chipFailedBefore: boolean
}

export interface CardSlotOptions {
  cardReadMs?: number
  defaultCard?: string
  autoPresentMs?: number
  cancelReplies?: 'cancelFirst' | 'activateFirst' | 'cancelOnly'
}

interface Activation {
  params: ActivationParams
  timer?: Timer | undefined
  reading: boolean
}

export class CardSlot {
  private readonly presented: SimCard[] = []
  private current: { card: SimCard; step: number; chipFailed: boolean } | undefined
  private activation: Activation | undefined
  /** The next requests wait for a card someone presents: no default card comes by itself. */
  private waitForPick = false

  constructor(
    private readonly io: EmulatorOutput,
    private readonly options: CardSlotOptions,
    private readonly lookup: (name: string) => SimCard,
    private readonly onRead: (read: CardRead) => void,
  ) {}

  /**
   * Whether the default card comes by itself for the requests from now on (`false`: they wait for a
   * pick). A trainee at the counter picks the card, however long that takes; a POS tried with nobody at
   * the counter gets the default card.
   */
  autoPresent(on: boolean): void {
    this.waitForPick = !on
  }

  get waiting(): boolean {
    return this.activation !== undefined
  }

  /**
   * The customer holds out `card` for the request now waiting (or the next one): a new pick replaces
   * one nobody read, so a card picked for an earlier request is never read in a later sale.
   */
  present(card: SimCard): void {
    this.presented.length = 0
    this.presented.push(card)
    this.tryRead()
  }

  activate(params: ActivationParams): void {
    const activation: Activation = { params, reading: false }
    activation.timer = this.io.later(params.timeoutSeconds * 1000, () => this.end(0x08))
    this.activation = activation
    if (this.current || this.presented.length > 0) return this.tryRead()
    const name = this.options.defaultCard
    if (name !== undefined && !this.waitForPick)
      this.io.later(
        this.options.autoPresentMs ?? 1_000,
        () => this.activation === activation && !activation.reading && this.present(this.lookup(name)),
      )
  }

  /** Ends the wait with `status` (08 timeout, or the answer to a command that counts as a cancel). */
  end(status: number): void {
    if (!this.stop()) return
    this.io.reply(0x02, status)
  }

  /** 05-01: the cancel reply, and the cancelled 02-40's own (status 0A) before, after, or never. */
  cancel(): void {
    if (!this.stop()) return this.io.reply(0x05, 0x00)
    const order = this.options.cancelReplies ?? 'cancelFirst'
    if (order === 'activateFirst') this.io.reply(0x02, 0x0a)
    this.io.reply(0x05, 0x00)
    if (order === 'cancelFirst') this.io.reply(0x02, 0x0a)
  }

  reset(): void {
    this.activation = undefined
    this.current = undefined
  }

  /** The request ended unread (timeout or cancel): what was picked for it goes with it. */
  private stop(): boolean {
    const activation = this.activation
    if (!activation) return false
    this.io.cancel(activation.timer)
    this.activation = undefined
    this.current = undefined
    this.presented.length = 0
    return true
  }

  private tryRead(): void {
    const activation = this.activation
    if (!activation || activation.reading) return
    if (!this.current) {
      const next = this.presented.shift()
      if (!next) return
      this.current = { card: next, step: 0, chipFailed: false }
    }
    const holder = this.current
    const step = holder.card.steps[holder.step]
    // The customer uses an interface the reader is not listening on: nothing happens (the 02-40 times out).
    if (!step || (activation.params.interfaces & STEP_INTERFACE[step]) === 0) return
    activation.reading = true
    this.io.cancel(activation.timer)
    this.io.reply(0x02, 0x0e, Buffer.from([0x01]))
    this.io.later(this.options.cardReadMs ?? 20, () => {
      if (this.activation !== activation) return
      this.activation = undefined
      const chipFailedBefore = holder.chipFailed
      holder.step += 1
      if (CHIP_FAILURES.has(step)) holder.chipFailed = true
      if (holder.step >= holder.card.steps.length && this.current === holder) this.current = undefined
      this.onRead({ card: holder.card, step, params: activation.params, chipFailedBefore })
    })
  }
}
