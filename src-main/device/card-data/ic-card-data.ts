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
import { decodeTlv, encodeTlv, TlvError, walkTlv } from './tlv'
import type { Tlv } from './tlv'
import { AUTHORIZATION_TAGS, SAD_TAGS } from './tlv-dictionary'

export const IC_CARD_DATA_ERROR_CODES = ['forbiddenTag', 'badPanSequenceNumber', 'badIcCardData'] as const
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
 * The icCardData of a read brought up to date with the card's completion (2nd GENERATE AC and the
 * final authorisation response code, docs/card-reader.md §2.5): a completion tag replaces the same
 * tag of the read where it stands, tags only in the completion follow in their own order. The
 * deny-list still wins: a forbidden tag in either input is dropped, never copied. Both inputs are
 * icCardData (top-level primitive BER-TLV in hex); anything else is an `IcCardDataError`.
 */
export function withCompletion(readIcCardData: string, completionIcCardData: string): string {
  const read = firstOccurrences(icCardDataTlvs(readIcCardData, 'read'))
  const completion = firstOccurrences(icCardDataTlvs(completionIcCardData, 'completion'))
  const merged = new Map([...read].map(([tag, value]) => [tag, completion.get(tag) ?? value]))
  for (const [tag, value] of completion) if (!merged.has(tag)) merged.set(tag, value)
  return encodeTlv([...merged].filter(([tag]) => !FORBIDDEN.has(tag)).map(([tag, value]) => ({ tag, value })))
    .toString('hex')
    .toUpperCase()
}

function icCardDataTlvs(hex: string, which: string): Tlv[] {
  if (!/^(?:[0-9A-Fa-f]{2})*$/.test(hex)) throw new IcCardDataError('badIcCardData', `the ${which} icCardData is not hex`)
  try {
    // buildIcCardData writes no padding; an FF byte would start a tag, not fill space.
    return decodeTlv(Buffer.from(hex, 'hex'), { padding: 'zeroOnly' })
  } catch (error) {
    if (error instanceof TlvError) throw new IcCardDataError('badIcCardData', `the ${which} icCardData is not BER-TLV: ${error.message}`)
    throw error
  }
}

/** Tag → value, the first occurrence of each tag winning (as in buildIcCardData), in input order. */
function firstOccurrences(tlvs: readonly Tlv[]): Map<string, Buffer> {
  const byTag = new Map<string, Buffer>()
  for (const tlv of tlvs) if (!byTag.has(tlv.tag)) byTag.set(tlv.tag, tlv.value)
  return byTag
}

/**
 * The card's final cryptogram as a sale's history keeps it, for support to read (docs/card-reader.md
 * §2.5). Not card data: a cryptogram, its type and counter, and a response code are not sensitive
 * authentication data (PCI DSS v4.0.1 glossary) and identify no card.
 */
export interface CryptogramEvidence {
  /** 9F27 Cryptogram Information Data, hex: 40 TC, 00 AAC, 80 ARQC. */
  cid: string
  /** 9F26 Application Cryptogram, hex. */
  cryptogram: string
  /** 9F36 Application Transaction Counter, hex. */
  atc?: string
  /** 8A Authorisation Response Code, as its two characters (e.g. "Y3"). */
  responseCode?: string
}

/** The cryptogram an icCardData carries (9F27 + 9F26, with 9F36 and 8A when present); undefined without one. */
export function cryptogramEvidence(icCardData: string): CryptogramEvidence | undefined {
  const byTag = firstOccurrences(icCardDataTlvs(icCardData, 'evidence'))
  const hex = (tag: string) => byTag.get(tag)?.toString('hex').toUpperCase()
  const cid = hex('9F27')
  const cryptogram = hex('9F26')
  if (cid === undefined || cryptogram === undefined) return undefined
  const atc = hex('9F36')
  const responseCode = byTag.get('8A')?.toString('latin1')
  return { cid, cryptogram, ...(atc !== undefined ? { atc } : {}), ...(responseCode !== undefined ? { responseCode } : {}) }
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
