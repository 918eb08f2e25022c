/**
 * `icCardData` (the gateway's DE 55 equivalent, docs/gateway.md §4, paymentMethod.card.cardInfo) built
 * from the EMV tags the reader returned, and `cardSequenceNum` from tag 5F34.
 *
 * Two fences keep cardholder data and SAD out (docs/card-reader.md §2.2 and §5 "Queue the minimum"):
 * 1. an allow-list: only the §2.2 authorization tags (or the caller's list) are copied;
 * 2. a deny-list that wins over any allow-list: 56, 57, 5A, 5F20, 5F24, 99, 9F0B, 9F1F, 9F20
 *    are never copied, and asking for one is a configuration error.
 * Tags keep the order in which the reader sent them (the host spec sets no order; docs/card-reader.md
 * §2.1), first occurrence wins, lengths are minimal, no padding.
 */
import { encodeTlv, walkTlv } from './tlv'
import type { Tlv } from './tlv'
import { AUTHORIZATION_TAGS, SAD_TAGS } from './tlv-dictionary'

export const IC_CARD_DATA_ERROR_CODES = ['forbiddenTag', 'badPanSequenceNumber'] as const
export type IcCardDataErrorCode = (typeof IC_CARD_DATA_ERROR_CODES)[number]

export class IcCardDataError extends Error {
  override readonly name = 'IcCardDataError'
  constructor(
    readonly code: IcCardDataErrorCode,
    message: string,
  ) {
    super(message)
  }
}

const FORBIDDEN: ReadonlySet<string> = new Set(SAD_TAGS)

export function isForbiddenInIcCardData(tag: string): boolean {
  return FORBIDDEN.has(tag.toUpperCase())
}

export interface IcCardDataOptions {
  /** Tags to copy, when the acquirer wants another set than docs/card-reader.md §2.2. */
  tags?: readonly string[]
}

/** Upper-case hex of the selected primitive tags; "" when none is present. */
export function buildIcCardData(tlvs: readonly Tlv[], options: IcCardDataOptions = {}): string {
  const wanted = new Set((options.tags ?? AUTHORIZATION_TAGS).map((tag) => tag.toUpperCase()))
  for (const tag of wanted) {
    if (FORBIDDEN.has(tag))
      throw new IcCardDataError('forbiddenTag', `tag ${tag} carries cardholder data or SAD and never goes into icCardData`)
  }
  const picked = new Map<string, Buffer>()
  for (const tlv of walkTlv(tlvs)) {
    if (tlv.children || !wanted.has(tlv.tag) || FORBIDDEN.has(tlv.tag) || picked.has(tlv.tag)) continue
    picked.set(tlv.tag, tlv.value)
  }
  return encodeTlv([...picked].map(([tag, value]) => ({ tag, value })))
    .toString('hex')
    .toUpperCase()
}

/**
 * PAN Sequence Number (5F34, n2, 1 byte BCD) as ISO 8583 DE 23 digits (n3, zero-padded, e.g. "001");
 * undefined when the card has no 5F34.
 */
export function cardSequenceNumFrom(tlvs: readonly Tlv[]): string | undefined {
  let found: Tlv | undefined
  for (const tlv of walkTlv(tlvs)) {
    if (tlv.tag === '5F34' && !tlv.children) {
      found = tlv
      break
    }
  }
  if (!found) return undefined
  const digits = found.value.toString('hex').toUpperCase()
  if (!/^\d{2}$/.test(digits)) throw new IcCardDataError('badPanSequenceNumber', `5F34 must be one BCD byte, got "${digits}"`)
  return digits.padStart(3, '0')
}
