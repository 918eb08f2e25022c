/**
 * What the simulated NEO 2 answers for a card, in the layouts the driver reads
 * (docs/device-protocol.md §7): Attribution + TLVs for 02-40, Result code + Attribution + TLVs for
 * 60-11/60-12. Plaintext output (attribution bits 7/6 = 00, no DFEE12): the training reader has no
 * data-encryption key loaded (D7.5). Cryptograms are random bytes: no issuer checks them.
 */
import { randomBytes } from 'node:crypto'
import { encodeTlv } from '../../device/card-data'
import type { TlvInput } from '../../device/card-data'
import type { SimCard } from './test-cards'

/** Attribution bits 4/3/0 (IDG p.232): contact 000, CTLS EMV 001, MSR 01x. */
export const ATTRIBUTION = { contact: 0x00, contactlessEmv: 0x01, magstripe: 0x08 } as const
/** 9F39 POS entry mode values the NEO 2 reports (docs/neo2-protocol.md §3.4). */
const ENTRY_MODE = { contact: 0x05, contactlessEmv: 0x07, swipe: 0x90, fallback: 0x80 } as const

/** The 02-40 request as the simulator understood it: echoed into the card's data like a kernel does. */
export interface ActivationParams {
  timeoutSeconds: number
  interfaces: number
  fallback: boolean
  amount: Buffer
  currency: Buffer
  transactionType: number
}

/** Keeps track 2 within its 37 data characters for PANs up to 19 digits (docs/card-reader.md §3). */
const DISCRETIONARY = '1000000'

export function track1Text(card: SimCard): string {
  return `%B${card.pan}^${card.cardholder}^${card.expiry}${card.serviceCode}${DISCRETIONARY}?`
}

export function track2Text(card: SimCard): string {
  return `;${card.pan}=${card.expiry}${card.serviceCode}${DISCRETIONARY}?`
}

/** Tag 57: packed BCD, D separator, F pad (docs/card-reader.md §3). */
export function tag57(card: SimCard): Buffer {
  const nibbles = `${card.pan}D${card.expiry}${card.serviceCode}${DISCRETIONARY}`
  return Buffer.from(nibbles.length % 2 === 0 ? nibbles : `${nibbles}F`, 'hex')
}

const tlv = (tag: string, value: Buffer | string): TlvInput => ({
  tag,
  value: typeof value === 'string' ? Buffer.from(value, 'hex') : value,
})
const ascii = (text: string): Buffer => Buffer.from(text, 'latin1')

function withAttribution(attribution: number, items: TlvInput[]): Buffer {
  return Buffer.concat([Buffer.from([attribution]), encodeTlv(items)])
}

function contactResult(resultCode: number, items: TlvInput[]): Buffer {
  const head = Buffer.alloc(3)
  head.writeUInt16BE(resultCode, 0)
  head[2] = ATTRIBUTION.contact
  return Buffer.concat([head, encodeTlv(items)])
}

/** A swipe: plaintext tracks in DFEF17/DFEF18, 9F39 90 (or 80 after a failed chip with fallback on). */
export function swipeAnswer(card: SimCard, fallback: boolean): Buffer {
  return withAttribution(ATTRIBUTION.magstripe, [
    tlv('DFEF17', ascii(track1Text(card))),
    tlv('DFEF18', ascii(track2Text(card))),
    tlv('9F39', Buffer.from([fallback ? ENTRY_MODE.fallback : ENTRY_MODE.swipe])),
    // Track data source in the ViVOpay group: DFEE30 as ID TECH's QA scripts read it (docs/neo2-protocol.md §3.4).
    { tag: 'FFEE01', children: [tlv('DFEE30', '0C')] },
  ])
}

/** Application data a chip shares with the terminal, including SAD tags the agent must filter out. */
function chipRecords(card: SimCard, entryMode: number): TlvInput[] {
  const pan = card.pan.length % 2 === 0 ? card.pan : `${card.pan}F`
  return [
    tlv('9F39', Buffer.from([entryMode])),
    tlv('57', tag57(card)),
    tlv('5A', pan),
    tlv('5F24', `${card.expiry}31`),
    tlv('5F20', ascii(card.cardholder)),
    tlv('5F34', card.panSequence ?? '01'),
    tlv('4F', card.aid ?? 'A0000000031010'),
    tlv('50', ascii(card.label ?? 'CREDIT')),
    tlv('84', card.aid ?? 'A0000000031010'),
  ]
}

