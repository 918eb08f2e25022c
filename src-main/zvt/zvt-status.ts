/**
 * What a sale looks like to a register (PA00P015 §3.2, status information `04 0F`): the result code
 * (BMP 27), the amount, trace, time and date, the chip card's sequence number (17), the masked card,
 * the terminal and merchant ids, the approval code, receipt and turnover numbers, the card's type and
 * name, and a TLV container with how the cardholder was verified (1F10), whether it was approved
 * online (1F11) and how the card was read (1F12). Built from the sale as the journal has it, so the same message can be built again after a
 * restart for a register that asks for it to be repeated (`84 9C`). Pure: the clock's reading is
 * passed in. Never a full card number or the expiry date (BMP 0E): the journal keeps neither.
 */
import type { SaleView } from '../../src-shared/contract'
import { apdu, type Apdu } from './zvt-apdu'
import { encodeAmount, encodeBcd, encodeMaskedPan } from './zvt-bcd'
import { bmp, encodeBmps, tlvBmp, type Bmp } from './zvt-bmp'
import { tlv, TLV, type TlvNode } from './zvt-tlv'

/** ISO 4217 numeric codes (BMP 49, Registration's CC) of the currencies a ZVT terminal meets. */
export const CURRENCY_NUMBERS: Readonly<Record<string, number>> = {
  EUR: 978,
  CHF: 756,
  GBP: 826,
  USD: 840,
  SEK: 752,
  DKK: 208,
  NOK: 578,
  PLN: 985,
  CZK: 203,
  HUF: 348,
}

/** Result codes (PA00P015 chapter 10, and the host's own codes passed through for a decline). */
export const RESULT = {
  approved: 0x00,
  /** The host declined ("do not honour"): what terminals report for a refused card. */
  declined: 0x05,
  abortedOrTimeout: 0x6c,
  wrongCurrency: 0x6f,
  endOfDayNotPossible: 0x77,
  functionNotPossible: 0x83,
  remoteNotAnswering: 0xa1,
  alreadyReversed: 0xb4,
  reversalNotPossible: 0xb5,
  maximumExceeded: 0xc3,
  systemError: 0xff,
} as const

/** Intermediate statuses (`04 FF`, PA00P015 chapter 10.2) the reader's steps are shown as. */
export const INTERMEDIATE = {
  insertCard: 0x0a,
  watchPinPad: 0x01,
  waitingForHost: 0x04,
  pleaseWait: 0x17,
  removeCard: 0x0b,
} as const

/** Sale states the register is answered in (the sale has ended for it); others are still at the counter. */
const RESULT_OF_STATE: Partial<Record<SaleView['state'], number>> = {
  approved: RESULT.approved,
  storedOffline: RESULT.approved,
  forwarded: RESULT.approved,
  capturePending: RESULT.approved,
  captured: RESULT.approved,
  creditPending: RESULT.approved,
  credited: RESULT.approved,
  declined: RESULT.declined,
  abandoned: RESULT.abortedOrTimeout,
  // The bank's answer did not come, or the card refused after it approved: reversed, nothing charged.
  reversalPending: RESULT.remoteNotAnswering,
  reversed: RESULT.remoteNotAnswering,
  needsAttention: RESULT.systemError,
  // Voided after it was approved: to the register that asks again, the payment no longer stands.
  cancelPending: RESULT.approved,
  cancelled: RESULT.approved,
  notReceived: RESULT.declined,
}

/** The result code of a sale that has ended for the register; undefined while it is at the counter. */
export function resultCodeOfSale(sale: Pick<SaleView, 'state' | 'cause'>): number | undefined {
  const code = RESULT_OF_STATE[sale.state]
  if (code === RESULT.remoteNotAnswering && sale.cause === 'cardRefused') return RESULT.declined
  return code
}

/** The prompt a register shows while the sale is in `state` (`04 FF`); undefined when there is none to show. */
export function intermediateStatusOf(state: SaleView['state']): number | undefined {
  switch (state) {
    case 'readingCard':
    case 'voidReadingCard':
    case 'returnReadingCard':
      return INTERMEDIATE.insertCard
    case 'sending':
      return INTERMEDIATE.waitingForHost
    case 'completingCard':
    case 'awaitingConfirmation':
      return INTERMEDIATE.pleaseWait
    default:
      return undefined
  }
}

/** A sale's receipt number (BMP 87, four digits): its number counted round 1–9999. */
export const receiptOf = (number: number): number => ((number - 1) % 9999) + 1

export interface StatusContext {
  /** The sale's number on this terminal: its trace and turnover record number, and its receipt number counted round. */
  number: number
  terminalId: string
  merchantId: string
  /** The sale's time as the terminal's clock reads it locally. */
  at: { month: number; day: number; hours: number; minutes: number; seconds: number }
  /** Training mode: BMP 3C says so, for the register's receipt. */
  training: boolean
}

/** `04 0F` for a sale that has ended for the register. */
export function statusInformation(sale: SaleView, context: StatusContext): Apdu {
  return apdu(0x04, 0x0f, encodeBmps(statusFields(sale, context)))
}

