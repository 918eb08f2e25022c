/**
 * A CardReader that presents scripted cards, for unit tests of the transaction engine (the serial
 * driver and the simulated PIN pad are tested on a real pty elsewhere).
 */
import { randomBytes } from 'node:crypto'
import type {
  CardCompletion,
  CardData,
  CardDecision,
  CardReader,
  DeviceEvent,
  DeviceStatus,
  HostAnswerForCard,
  ReadCardRequest,
  ReadCardResult,
} from '../../src-main/device'

/**
 * A card and what it says at completion: its decision and, optionally, the icCardData of its 2nd
 * GENERATE AC (hex BER-TLV, e.g. 9F27 40 + 9F26 + 8A) returned with it.
 */
export type Presentation =
  | {
      card: CardData
      decision?: CardDecision
      /** The 2nd GENERATE AC output, or `asCard`: what a chip answers (chipCompletion below). */
      completion?: string | 'asCard'
      /** The reader fails at completion (link lost, card pulled): the engine must read it as a decline. */
      completionFails?: boolean
      /** The customer presents the card only once this settles (a race at the counter). */
      after?: Promise<unknown>
    }
  | { result: Exclude<ReadCardResult, { kind: 'card' }> }

/**
 * What a chip answers at its 2nd GENERATE AC: TC (9F27 40) or AAC (00), a fresh cryptogram, and
 * the final authorisation response code the terminal records (EMV 4.4 Book 4 Annex A6: Y3/Z3 after
 * "unable to go online", else the host's code).
 */
export function chipCompletion(answer: HostAnswerForCard, decision: 'approved' | 'declined'): string {
  const arc = answer.result === 'unableToGoOnline' ? (decision === 'approved' ? 'Y3' : 'Z3') : answer.authorizationResponseCode
  const cryptogram = randomBytes(8).toString('hex').toUpperCase()
  return `9F2701${decision === 'approved' ? '40' : '00'}9F2608${cryptogram}8A02${Buffer.from(arc, 'latin1').toString('hex').toUpperCase()}`
}

export class ScriptedCardReader implements CardReader {
  readonly requests: ReadCardRequest[] = []
  readonly answers: HostAnswerForCard[] = []
  private readonly queue: Presentation[] = []
  private decision: CardDecision = 'approved'
  private completion: string | undefined
  private completionFails = false
  private pendingCancel: (() => void) | undefined
  cancels = 0

  present(...presentations: Presentation[]): this {
    this.queue.push(...presentations)
    return this
  }

  /** Takes back a presentation nobody read (the operation it was for was refused). */
  withdraw(presentation: Presentation): boolean {
    const at = this.queue.indexOf(presentation)
    if (at < 0) return false
    this.queue.splice(at, 1)
    return true
  }

  async readCard(request: ReadCardRequest): Promise<ReadCardResult> {
    this.requests.push(request)
    const next = this.queue.shift()
    if (!next) {
      // no card scripted: wait until cancelled, like a reader waiting for a customer
      return new Promise((resolve) => (this.pendingCancel = () => resolve({ kind: 'cancelled' })))
    }
    if ('result' in next) return next.result
    if (next.after) await next.after
    this.decision = next.decision ?? (next.card.icCardData ? 'approved' : 'none')
    this.completion = next.completion
    this.completionFails = next.completionFails === true
    return { kind: 'card', card: next.card }
  }

  async completeCard(answer: HostAnswerForCard): Promise<CardCompletion> {
    this.answers.push(answer)
    if (this.decision === 'none') return { decision: 'none' }
    if (this.completionFails) throw new Error('the card reader stopped answering during completion')
    const decision = answer.result === 'declined' ? 'declined' : this.decision
    if (this.completion === undefined) return { decision }
    return { decision, icCardData: this.completion === 'asCard' ? chipCompletion(answer, decision) : this.completion }
  }

  async cancel(): Promise<void> {
    this.cancels++
    this.pendingCancel?.()
    this.pendingCancel = undefined
  }

  onEvent(_listener: (event: DeviceEvent) => void): () => void {
    return () => undefined
  }

  status(): DeviceStatus {
    return { connected: true, busy: false }
  }

  async close(): Promise<void> {}
}

export const TEST_CARDS = {
  chipVisa: (): CardData => ({
    method: 'chip',
    posEntryMode: '051',
    termReadability: '5',
    pinFlag: false,
    pan: '4761739001010010',
    expiry: '3012',
    track2: '4761739001010010=30122011143804400000',
    icCardData: '9F2608C2F3A1B4D5E6F7089F2701809F360200019F3704A1B2C3D4',
    cardSequenceNum: '01',
    summary: {
      maskedPan: '476173******0010',
      brand: 'VISA',
      method: 'chip',
      applicationId: 'A0000000031010',
      applicationLabel: 'VISA CREDIT',
      expired: false,
      onlinePin: false,
    },
  }),
  swipeMastercard: (): CardData => ({
    method: 'swipe',
    posEntryMode: '901',
    termReadability: '5',
    pinFlag: false,
    pan: '5413330089010434',
    expiry: '3012',
    track1: '%B5413330089010434^TEST/CARD^30121010000000000000?',
    track2: '5413330089010434=30121010000000000000',
    summary: { maskedPan: '541333******0434', brand: 'MASTERCARD', method: 'swipe', expired: false, onlinePin: false },
  }),
}
