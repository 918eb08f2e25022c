/**
 * CardReader: what the transaction engine asks of the card reader / PIN pad, whatever the wire
 * protocol. The NEO 2 serial driver implements it; so does the simulated PIN pad in training mode.
 *
 * A sale uses it twice: `readCard` (wait for a card, read it, take the PIN where needed) and, for a
 * chip card, `completeCard` (give the card the host's answer and learn its final decision, because
 * a card that declines after the host approved must be reversed).
 */
import type { DevicePrompt, DeviceStatusView } from '../../src-shared/contract'
import type { ReadMethod } from './card-data/entry-mode'

/**
 * The largest amount a card reader can be asked for: EMV carries Amount, Authorised (9F02) as n12,
 * twelve decimal digits of minor units (docs/card-reader.md §2.2).
 */
export const MAX_READ_AMOUNT_MINOR = 999_999_999_999

export interface ReadCardRequest {
  /** At most MAX_READ_AMOUNT_MINOR. */
  amountMinor: number
  currency: string
  /** `purchase` for a sale; `void` when the customer presents the card again to cancel a payment. */
  purpose: 'purchase' | 'void'
  /** How long to wait for a card, in seconds. */
  timeoutSeconds: number
  /** Ask for an online PIN whatever the card says (configurable per terminal). */
  forceOnlinePin?: boolean
}

/** Encrypted PIN as the gateway's `card.pin` wants it; the agent never sees the clear PIN or a BDK. */
export interface EncryptedPin {
  encryptedPin: string
  keySerialNumber: string
  /** e.g. `DUKPT-TDES-ISO0` or `DUKPT-AES-ISO4`. */
  pinEncryptMethod: string
  checkValue?: string
}

/**
 * Everything read from the card. The sensitive fields (pan, tracks, icCardData, expiry, pin) are
 * sealed in the journal at once and purged when authorization completes; only the `summary`
 * ever leaves the main process.
 */
export interface CardData {
  method: ReadMethod
  posEntryMode: string
  termReadability: string
  pinFlag: boolean
  pan: string
  /** YYMM. */
  expiry?: string
  track1?: string
  track2?: string
  track3?: string
  /** Hex BER-TLV of the authorization tags, never carrying 56, 57, 5A, 5F20, 5F24, 99, 9F1F, 9F20. */
  icCardData?: string
  cardSequenceNum?: string
  pin?: EncryptedPin
  summary: CardSummary
}

/** What may be shown and kept after authorization: masked PAN and labels, never the card number. */
export interface CardSummary {
  maskedPan: string
  brand: string
  method: ReadMethod
  /** Chip only: application identifier (4F/9F06) and label (50) for the receipt. */
  applicationId?: string
  applicationLabel?: string
  expired: boolean
  /** The card asked for online PIN and it was entered. */
  onlinePin: boolean
}

export type ReadCardResult =
  { kind: 'card'; card: CardData } | { kind: 'cancelled' } | { kind: 'timeout' } | { kind: 'failed'; code: string; message: string }

/** The host's answer as the card needs it (EMV 2nd GENERATE AC input). */
export interface HostAnswerForCard {
  /**
   * `approved`/`declined`: the host answered; `unableToGoOnline`: ask the card to approve offline
   * (authorization response code Z3), used when the host is unreachable.
   */
  result: 'approved' | 'declined' | 'unableToGoOnline'
  /** Tag 8A, two ASCII characters such as "00", "05", "Z3". */
  authorizationResponseCode: string
  issuerAuthenticationData?: string
  issuerScripts?: string[]
}

/** The card's final word: TC (approved), AAC (declined), or `none` when there is no chip dialogue. */
export type CardDecision = 'approved' | 'declined' | 'none'

/**
 * What `completeCard` learned from the card. An offline approval is forwarded with the card's final
 * cryptogram, not the ARQC of the read (docs/card-reader.md §2.5), so the decision comes with the
 * data that proves it.
 */
export interface CardCompletion {
  decision: CardDecision
  /**
   * Hex BER-TLV of the card's 2nd GENERATE AC output tags (9F26, 9F27, 9F36, 95, 9B, 9F10) and the
   * terminal's final authorisation response code (8A, EMV 4.4 Book 4 Annex A6), when there was a
   * chip dialogue. Never carries 56, 57, 5A, 5F20, 5F24, 99, 9F0B, 9F1F, 9F20.
   */
  icCardData?: string
}

/**
 * What the reader tells the cashier as it goes (prompts, connection), the same shape the UI receives
 * (src-shared/contract): masked PAN only. `interrupted`: the device was busy with a sale when its
 * link dropped, and the engine reconciles that sale.
 */
export type DeviceEvent = DevicePrompt & ({ type: 'cardRead'; method: ReadMethod } | { type: Exclude<DevicePrompt['type'], 'cardRead'> })

export type DeviceStatus = DeviceStatusView

/**
 * More time at the card prompt, asked by the customer (EN 301 549 / WCAG 2.2 SC 2.2.1 "Timing
 * Adjustable": warned before time runs out, with a simple way to extend it, at least ten times):
 * bounded here so a forgotten sale still ends, each extension adding CARD_READ_EXTENSION.seconds.
 */
export const CARD_READ_EXTENSION = { seconds: 30, times: 2 } as const

/** Where a read now stands after an extension. */
export interface ReadExtension {
  expiresAt: number
  extensionsLeft: number
}

export interface CardReader {
  readCard(request: ReadCardRequest): Promise<ReadCardResult>
  /**
   * Gives the customer at the card prompt CARD_READ_EXTENSION.seconds more (the prompt is sent again
   * with its new `expiresAt`). Undefined when no card prompt is waiting or no extension is left.
   */
  extendRead?(): ReadExtension | undefined
  /** Chip only; the decision is `none` for swipe and contactless where the card has no second dialogue. */
  completeCard(answer: HostAnswerForCard): Promise<CardCompletion>
  /** Stops whatever the reader is doing (cashier pressed cancel); safe to call when idle. */
  cancel(): Promise<void>
  onEvent(listener: (event: DeviceEvent) => void): () => void
  status(): DeviceStatus
  close(): Promise<void>
}
