/**
 * The only owner of card data. A card read for a sale is held in memory until the payment is sent,
 * and sealed in the journal in the same commit as the transition that read it (a restart can then
 * still reverse or forward it); it is purged, from memory and the journal, by the transition that
 * ends its use (docs/card-reader.md §5: no sensitive data kept after authorisation).
 */
import type { Logger } from 'pino'
import { withCompletion, type CardData } from '../device'
import type { CardPurpose, JournalStore, SaleChange } from '../journal'
import { PosError } from '../../src-shared/pos-error'

export type { CardPurpose }

export class CardVault {
  /** The card of the sale in progress, between the read and the send. */
  private readonly inFlight = new Map<string, CardData>()

  constructor(
    private readonly journal: JournalStore,
    private readonly logger: Logger,
  ) {}

  /** Keeps the card just read for the sale's payment. */
  hold(saleId: string, card: CardData): void {
    this.inFlight.set(saleId, card)
  }

  /** What the journal seals with the transition that read the card. */
  sealing(card: CardData, purpose: CardPurpose): NonNullable<SaleChange['sealCard']> {
    return { purpose, data: card }
  }

  /** The keyed fingerprint of a card number (duplicate guard): never the number itself. */
  fingerprint(card: CardData): string {
    return this.journal.fingerprint(card.pan)
  }

  /** The card for a message that cannot go without it (payment, cancel). */
  require(saleId: string, purpose: CardPurpose = 'purchase'): CardData {
    const card = (purpose === 'purchase' ? this.inFlight.get(saleId) : undefined) ?? this.journal.openCard<CardData>(saleId, purpose)
    if (!card) throw new PosError('CARD_DATA_GONE', `sale ${saleId}: the card data for this message is no longer available`)
    return card
  }

  /**
   * The chip card of `saleId` brought up to date with the card's completion (its 2nd GENERATE AC and
   * the final authorisation response code): what is queued from now on, a stored payment above all,
   * carries the card's final cryptogram, not the ARQC of the read (docs/card-reader.md §2.5). Held in
   * place of the read; returned so that the same commit seals it in the journal.
   */
  completeChip(saleId: string, completionIcCardData: string): CardData {
    const card = this.require(saleId)
    const completed: CardData = { ...card, icCardData: withCompletion(card.icCardData ?? '', completionIcCardData) }
    this.inFlight.set(saleId, completed)
    return completed
  }

  /** The card if it can still be opened; a reversal goes without it otherwise (its ICC data is optional). */
  ifAvailable(saleId: string): CardData | undefined {
    const held = this.inFlight.get(saleId)
    if (held) return held
    try {
      return this.journal.openCard<CardData>(saleId, 'purchase')
    } catch (error) {
      this.logger.warn({ sale: saleId, err: error }, 'card data of this sale cannot be opened; the reversal is sent without ICC data')
      return undefined
    }
  }

  /** Forgets the in-memory copy once the journal committed the purge. */
  purged(saleId: string): void {
    this.inFlight.delete(saleId)
  }
}
