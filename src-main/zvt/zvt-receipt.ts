/**
 * The card receipt for a register that prints it (PA00P015 §2.1, config byte bit 1): the terminal has
 * no printer of its own here, so the register gets the receipt's lines after the status information,
 * one `06 D1` Print Line each, or all of them in one `06 D3` Print Text Block when its config byte
 * asked for text blocks (bit 7). Two receipts, as a card terminal prints them: the merchant's copy
 * first (kept in the till, with the signature line when the card asked for one), then the customer's.
 * Built from the sale as the journal has it, so a repeated receipt (`06 20`) after a restart has the
 * same lines. Pure; never a full card number (the journal has none).
 */
import type { SaleView } from '../../src-shared/contract'
import { apdu, type Apdu } from './zvt-apdu'
import { encodeBmps, tlvBmp } from './zvt-bmp'
import { RESULT, resultCodeOfSale, receiptOf, type StatusContext } from './zvt-status'
import { tlv, TLV } from './zvt-tlv'

/** Characters a register's receipt printer prints on a line when `zvt.receiptWidth` does not say. */
export const RECEIPT_WIDTH = 40
/** The narrowest and widest lines a register's printer takes (58 mm paper prints 24–32, 80 mm 40–48; some 56). */
export const RECEIPT_WIDTH_RANGE = { min: 24, max: 56 } as const

/** Which of the two receipts: the merchant's (kept) or the customer's (handed over). */
export type ReceiptCopy = 'merchant' | 'customer'

/** Print Line attribute (PA00P015 §3.5): `80` marks the last line of the receipt, `00` an ordinary one. */
const LAST_LINE = 0x80
/** Receipt type (TLV 1F07): `01` the merchant's receipt, `02` the customer's. */
const RECEIPT_TYPE: Readonly<Record<ReceiptCopy, number>> = { merchant: 0x01, customer: 0x02 }

/** One receipt of a sale that has ended for the register, one string a line of at most `width` characters. */
export function receiptLines(sale: SaleView, context: StatusContext, copy: ReceiptCopy = 'customer', width = RECEIPT_WIDTH): string[] {
  const code = resultCodeOfSale(sale) ?? RESULT.systemError
  const two = (n: number): string => String(n).padStart(2, '0')
  const pair = (label: string, value: string): string => `${label}${' '.repeat(Math.max(1, width - label.length - value.length))}${value}`
  const lines: string[] = []
  if (context.training) lines.push('TRAINING - NOT A VALID TRANSACTION')
  lines.push(copy === 'merchant' ? 'MERCHANT COPY' : 'CUSTOMER COPY')
  lines.push(sale.kind === 'return' ? 'REFUND' : 'CARD PAYMENT')
  lines.push(pair('Merchant', context.merchantId))
  lines.push(pair('Terminal', context.terminalId))
  lines.push(pair('Date', `${two(context.at.day)}.${two(context.at.month)}. ${two(context.at.hours)}:${two(context.at.minutes)}`))
  lines.push(pair('Receipt', String(receiptOf(context.number))))
  lines.push(pair('Trace', String(context.number % 1_000_000)))
  if (sale.brand) lines.push(pair('Card', sale.brand))
  if (sale.maskedPan) lines.push(pair('Card number', sale.maskedPan.replace(/[^0-9]/g, '*')))
  if (sale.tipMinor > 0) {
    lines.push(pair('Amount', `${formatMinor(sale.amountMinor)} ${sale.currency}`))
    lines.push(pair('Tip', `${formatMinor(sale.tipMinor)} ${sale.currency}`))
    lines.push(pair('Total', `${formatMinor(sale.amountMinor + sale.tipMinor)} ${sale.currency}`))
  } else lines.push(pair('Amount', `${formatMinor(sale.amountMinor)} ${sale.currency}`))
  if (code === RESULT.approved && sale.authCode) lines.push(pair('Approval code', sale.authCode))
  lines.push(
    code === RESULT.approved ? (sale.offline ? 'APPROVED (TO BE SENT TO THE BANK)' : 'APPROVED') : 'NOT APPROVED - NOTHING CHARGED',
  )
  // The card asked for a signature: the merchant's copy is where the customer signs, and it is kept.
  const signs = code === RESULT.approved && (sale.cvm === 'signature' || sale.cvm === 'pinAndSignature')
  if (copy === 'merchant' && signs) lines.push('', 'Cardholder signature', '', '_'.repeat(Math.min(width, 32)))
  return lines.map((line) => printable(line).slice(0, width))
}

/** Both receipts of a sale, the merchant's first, as a card terminal prints them. */
export function receiptsOf(sale: SaleView, context: StatusContext, width = RECEIPT_WIDTH): Array<{ copy: ReceiptCopy; lines: string[] }> {
  return (['merchant', 'customer'] as const).map((copy) => ({ copy, lines: receiptLines(sale, context, copy, width) }))
}

/** The lines as `06 D1` Print Line messages, the last one marked as such. */
export function printLines(lines: string[]): Apdu[] {
  return lines.map((line, index) => apdu(0x06, 0xd1, [index === lines.length - 1 ? LAST_LINE : 0x00, ...ascii(line)]))
}

/** The lines as one `06 D3` Print Text Block: TLV 25 (print texts) with the receipt type and a 07 per line. */
export function printTextBlock(lines: string[], copy: ReceiptCopy = 'customer'): Apdu {
  const texts = tlv(TLV.printTexts, [tlv(TLV.receiptType, [RECEIPT_TYPE[copy]]), ...lines.map((line) => tlv(TLV.textLines, ascii(line)))])
  return apdu(0x06, 0xd3, encodeBmps([tlvBmp([texts])]))
}

function formatMinor(minor: number): string {
  const whole = Math.floor(Math.abs(minor) / 100)
  return `${minor < 0 ? '-' : ''}${whole}.${String(Math.abs(minor) % 100).padStart(2, '0')}`
}

/** Printable ASCII only: a receipt printer prints nothing else reliably. */
function printable(text: string): string {
  return [...text].map((c) => (c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f ? c : '?')).join('')
}

const ascii = (line: string): Uint8Array => Uint8Array.from([...line].map((c) => c.charCodeAt(0)))