function today(now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(now.getFullYear() % 100)}${two(now.getMonth() + 1)}${two(now.getDate())}`
}

function atcBytes(atc: number): Buffer {
  const bytes = Buffer.alloc(2)
  bytes.writeUInt16BE(atc & 0xffff, 0)
  return bytes
}

/** TVR: "online PIN entered" (byte 3 bit 4) for a PIN card, nothing else to report. */
const tvr = (card: SimCard): string => (card.onlinePin ? '0000008000' : '0000000000')

/**
 * Visa-style Issuer Application Data: length 06, key index 01, CVN 0A, then the CVR whose byte 2
 * says which cryptograms the card made (bits 8-7 second GENERATE AC: 00 AAC, 01 TC, 10 none; bits
 * 6-5 first: 10 ARQC), as the Visa Integrated Circuit Card Specification's Card Verification
 * Results define them.
 */
const ISSUER_APPLICATION_DATA = { arqc: '06010A03A00000', tc: '06010A03600000', aac: '06010A03200000' } as const

/** First GENERATE AC → ARQC, with the transaction data the kernel signed. */
function arqcData(card: SimCard, params: ActivationParams, atc: number, now: Date): TlvInput[] {
  const cvm = card.onlinePin ? '420300' : '1F0002'
  return [
    tlv('9F26', randomBytes(8)),
    tlv('9F27', '80'),
    tlv('9F10', ISSUER_APPLICATION_DATA.arqc),
    tlv('9F37', randomBytes(4)),
    tlv('9F36', atcBytes(atc)),
    tlv('95', tvr(card)),
    tlv('9A', today(now)),
    tlv('9C', Buffer.from([params.transactionType])),
    tlv('9F02', params.amount),
    tlv('9F03', '000000000000'),
    tlv('5F2A', params.currency),
    tlv('82', '1980'),
    tlv('9F1A', params.currency),
    tlv('9F33', 'E0F8C8'),
    tlv('9F34', cvm),
    tlv('9F35', '22'),
    tlv('9F1E', ascii('SIMNEO02')),
  ]
}

/** 02-40 on a contact chip: application selected and records read; 60-11 comes next. */
export function contactSelectAnswer(card: SimCard): Buffer {
  return withAttribution(ATTRIBUTION.contact, chipRecords(card, ENTRY_MODE.contact))
}

/** 60-11: result 0004 "go online" with the ARQC data. */
export function authenticateAnswer(card: SimCard, params: ActivationParams, atc: number, now: Date): Buffer {
  return contactResult(0x0004, arqcData(card, params, atc, now))
}

/** 02-40 on a tap: status 23 Request Online Authorization with records and ARQC together. */
export function contactlessAnswer(card: SimCard, params: ActivationParams, atc: number, now: Date): Buffer {
  return withAttribution(ATTRIBUTION.contactlessEmv, [...chipRecords(card, ENTRY_MODE.contactlessEmv), ...arqcData(card, params, atc, now)])
}

/**
 * 60-12: second GENERATE AC → TC (result 0002) or AAC (0003), made with the same ATC as the first
 * (one transaction, one counter value), and the 8A the terminal sent. TSI E800: offline data
 * authentication, cardholder verification, card and terminal risk management performed.
 */
export function completionAnswer(card: SimCard, approved: boolean, authorizationResponseCode: Buffer, atc: number): Buffer {
  return contactResult(approved ? 0x0002 : 0x0003, [
    tlv('9F27', approved ? '40' : '00'),
    tlv('9F26', randomBytes(8)),
    tlv('9F36', atcBytes(atc)),
    tlv('95', tvr(card)),
    tlv('9B', 'E800'),
    tlv('9F10', approved ? ISSUER_APPLICATION_DATA.tc : ISSUER_APPLICATION_DATA.aac),
    tlv('8A', authorizationResponseCode),
  ])
}

/**
 * Where a failure record goes (docs/neo2-protocol.md §3.2): `FFEE1F` holding the 4 bytes (the IDG's
 * table, p.232), `DFEE02` at the top level (ID TECH's QA scripts), or `DFEE02` inside `FFEE1F`.
 */
export const FAILURE_RECORD_LAYOUTS = ['FFEE1F', 'DFEE02', 'DFEE02inFFEE1F'] as const
export type FailureRecordLayout = (typeof FAILURE_RECORD_LAYOUTS)[number]

export interface FailureRecord {
  errorCode: number
  /** SW1 SW2 the card returned, 0000 when there was none. */
  sw?: number
  rfState?: number
}

/** 0A answer: Attribution + the error record (error code, SW1, SW2, RF state) in `layout`. */
export function failureAnswer(attribution: number, record: FailureRecord, layout: FailureRecordLayout = 'FFEE1F'): Buffer {
  const sw = record.sw ?? 0
  const bytes = Buffer.from([record.errorCode, (sw >> 8) & 0xff, sw & 0xff, record.rfState ?? 0])
  const item: TlvInput =
    layout === 'FFEE1F'
      ? { tag: 'FFEE1F', value: bytes }
      : layout === 'DFEE02'
        ? { tag: 'DFEE02', value: bytes }
        : { tag: 'FFEE1F', value: encodeTlv([{ tag: 'DFEE02', value: bytes }]) }
  return withAttribution(attribution, [item])
}