export function statusFields(sale: SaleView, context: StatusContext): Bmp[] {
  const code = resultCodeOfSale(sale) ?? RESULT.systemError
  const two = (n: number): string => String(n).padStart(2, '0')
  // The amount charged: with the tip a Book Total or Book Tip set (restaurant mode).
  const fields: Bmp[] = [bmp(0x27, [code]), bmp(0x04, encodeAmount(sale.amountMinor + sale.tipMinor))]
  const approved = code === RESULT.approved
  fields.push(bmp(0x0b, encodeBcd(context.number % 1_000_000, 3)))
  fields.push(bmp(0x0c, encodeBcd(`${two(context.at.hours)}${two(context.at.minutes)}${two(context.at.seconds)}`, 3)))
  fields.push(bmp(0x0d, encodeBcd(`${two(context.at.month)}${two(context.at.day)}`, 2)))
  // BMP 0E, the expiry date, is never sent: it is cardholder data, sealed and purged once the payment is authorised.
  if (sale.cardSequence && /^\d{1,4}$/.test(sale.cardSequence)) fields.push(bmp(0x17, encodeBcd(Number(sale.cardSequence), 2)))
  if (approved) fields.push(bmp(0x19, [sale.offline ? 0x40 : sale.cvm === 'pin' || sale.cvm === 'pinAndSignature' ? 0x70 : 0x60]))
  if (sale.maskedPan) {
    const pan = encodeMaskedPan(sale.maskedPan)
    fields.push(bmp(0x22, pan))
  }
  // BMP 29 is 8 BCD digits; a terminal id of another form is left out rather than invented.
  if (/^\d{1,8}$/.test(context.terminalId)) fields.push(bmp(0x29, encodeBcd(context.terminalId, 4)))
  fields.push(bmp(0x2a, ascii(context.merchantId, 15, 0x20)))
  if (approved && sale.authCode) fields.push(bmp(0x3b, ascii(sale.authCode, 8, 0x00)))
  if (context.training) fields.push(bmp(0x3c, new TextEncoder().encode('TRAINING - NOT A VALID TRANSACTION')))
  const currency = CURRENCY_NUMBERS[sale.currency]
  if (currency !== undefined) fields.push(bmp(0x49, encodeBcd(currency, 2)))
  fields.push(bmp(0x87, encodeBcd(receiptOf(context.number), 2)))
  const cardType = sale.brand ? CARD_TYPES[sale.brand.toLowerCase()] : undefined
  if (cardType !== undefined) fields.push(bmp(0x8a, [cardType]))
  if (sale.brand) fields.push({ bmp: 0x8b, value: ascii(sale.brand, Math.min(sale.brand.length, 40), 0x20) })
  if (sale.applicationId && /^[0-9A-Fa-f]{10,32}$/.test(sale.applicationId))
    fields.push(bmp(0xba, Uint8Array.from(Buffer.from(sale.applicationId.slice(0, 10), 'hex'))))
  const nodes = tlvOf(sale, approved)
  if (nodes.length > 0) fields.push(tlvBmp(nodes))
  // Last: BMPs may come in any order, and a reader that does not know 88 (Wireshark's dissector) reads all before it.
  fields.push(bmp(0x88, encodeBcd(context.number % 1_000_000, 3)))
  return fields
}

/** ZVT card types (BMP 8A; the values Wireshark's dissector names). */
const CARD_TYPES: Readonly<Record<string, number>> = { girocard: 5, mastercard: 6, visa: 10 }

const CVM: Readonly<Record<string, number>> = { none: 0x00, signature: 0x01, pin: 0x03, pinAndSignature: 0x05 }
const TECHNOLOGY: Readonly<Record<string, number>> = {
  swipe: 0x00,
  fallbackSwipe: 0x00,
  chip: 0x01,
  contactlessChip: 0x02,
  contactlessMagstripe: 0x02,
}

function tlvOf(sale: SaleView, approved: boolean): TlvNode[] {
  const nodes: TlvNode[] = []
  if (sale.cvm !== undefined) nodes.push(tlv(TLV.cardholderAuthentication, [CVM[sale.cvm] ?? 0xff]))
  // Approved without the bank (stored, forwarded later): the register learns it is not yet online-approved.
  if (approved) nodes.push(tlv(TLV.onlineFlag, [sale.offline ? 0x00 : 0x01]))
  const technology = sale.readMethod ? TECHNOLOGY[sale.readMethod] : undefined
  if (technology !== undefined) nodes.push(tlv(TLV.cardType, [technology]))
  return nodes
}

/** Printable ASCII of `text`, cut or padded with `pad` to `length` bytes. */
function ascii(text: string, length: number, pad: number): Uint8Array {
  const out = new Uint8Array(length).fill(pad)
  const bytes = [...text].map((c) => (c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f ? c.charCodeAt(0) : 0x3f))
  out.set(bytes.slice(0, length), 0)
  return out
}
