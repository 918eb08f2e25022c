/**
 * The messages a sale leaves in the store-and-forward queue, and their bodies. A stored payment and
 * a reversal carry the sale's own merchantTransID (the host de-duplicates a resend by it); each
 * follow-up (tip, void, capture) is a message of its own with the sale's id plus a suffix and a
 * counter, so a second tip or a retried capture never collides with the first (docs/gateway.md §D3).
 */
import type { CardData } from '../device'
import { formatDateTime } from '../gateway'
import type { JournalStore, NewOutboxItem, SaleRecord } from '../journal'
import type { QueueOperation } from '../../src-shared/sale'
import type { CardVault } from './card-vault'
import {
  cancelBody,
  captureBody,
  merchandiseCreditBody,
  paymentBody,
  reversalBody,
  tipsBody,
  type MerchantIdentity,
} from './message-bodies'

/** The suffix of a follow-up's merchantTransID: `<sale id>-<suffix><n>`. */
const FOLLOW_UP_SUFFIX = { tips: 'T', cancel: 'V', capture: 'C' } as const satisfies Partial<Record<QueueOperation, string>>

export interface QueueItemDeps {
  journal: JournalStore
  vault: CardVault
  merchant: MerchantIdentity
  now: () => Date
}

export class QueueItems {
  constructor(private readonly deps: QueueItemDeps) {}

  /** Whose queue this is (a copy at the store names its store and terminal). */
  get merchant(): MerchantIdentity {
    return this.deps.merchant
  }

  /**
   * The queue item for `operation` of `sale` as it is about to be journaled. `reason` is a reversal's
   * cause; `freshCard` is the card just presented (a void reads it again).
   */
  build(sale: SaleRecord, operation: QueueOperation, reason: string, freshCard: CardData | undefined): NewOutboxItem {
    const { vault, merchant } = this.deps
    const money = { amountMinor: sale.amountMinor, currency: sale.currency }
    switch (operation) {
      case 'payment':
        return { operation, messageId: sale.id, body: paymentBody(sale, vault.require(sale.id), merchant), ...money }
      case 'reversal':
        // The card's ICC data is optional in a reversal: a copy without it can go even if the sealed body is lost.
        return {
          operation,
          messageId: sale.id,
          body: reversalBody(reason, vault.ifAvailable(sale.id)),
          cardFreeBody: reversalBody(reason, undefined),
          ...money,
        }
      case 'tips': {
        const id = this.followUpId(sale.id, operation)
        return { operation, messageId: id, body: tipsBody(id, this.transTime(), sale), amountMinor: sale.tipMinor, currency: sale.currency }
      }
      case 'cancel': {
        const id = this.followUpId(sale.id, operation)
        return { operation, messageId: id, body: cancelBody(id, this.transTime(), freshCard ?? vault.require(sale.id, 'void')), ...money }
      }
      case 'capture': {
        const id = this.followUpId(sale.id, operation)
        const body = captureBody(id, this.transTime(), sale)
        return { operation, messageId: id, body, amountMinor: sale.amountMinor + sale.tipMinor, currency: sale.currency }
      }
      case 'merchandiseCredit':
        // The return's own id: resent unchanged until answered, the host answers a repeat with its first answer.
        return {
          operation,
          messageId: sale.id,
          body: merchandiseCreditBody(sale, freshCard ?? vault.require(sale.id, 'return'), merchant),
          ...money,
        }
    }
  }

  /** `<sale id>-T1`, `-T2`...: the n-th message of this kind for the sale. */
  private followUpId(saleId: string, operation: keyof typeof FOLLOW_UP_SUFFIX): string {
    const nth = this.deps.journal.outbox.ofSale(saleId).filter((item) => item.operation === operation).length + 1
    return `${saleId}-${FOLLOW_UP_SUFFIX[operation]}${nth}`
  }

  private transTime(): string {
    return formatDateTime(this.deps.now())
  }
}
