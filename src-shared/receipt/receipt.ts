/**
 * The receipt of a card transaction, as lines: one model for every place a receipt goes (the screen's
 * printable copy, the receipt printer, an email, the nexo PaymentReceipt). What it carries follows the
 * card brands' receipt rules (the public "Visa Core Rules and Visa Product and Service Rules", its
 * transaction receipt requirements) and the chip data EMV terminals print (EMV 4.4 Book 4), as
 * docs/receipts.md lists them: merchant name, address and id; terminal id; local date and time; the
 * transaction type; the masked card number, brand and entry mode; for chip, the AID and application
 * label, with TVR and TSI; the cardholder verification; the authorisation code and the outcome;
 * offline approvals marked; a merchant and a customer copy; training receipts marked as not valid.
 * Never the expiry date: no field of SaleView carries it, so no receipt can print it.
 */
import { formatAmount, isKnownCurrency } from '../money'
import type { AppInfo, SaleView } from '../contract'
import { CHARGED, bankUnreachable, plainReason, readMethodWords, saleWords, showsAuthCode } from '../sale'

export type ReceiptCopy = 'merchant' | 'customer'

/** What the receipt is the record of: a sale, its void, a tip added later, a return. */
export type ReceiptKind = 'SALE' | 'VOID' | 'TIP' | 'RETURN'

export type ReceiptLine =
  /** A heading line, printed large and centred. */
  | { kind: 'title'; text: string }
  /** A line of its own, centred; `strong` lines are printed bold. */
  | { kind: 'text'; text: string; strong?: boolean }
  /** A label and its value, on one line where they fit. */
  | { kind: 'field'; label: string; value: string; strong?: boolean }
  /** A separator. */
  | { kind: 'rule' }
  /** Room for the cardholder's signature, and the line to sign on. */
  | { kind: 'signature' }

/** Anything printed as lines on the receipt printer: a receipt, a day report. */
export interface Slip {
  lines: ReceiptLine[]
}

export interface Receipt extends Slip {
  copy: ReceiptCopy
  kind: ReceiptKind
}

/** Who issued the receipt: the merchant's header. */
export interface ReceiptMerchant {
  name: string
  addressLines: readonly string[]
  merchantId: string
  terminalId: string
  /** Training mode: every receipt says it is not a valid transaction. */
  training: boolean
}

export const TRAINING_LINE = 'TRAINING – NOT A VALID TRANSACTION'

/** The kind a sale's receipt is by default: a voided sale's receipt is the void's; a return's is a RETURN. */
export function receiptKindOf(sale: Pick<SaleView, 'state' | 'kind'>): ReceiptKind {
  if (sale.kind === 'return') return 'RETURN'
  return sale.state === 'cancelled' || sale.state === 'cancelPending' ? 'VOID' : 'SALE'
}

/** Both copies, merchant first, as a printer prints them. */
export function receiptCopies(sale: SaleView, merchant: ReceiptMerchant, kind: ReceiptKind = receiptKindOf(sale)): Receipt[] {
  return [buildReceipt(sale, merchant, 'merchant', kind), buildReceipt(sale, merchant, 'customer', kind)]
}

