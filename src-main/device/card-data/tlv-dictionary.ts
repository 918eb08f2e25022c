/**
 * Names of the EMV tags the agent meets in DE 55 (docs/card-reader.md §2.2, EMV 4.x Book 3 Annex A), for
 * logs and the device screen. `authorization` marks the tags normally sent with an ARQC; `sad` marks
 * sensitive authentication data and the cardholder data that travels in its own ISO 8583 field, which
 * must never be copied into icCardData (docs/card-reader.md §2.2 "Tags that must not be sent").
 */

export interface TagInfo {
  name: string
  /** EMV format: b binary, n numeric BCD, an alphanumeric, cn compressed numeric, ans. */
  format: string
  authorization?: true
  sad?: true
}

const auth = (name: string, format: string): TagInfo => ({ name, format, authorization: true })
const sad = (name: string, format: string): TagInfo => ({ name, format, sad: true })

export const TLV_DICTIONARY: ReadonlyMap<string, TagInfo> = new Map<string, TagInfo>([
  // Sent in an ARQC authorization request (docs/card-reader.md §2.2, in that table's order).
  ['9F26', auth('Application Cryptogram', 'b')],
  ['9F27', auth('Cryptogram Information Data', 'b')],
  ['9F10', auth('Issuer Application Data', 'b')],
  ['9F37', auth('Unpredictable Number', 'b')],
  ['9F36', auth('Application Transaction Counter', 'b')],
  ['95', auth('Terminal Verification Results', 'b')],
  ['9A', auth('Transaction Date', 'n')],
  ['9C', auth('Transaction Type', 'n')],
  ['9F02', auth('Amount, Authorised', 'n')],
  ['9F03', auth('Amount, Other', 'n')],
  ['5F2A', auth('Transaction Currency Code', 'n')],
  ['82', auth('Application Interchange Profile', 'b')],
  ['9F1A', auth('Terminal Country Code', 'n')],
  ['9F33', auth('Terminal Capabilities', 'b')],
  ['9F34', auth('CVM Results', 'b')],
  ['9F35', auth('Terminal Type', 'n')],
  ['9F1E', auth('Interface Device Serial Number', 'an')],
  ['84', auth('Dedicated File Name', 'b')],
  ['9F09', auth('Application Version Number (terminal)', 'b')],
  ['9F41', auth('Transaction Sequence Counter', 'n')],
  ['5F34', auth('PAN Sequence Number', 'n')],
  ['4F', auth('Application Identifier (card)', 'b')],
  ['9F53', auth('Transaction Category Code', 'an')],
  ['9F6E', auth('Form Factor Indicator / Third Party Data', 'b')],
  ['9F66', auth('Terminal Transaction Qualifiers', 'b')],
  ['9F7C', auth('Customer Exclusive Data', 'b')],
  // Response, reversal and advice (docs/card-reader.md §2.2).
  ['8A', { name: 'Authorisation Response Code', format: 'an' }],
  ['9B', { name: 'Transaction Status Information', format: 'b' }],
  ['91', { name: 'Issuer Authentication Data', format: 'b' }],
  ['71', { name: 'Issuer Script Template 1', format: 'b' }],
  ['72', { name: 'Issuer Script Template 2', format: 'b' }],
  ['9F5B', { name: 'Issuer Script Results', format: 'b' }],
  // Never in DE 55: they travel in DE 2/14/35/52 or are SAD (docs/card-reader.md §2.2, CyberSource list).
  ['56', sad('Track 1 Equivalent Data', 'ans')],
  ['57', sad('Track 2 Equivalent Data', 'b')],
  ['5A', sad('Application PAN', 'cn')],
  ['5F20', sad('Cardholder Name', 'ans')],
  ['5F24', sad('Application Expiration Date', 'n')],
  ['99', sad('Transaction PIN Data', 'b')],
  ['9F0B', sad('Cardholder Name Extended', 'ans')],
  ['9F1F', sad('Track 1 Discretionary Data', 'ans')],
  ['9F20', sad('Track 2 Discretionary Data', 'cn')],
  // Templates and other tags seen around DE 55 data.
  ['50', { name: 'Application Label', format: 'ans' }],
  ['70', { name: 'READ RECORD Response Message Template', format: 'b' }],
  ['77', { name: 'Response Message Template Format 2', format: 'b' }],
  ['9F39', { name: 'POS Entry Mode', format: 'n' }],
])

export function tagName(tag: string): string | undefined {
  return TLV_DICTIONARY.get(tag.toUpperCase())?.name
}

/** The §2.2 authorization tags, in the order of that table. */
export const AUTHORIZATION_TAGS: readonly string[] = [...TLV_DICTIONARY].filter(([, info]) => info.authorization).map(([tag]) => tag)

/** Tags that must never be copied into icCardData. */
export const SAD_TAGS: readonly string[] = [...TLV_DICTIONARY].filter(([, info]) => info.sad).map(([tag]) => tag)

/**
 * What the card's 2nd GENERATE AC (NEO 2 60-12) leaves that the forwarded icCardData of a chip sale
 * carries in place of the read's values (docs/card-reader.md §2.5): the final cryptogram (9F26), its
 * type (9F27: 40 TC, 00 AAC), the counter it was made with (9F36), the terminal's verification and
 * status results after completion (95, 9B), the issuer application data of the final cryptogram
 * (9F10) and the final authorisation response code (8A, EMV 4.4 Book 4 Annex A6).
 */
export const COMPLETION_TAGS: readonly string[] = ['9F26', '9F27', '9F36', '95', '9B', '9F10', '8A']
