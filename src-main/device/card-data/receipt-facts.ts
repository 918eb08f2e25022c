/**
 * What a card-present receipt prints of the card's own checks (docs/receipts.md): the Terminal
 * Verification Results (95) and the Transaction Status Information (9B) of the chip dialogue, and how
 * the cardholder was verified. None of it is card data: TVR, TSI and CVM Results identify no card and
 * are not sensitive authentication data (PCI DSS v4.0.1 glossary).
 */
import type { CardholderVerification } from '../../../src-shared/sale'
import { decodeTlv, findTlv } from './tlv'
import type { ReadMethod } from './entry-mode'

export interface ReceiptFacts {
  tvr?: string
  tsi?: string
  cvm: CardholderVerification
}

/**
 * CVM codes of the CVM Results' first byte, bits 6 to 1 (EMV 4.4 Book 3, Annex C3 "CVM Codes"): what
 * was performed. 3F "no CVM performed" is the contactless sale under the CVM limit.
 */
const CVM_CODES: ReadonlyMap<number, CardholderVerification> = new Map([
  [0x01, 'pin'], // plaintext PIN verified by the ICC
  [0x02, 'pin'], // enciphered PIN verified online
  [0x03, 'pinAndSignature'], // plaintext PIN by the ICC and signature
  [0x04, 'pin'], // enciphered PIN verified by the ICC
  [0x05, 'pinAndSignature'], // enciphered PIN by the ICC and signature
  [0x1e, 'signature'],
  [0x1f, 'none'], // no CVM required
  [0x3f, 'none'], // no CVM performed
])

/** CVM Results (9F34, EMV 4.4 Book 3, Annex A) byte 3, the result of the last CVM performed: 01 failed. */
const CVM_FAILED = 0x01

/**
 * The receipt facts of a card as read or completed: from its icCardData when it has a chip dialogue,
 * otherwise from whether a PIN was entered. A failed or unrecognised verification asks for a
 * signature: the store keeps a signed copy rather than a receipt that claims a check that failed.
 */
export function receiptFacts(card: { method: ReadMethod; icCardData?: string | undefined; onlinePin: boolean }): ReceiptFacts {
  const tags = card.icCardData ? tlvsOf(card.icCardData) : undefined
  const hex = (tag: string) => (tags ? findTlv(tags, tag)?.value.toString('hex').toUpperCase() : undefined)
  const tvr = hex('95')
  const tsi = hex('9B')
  const facts: ReceiptFacts = { cvm: withoutChip(card) }
  const results = tags ? findTlv(tags, '9F34')?.value : undefined
  if (results?.length === 3) {
    const performed = CVM_CODES.get(results[0]! & 0x3f)
    facts.cvm = performed === undefined || (results[2] === CVM_FAILED && performed !== 'none') ? 'signature' : performed
  }
  if (tvr !== undefined) facts.tvr = tvr
  if (tsi !== undefined) facts.tsi = tsi
  return facts
}

/** A swipe or a card without CVM Results: a PIN entered at the pad, a signature otherwise, none for contactless. */
function withoutChip(card: { method: ReadMethod; onlinePin: boolean }): CardholderVerification {
  if (card.onlinePin) return 'pin'
  return card.method === 'contactlessChip' || card.method === 'contactlessMagstripe' ? 'none' : 'signature'
}

function tlvsOf(icCardData: string) {
  try {
    return decodeTlv(Buffer.from(icCardData, 'hex'), { padding: 'zeroOnly' })
  } catch {
    // icCardData the agent built itself; one that does not parse has no facts to print.
    return undefined
  }
}