export function buildReceipt(
  sale: SaleView,
  merchant: ReceiptMerchant,
  copy: ReceiptCopy,
  kind: ReceiptKind = receiptKindOf(sale),
): Receipt {
  const lines: ReceiptLine[] = []
  const add = (line: ReceiptLine | undefined): void => void (line && lines.push(line))
  const field = (label: string, value: string | undefined, strong?: boolean): ReceiptLine | undefined =>
    value ? { kind: 'field', label, value, ...(strong ? { strong } : {}) } : undefined

  if (merchant.training) add({ kind: 'text', text: TRAINING_LINE, strong: true })
  add({ kind: 'title', text: merchant.name })
  for (const text of merchant.addressLines) add({ kind: 'text', text })
  add(field('Merchant ID', merchant.merchantId))
  add(field('Terminal', merchant.terminalId))
  add(field('Date', localDateTime(sale.createdAt)))
  add(field('Operator', sale.operatorId))
  add({ kind: 'rule' })

  add({ kind: 'text', text: kind, strong: true })
  add(field('Card', [sale.brand, sale.maskedPan].filter(Boolean).join(' ') || undefined))
  add(field('Entry', sale.readMethod ? readMethodWords(sale.readMethod) : undefined))
  add(field('Application', sale.applicationLabel))
  add(field('AID', sale.applicationId))
  add(field('TVR', sale.tvr))
  add(field('TSI', sale.tsi))
  add({ kind: 'rule' })

  if (kind === 'RETURN') {
    // A return credits the customer: the amount credited, and the sale it returns when there is one.
    add(field('Original sale', sale.originalId))
    add(field('CREDIT', money(sale.amountMinor, sale.currency), true))
  } else {
    add(field(kind === 'TIP' ? 'Base amount' : 'Amount', money(sale.amountMinor, sale.currency)))
    if (sale.tipMinor > 0 || kind === 'TIP') add(field('Tip', money(sale.tipMinor, sale.currency)))
    add(field('TOTAL', money(sale.amountMinor + sale.tipMinor, sale.currency), true))
  }
  add({ kind: 'rule' })

  const { outcome, detail } = outcomeWords(sale, kind, copy)
  add({ kind: 'text', text: outcome, strong: true })
  if (detail) add({ kind: 'text', text: detail })
  add(field('Auth code', showsAuthCode(sale) || kind === 'VOID' ? sale.authCode : undefined))
  add(field('Reference', sale.svcTransID))
  add(field('Transaction', sale.id))
  for (const line of verificationLines(sale, copy, outcome)) add(line)
  add({ kind: 'rule' })

  add({ kind: 'text', text: copy === 'merchant' ? 'MERCHANT COPY' : 'CUSTOMER COPY', strong: true })
  add({ kind: 'text', text: copy === 'merchant' ? 'Keep this copy.' : 'Please keep this copy for your records.' })
  if (merchant.training) add({ kind: 'text', text: TRAINING_LINE, strong: true })
  return { copy, kind, lines }
}

/**
 * What a copy says about a payment that did not go through, to whom it is for: the customer's copy
 * speaks to the customer ("you"), the store's copy says what happened to the money. Instructions to the
 * cashier (charge again) are for the screen, never the slip.
 */
const NOT_PAID_WORDS: Partial<Record<SaleView['state'], Readonly<Record<ReceiptCopy, string>>>> = {
  reversalPending: {
    merchant: 'Not paid: the charge is being reversed.',
    customer: 'This payment did not go through. Its charge is being reversed: you do not pay for it.',
  },
  reversed: {
    merchant: 'Not paid: the charge was reversed.',
    customer: 'This payment did not go through and its charge was reversed: you do not pay for it.',
  },
  abandoned: {
    merchant: 'Stopped before reaching the bank. Nothing was charged.',
    customer: 'This payment did not go through. You were not charged.',
  },
  cancelled: { merchant: 'The customer does not pay for this sale.', customer: 'You do not pay for this sale.' },
  // Reached only for a sale refused because the bank could not be reached (a decline returns earlier).
  declined: {
    merchant: 'The bank could not be reached. Nothing was charged.',
    customer: 'The bank could not be reached. You were not charged.',
  },
}

/** The outcome in capitals, as receipts print it, and a plain sentence when there is more to say. */
function outcomeWords(sale: SaleView, kind: ReceiptKind, copy: ReceiptCopy): { outcome: string; detail?: string } {
  if (kind === 'RETURN') {
    if (sale.state === 'credited') return { outcome: 'CREDITED', detail: 'The amount is credited back to the card.' }
    if (sale.state === 'creditPending')
      return { outcome: 'CREDIT PENDING', detail: 'Stored on this terminal, sent to the bank automatically.' }
  }
  if (kind === 'VOID') {
    return sale.state === 'cancelled'
      ? { outcome: 'VOIDED', detail: NOT_PAID_WORDS.cancelled![copy] }
      : { outcome: 'VOID PENDING', detail: 'The void is stored and will be sent to the bank.' }
  }
  if (sale.state === 'storedOffline') return { outcome: 'APPROVED OFFLINE', detail: 'Stored on this terminal, sent to the bank later.' }
  if (CHARGED.has(sale.state)) return { outcome: sale.offline ? 'APPROVED OFFLINE' : 'APPROVED' }
  if (sale.state === 'declined' && !bankUnreachable(sale)) {
    return { outcome: 'DECLINED', ...(sale.reason ? { detail: plainReason(sale.reason) } : {}) }
  }
  const words = saleWords(sale)
  const notPaid = NOT_PAID_WORDS[sale.state]?.[copy]
  return { outcome: words.title.toUpperCase(), detail: notPaid ?? words.detail }
}

