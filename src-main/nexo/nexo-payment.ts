/**
 * A sale as nexo reports a payment: the PaymentResponse body (result, the POI's transaction id, the
 * masked card and how it was read, the approval code and the host's transaction id, the receipts),
 * for the Payment answer and for TransactionStatus, which repeats it. docs/nexo.md says which sale
 * state gives which Result and ErrorCondition.
 */
import type { SaleView } from '../../src-shared/contract'
import { formatAmount, minorUnitDigits, parseAmount } from '../../src-shared/money'
import { buildReceipt, receiptText, type ReceiptMerchant } from '../../src-shared/receipt'
import { plainReason, saleWords, type SaleCause, type SaleState } from '../../src-shared/sale'
import { failure, success, type ErrorCondition, type NexoResult, type TransactionIdentification } from './nexo-messages'

/** Characters per line of the receipt text: an 80 mm printer (48 columns) and a 58 mm one in its small font (42) print it unwrapped. */
const NEXO_RECEIPT_COLUMNS = 40

/** Sale states a payment ends in for the POS, and what nexo calls them. Other states are still at the counter. */
const OUTCOME: Partial<Record<SaleState, ErrorCondition | 'success'>> = {
  approved: 'success',
  storedOffline: 'success',
  forwarded: 'success',
  capturePending: 'success',
  captured: 'success',
  declined: 'Refusal',
  abandoned: 'Cancel',
  // The bank's answer did not come (or the terminal stopped waiting for it): reversed. A card that
  // refused after the bank approved is a Refusal instead (paymentResult).
  reversalPending: 'UnreachableHost',
  reversed: 'UnreachableHost',
  // Voided after the fact: the payment no longer stands.
  cancelPending: 'Refusal',
  cancelled: 'Refusal',
  needsAttention: 'UnavailableService',
  notReceived: 'Refusal',
  // A return (PaymentType Refund): its credit journaled stands, sent until the bank answers; never reversed.
  creditPending: 'success',
  credited: 'success',
}

/**
 * A payment that did not go through, by the cause the machine recorded where it happened (never by
 * reading its words back). nexo's Refusal is "refused by the host or the rules associated to the
 * card": the bank's decline, and the card's own refusal (AAC at its last word, after the bank approved
 * or with the bank unreachable), though the agent then reverses the bank's approval or never reached
 * the bank. A terminal stopped mid-payment is the terminal's failure, not the host's.
 */
const CAUSE_CONDITION: Readonly<Record<SaleCause, ErrorCondition>> = {
  bankDeclined: 'Refusal',
  bankRefusedMessage: 'Refusal',
  bankUnreachable: 'UnreachableHost',
  noAnswer: 'UnreachableHost',
  cardRefused: 'Refusal',
  interrupted: 'UnavailableService',
}

/** States whose nexo condition the cause decides, when the machine recorded one. */
const DECIDED_BY_CAUSE: ReadonlySet<SaleState> = new Set<SaleState>(['declined', 'reversalPending', 'reversed'])

/** How the card was read, as nexo's CardData.EntryMode names it. */
const ENTRY_MODE: Readonly<Record<string, string>> = {
  chip: 'ICC',
  contactlessChip: 'Contactless',
  contactlessMagstripe: 'Contactless',
  swipe: 'MagStripe',
  fallbackSwipe: 'MagStripe',
  keyed: 'Keyed',
}

export interface PaymentContext {
  terminalId: string
  merchantId: string
  storeName?: string | undefined
  storeAddress?: readonly string[] | undefined
  /** Training mode: the receipt says it is not a valid transaction. */
  training?: boolean | undefined
  /** The sale was stopped by an Abort from the POS (not by the cashier or the customer). */
  aborted: boolean
  /** The POS's own transaction identification, echoed; from the sale when the request is gone. */
  saleTransactionId?: TransactionIdentification | undefined
}

/** Whether the payment has ended as far as the POS is concerned (it may still be forwarded or reversed later). */
export function paymentSettledForPos(sale: SaleView): boolean {
  return OUTCOME[sale.state] !== undefined
}

/** Minor units as nexo's amount: a JSON number in major units (1234 USD cents → 12.34). */
export function majorAmount(minor: number, currency: string): number {
  return Number(formatAmount(minor, currency))
}

