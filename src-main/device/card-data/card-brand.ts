/**
 * Card brand from the PAN's leading digits (IIN ranges), for the receipt and the cashier screen.
 * Good enough for a label, not a BIN table: the host decides how a card is routed.
 */
export const CARD_BRANDS = ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER', 'JCB', 'UNIONPAY', 'UNKNOWN'] as const
export type CardBrand = (typeof CARD_BRANDS)[number]

export function cardBrandOf(pan: string): CardBrand {
  const n2 = Number(pan.slice(0, 2))
  const n3 = Number(pan.slice(0, 3))
  const n4 = Number(pan.slice(0, 4))
  const n6 = Number(pan.slice(0, 6))
  if (pan.startsWith('4')) return 'VISA'
  if ((n2 >= 51 && n2 <= 55) || (n4 >= 2221 && n4 <= 2720)) return 'MASTERCARD'
  if (n2 === 34 || n2 === 37) return 'AMEX'
  // Discover's co-branded UnionPay range 622126-622925 is checked before the general 62 prefix.
  if (n4 === 6011 || n2 === 65 || (n3 >= 644 && n3 <= 649) || (n6 >= 622126 && n6 <= 622925)) return 'DISCOVER'
  if (n2 === 62) return 'UNIONPAY'
  if (n4 >= 3528 && n4 <= 3589) return 'JCB'
  return 'UNKNOWN'
}