/**
 * The cardholder verification line: "PIN VERIFIED", a signature line on the merchant's copy (the
 * copy the store keeps), or "NO CVM REQUIRED". Only a payment that went through was verified at all.
 */
function verificationLines(sale: SaleView, copy: ReceiptCopy, outcome: string): ReceiptLine[] {
  if (!sale.cvm || !outcome.startsWith('APPROVED')) return []
  const lines: ReceiptLine[] = []
  if (sale.cvm === 'pin' || sale.cvm === 'pinAndSignature') lines.push({ kind: 'text', text: 'PIN VERIFIED' })
  if (sale.cvm === 'signature' || sale.cvm === 'pinAndSignature') {
    if (copy === 'merchant') lines.push({ kind: 'signature' })
    else lines.push({ kind: 'text', text: 'SIGNATURE ON MERCHANT COPY' })
  }
  if (sale.cvm === 'none') lines.push({ kind: 'text', text: 'NO CVM REQUIRED' })
  return lines
}

/** "USD 1,234.56": the ISO code and grouped thousands. */
export function money(minor: number, currency: string): string {
  if (!isKnownCurrency(currency) || !Number.isSafeInteger(minor)) return `${currency} ${minor}`
  const [whole = '', fraction] = formatAmount(minor, currency).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${currency} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`
}

/** The terminal's local date and time, as a receipt prints it: 2026-11-24 14:05. */
export function localDateTime(ms: number): string {
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`
}

/** A receipt as plain text of `columns` characters a line: the email's body, the nexo lines, a log. */
export function receiptText(receipt: Slip, columns = 40): string[] {
  return receipt.lines.flatMap((line) => lineText(line, columns))
}

/**
 * One receipt line as text of at most `columns` characters a line: text centred (wrapped at spaces),
 * a field's label left and value right (the value on lines of its own when both do not fit), a rule
 * of dashes, the signature as room and a line to sign on. The printer lays lines out the same way.
 */
export function lineText(line: ReceiptLine, columns: number): string[] {
  switch (line.kind) {
    case 'title':
    case 'text':
      return wrap(line.text, columns).map((part) => ' '.repeat(Math.max(0, Math.floor((columns - part.length) / 2))) + part)
    case 'field': {
      const gap = columns - line.label.length - line.value.length
      if (gap >= 1) return [line.label + ' '.repeat(gap) + line.value]
      return [line.label, ...wrap(line.value, columns).map((part) => part.padStart(columns))]
    }
    case 'rule':
      return ['-'.repeat(columns)]
    case 'signature':
      return ['', '', 'X' + '_'.repeat(columns - 1), 'Cardholder signature']
  }
}

/** Splits text at spaces into lines of at most `columns` characters (a longer word is cut). */
export function wrap(text: string, columns: number): string[] {
  const lines: string[] = []
  let current = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word
    while (rest.length > columns) {
      if (current) lines.push(current)
      lines.push(rest.slice(0, columns))
      rest = rest.slice(columns)
      current = ''
    }
    if (!current) current = rest
    else if (current.length + 1 + rest.length <= columns) current += ` ${rest}`
    else {
      lines.push(current)
      current = rest
    }
  }
  if (current) lines.push(current)
  return lines
}

/** The receipt header of this terminal, from what the agent tells every screen (AppInfo). */
export function receiptMerchantOf(
  info: Pick<AppInfo, 'storeName' | 'storeAddress' | 'merchantId' | 'terminalId' | 'mode'>,
): ReceiptMerchant {
  return {
    name: info.storeName ?? info.merchantId,
    addressLines: info.storeAddress,
    merchantId: info.merchantId,
    terminalId: info.terminalId,
    training: info.mode === 'training',
  }
}