/** A nexo amount in minor units; undefined when it has more decimals than the currency has (12.345 USD). */
export function minorAmount(major: number, currency: string): number | undefined {
  const fixed = major.toFixed(minorUnitDigits(currency))
  if (Number(fixed) !== major) return undefined
  try {
    return parseAmount(fixed, currency)
  } catch {
    return undefined
  }
}

const iso = (epochMs: number): string => new Date(epochMs).toISOString()

export function poiTransactionId(sale: SaleView): TransactionIdentification {
  return { TransactionID: sale.id, TimeStamp: iso(sale.createdAt) }
}

export function paymentResult(sale: SaleView, context: PaymentContext): NexoResult {
  const outcome = OUTCOME[sale.state]
  const words = saleWords(sale)
  const detail = { saleId: sale.id, offline: sale.offline || undefined }
  if (outcome === 'success') return success(sale.state === 'storedOffline' ? { ...detail, message: words.title } : detail)
  const message = sale.reason ? plainReason(sale.reason) : words.title
  if (outcome === undefined) return failure('InProgress', 'the payment is still at the counter', detail)
  if (outcome === 'Cancel' && context.aborted) return failure('Aborted', message, detail)
  if (DECIDED_BY_CAUSE.has(sale.state) && sale.cause !== undefined) return failure(CAUSE_CONDITION[sale.cause], message, detail)
  return failure(outcome, message, detail)
}

export function paymentResponseBody(sale: SaleView, context: PaymentContext): Record<string, unknown> {
  const response = paymentResult(sale, context)
  const approved = response.Result === 'Success'
  const currency = sale.currency
  const timestamp = iso(sale.updatedAt)
  const entryMode = sale.readMethod ? ENTRY_MODE[sale.readMethod] : undefined
  return {
    Response: response,
    SaleData: {
      SaleTransactionID: context.saleTransactionId ?? {
        TransactionID: sale.orderReference ?? sale.reference ?? sale.id,
        TimeStamp: iso(sale.createdAt),
      },
    },
    POIData: { POITransactionID: poiTransactionId(sale) },
    PaymentResult: {
      PaymentType: sale.kind === 'return' ? 'Refund' : 'Normal',
      // A payment approved without the bank (stored, to be forwarded) is reported with OnlineFlag false.
      OnlineFlag: !sale.offline,
      AmountsResp: { AuthorizedAmount: approved ? majorAmount(sale.amountMinor, currency) : 0, Currency: currency },
      ...(sale.maskedPan || sale.brand
        ? {
            PaymentInstrumentData: {
              PaymentInstrumentType: 'Card',
              CardData: {
                ...(sale.maskedPan ? { MaskedPan: sale.maskedPan } : {}),
                ...(sale.brand ? { PaymentBrand: sale.brand } : {}),
                ...(entryMode ? { EntryMode: [entryMode] } : {}),
              },
            },
          }
        : {}),
      PaymentAcquirerData: {
        AcquirerPOIID: context.terminalId,
        MerchantID: context.merchantId,
        ...(approved && sale.authCode ? { ApprovalCode: sale.authCode } : {}),
        ...(sale.svcTransID ? { AcquirerTransactionID: { TransactionID: sale.svcTransID, TimeStamp: timestamp } } : {}),
      },
    },
    ...(paymentSettledForPos(sale)
      ? { PaymentReceipt: (['CashierReceipt', 'CustomerReceipt'] as const).map((qualifier) => receipt(qualifier, sale, context)) }
      : {}),
  }
}

/**
 * A receipt as nexo text lines: what the POS prints when it prints the card part of its own receipt,
 * the same receipt the terminal prints (src-shared/receipt), one copy per qualifier.
 */
function receipt(qualifier: 'CashierReceipt' | 'CustomerReceipt', sale: SaleView, context: PaymentContext): Record<string, unknown> {
  const merchant: ReceiptMerchant = {
    name: context.storeName ?? context.merchantId,
    addressLines: context.storeAddress ?? [],
    merchantId: context.merchantId,
    terminalId: context.terminalId,
    training: context.training === true,
  }
  const copy = buildReceipt(sale, merchant, qualifier === 'CustomerReceipt' ? 'customer' : 'merchant')
  const lines = receiptText(copy, NEXO_RECEIPT_COLUMNS)
  return {
    DocumentQualifier: qualifier,
    RequiredSignatureFlag: copy.lines.some((line) => line.kind === 'signature'),
    OutputContent: { OutputFormat: 'Text', OutputText: lines.map((Text) => ({ Text, EndOfLineFlag: true })) },
  }
}
