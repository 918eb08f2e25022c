/**
 * The request bodies the sale sends, built from the journaled sale and the card data (pure).
 * docs/gateway.md §4 (the specification's "Offline payment", "Offline cancel", "Offline reversal",
 * "TipsAdjustment", "Capture"); §D3 for tips (the tip itself, not the new total) and capture (base + tip).
 */
import { formatAmount } from '../../src-shared/money'
import type { CardData } from '../device'
import type { CaptureBody, MerchandiseCreditBody, OfflineCancelBody, OfflinePaymentBody, OfflineReversalBody, TipsBody } from '../gateway'
import type { SaleRecord } from '../journal'
import type { PaymentOptions } from '../../src-shared/contract'
import { parseSaleOptions } from './sale-options'

export type { PaymentOptions }

export interface MerchantIdentity {
  storeId: string
  terminalId: string
  merchantId: string
  storeName?: string | undefined
  pspInfo: Readonly<Record<string, string>>
}

function cardMethod(card: CardData) {
  return {
    type: 'card' as const,
    card: {
      cardInfo: {
        ...(card.track1 ? { track1: card.track1 } : {}),
        ...(card.track2 ? { track2: card.track2 } : { cardNumber: card.pan, ...(card.expiry ? { expiryDate: card.expiry } : {}) }),
        ...(card.track3 ? { track3: card.track3 } : {}),
        ...(card.icCardData ? { icCardData: card.icCardData } : {}),
        ...(card.cardSequenceNum ? { cardSequenceNum: card.cardSequenceNum } : {}),
        paymentBrand: card.summary.brand,
      },
      posEntryMode: card.posEntryMode,
      termReadability: card.termReadability,
      pinFlag: card.pinFlag,
      ...(card.pin ? { pin: card.pin } : {}),
    },
  }
}

/** The columns of a sale a payment body is built from. */
export type PaymentSale = Pick<SaleRecord, 'id' | 'transTime' | 'amountMinor' | 'currency' | 'autoCapture' | 'options'>

export function paymentBody(sale: PaymentSale, card: CardData, merchant: MerchantIdentity): OfflinePaymentBody {
  const { merchantOrderReference, ...fields } = parseSaleOptions(sale.options).payment
  return {
    autoCapture: sale.autoCapture,
    merchantTransInfo: {
      merchantTransID: sale.id,
      merchantTransTime: sale.transTime,
      ...(merchantOrderReference ? { merchantOrderReference } : {}),
    },
    paymentMethod: cardMethod(card),
    pspInfo: pspInfoOf(merchant),
    transAmount: { currency: sale.currency, value: formatAmount(sale.amountMinor, sale.currency) },
    ...fields,
  }
}

/** Reversal: the ICC data goes along for a chip card, so the issuer can match the cryptogram. */
export function reversalBody(reason: string, card: CardData | undefined): OfflineReversalBody {
  const chip = card?.icCardData
  return {
    initiatingReason: truncateBytes(reason, 64),
    ...(chip
      ? {
          paymentMethod: {
            type: 'card' as const,
            card: { cardInfo: { icCardData: chip, ...(card?.cardSequenceNum ? { cardSequenceNum: card.cardSequenceNum } : {}) } },
          },
        }
      : {}),
  }
}

/** Cancel is card present: the card read again at the counter is sent (docs/gateway.md §4). */
export function cancelBody(messageId: string, transTime: string, card: CardData): OfflineCancelBody {
  const method = cardMethod(card)
  return {
    merchantTransInfo: { merchantTransID: messageId, merchantTransTime: transTime },
    paymentMethod: {
      ...method,
      card: { ...method.card, icCardCondCode: card.icCardData ? '0' : '1', noSecretNoSignFlag: card.pin ? '0' : '1' },
    },
    initiatingReason: 'void requested at the counter',
  }
}

export function tipsBody(messageId: string, transTime: string, sale: SaleRecord): TipsBody {
  return {
    merchantTransInfo: { merchantTransID: messageId, merchantTransTime: transTime },
    transAmount: { currency: sale.currency, value: formatAmount(sale.tipMinor, sale.currency) },
  }
}

export function captureBody(messageId: string, transTime: string, sale: SaleRecord): CaptureBody {
  return {
    merchantTransInfo: { merchantTransID: messageId, merchantTransTime: transTime },
    transAmount: { currency: sale.currency, value: formatAmount(sale.amountMinor + sale.tipMinor, sale.currency) },
    initiatingReason: 'close of day',
  }
}

/**
 * A return's credit (host-contract §3 "MerchandiseCredit"): its own merchantTransID, the amount
 * credited, and the card presented at the counter as its number and expiry (YYMM); never a track, PIN
 * or chip data, which a credit does not carry. `metadata` names the sale it returns for the
 * merchant's back office: the host does not link the two, the terminal keeps that link.
 */
export function merchandiseCreditBody(
  sale: Pick<SaleRecord, 'id' | 'transTime' | 'amountMinor' | 'currency' | 'originalId'>,
  card: CardData,
  merchant: MerchantIdentity,
): MerchandiseCreditBody {
  return {
    merchantTransInfo: { merchantTransID: sale.id, merchantTransTime: sale.transTime },
    pspInfo: pspInfoOf(merchant),
    transAmount: { currency: sale.currency, value: formatAmount(sale.amountMinor, sale.currency) },
    paymentMethod: {
      type: 'card',
      card: { cardInfo: { cardNumber: card.pan, ...(card.expiry ? { expiryDate: card.expiry } : {}) } },
    },
    initiatingReason: sale.originalId !== undefined ? 'return at the counter' : 'return without a receipt',
    ...(sale.originalId !== undefined ? { metadata: JSON.stringify({ originalMerchantTransID: sale.originalId }) } : {}),
  }
}

function pspInfoOf(merchant: MerchantIdentity) {
  return {
    ...merchant.pspInfo,
    merchantID: merchant.merchantId,
    terminalID: merchant.terminalId,
    storeID: merchant.storeId,
    ...(merchant.storeName ? { storeName: merchant.storeName } : {}),
  }
}

function truncateBytes(text: string, max: number): string {
  let out = text
  while (Buffer.byteLength(out, 'utf8') > max) out = out.slice(0, -1)
  return out
}
