/** The day's sales, voids and close of day, derived. */
import type { SaleView } from '../../../../src-shared/contract'
import { moneyText } from '../money-words'
import { COUNTER_WAITS, STANDING_PAYMENT } from '../sale-records'
import { SALE_WORDS, saleReasonWords, saleWords } from '../sale-words'
import type { PosState } from '../store-types'
import { counterBusy, fittingPrompt, type PromptView } from './sale-selectors'

/** Newest first. Returns the cached sale objects, so `useShallow` can compare the list. */
export function salesOfDay(s: Pick<PosState, 'sales'>): SaleView[] {
  return Object.values(s.sales).sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
}

/**
 * What the transactions screen lists, newest first: the open batch's sales, or what the search found,
 * each in its latest view (an event may have changed it since the search answered).
 */
export function listedSales(s: Pick<PosState, 'sales' | 'foundSales'>): SaleView[] {
  if (s.foundSales === null) return salesOfDay(s)
  return s.foundSales
    .map((found) => {
      const cached = s.sales[found.id]
      return cached && cached.updatedAt >= found.updatedAt ? cached : found
    })
    .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
}

/**
 * A standing payment can be voided when the counter is free (docs/transactions.md: voidRequested),
 * unless a return credited or is crediting part of it: the agent refuses that void (what is left is
 * returned instead), so it is not offered.
 */
export function canVoid(s: PosState, sale: SaleView): boolean {
  return STANDING_PAYMENT.has(sale.state) && (sale.returnedMinor ?? 0) === 0 && !counterBusy(s)
}

export function voidingSale(s: Pick<PosState, 'voidingSaleId' | 'sales'>): SaleView | null {
  return s.voidingSaleId ? (s.sales[s.voidingSaleId] ?? null) : null
}

export function voidWaitsForCard(s: Pick<PosState, 'voidingSaleId' | 'sales'>): boolean {
  const sale = voidingSale(s)
  return sale !== null && COUNTER_WAITS.has(sale.state)
}

/** What the void panel says: the card prompt while the customer presents the card, then how it ended. */
export function voidPrompt(s: PosState): PromptView | null {
  const sale = voidingSale(s)
  if (!sale) return null
  if (s.voidBusy && sale.state !== 'voidReadingCard')
    return { text: 'Starting the void', detail: 'Getting the card reader ready.', tone: 'info' }
  if (sale.state === 'voidReadingCard') {
    const fromReader = fittingPrompt(s.prompt, sale, s.promptSaleId)
    const words = SALE_WORDS.voidReadingCard
    return fromReader
      ? { ...fromReader, detail: `Void: ${fromReader.detail}` }
      : { text: words.title, detail: words.detail, tone: words.tone }
  }
  if (STANDING_PAYMENT.has(sale.state)) {
    if (s.voidError) return null
    const reason = saleReasonWords(sale)
    return { text: 'Not voided', detail: `The void did not go through. The payment stands.${reason ? ` ${reason}` : ''}`, tone: 'warn' }
  }
  const words = saleWords(sale)
  return { text: words.title, detail: words.detail, tone: words.tone }
}

/** Why the open batch cannot be closed yet; nothing for a closed batch (it is done, not blocked). */
export function closeBlockedReason(s: Pick<PosState, 'report'>): string | null {
  const report = s.report
  if (!report || report.closable || report.batch.closedAt !== undefined) return null
  return report.blockedReason ?? 'The day cannot be closed yet.'
}

export function canCloseDay(s: PosState): boolean {
  return s.report !== null && s.report.closable && !s.closing && !counterBusy(s)
}

/**
 * The reason to show on a sale's row: not while the sale is at the counter again (a new try must not
 * carry the last refusal), and in plain words.
 */
export function rowReason(sale: SaleView): string | null {
  return COUNTER_WAITS.has(sale.state) ? null : saleReasonWords(sale)
}

/** A receipt makes sense once a card was read and the sale no longer waits at the counter. */
export function receiptAvailable(sale: SaleView): boolean {
  return sale.maskedPan !== undefined && !COUNTER_WAITS.has(sale.state)
}

export function voidableSaleIds(s: PosState): string[] {
  return salesOfDay(s)
    .filter((sale) => canVoid(s, sale))
    .map((sale) => sale.id)
}

/**
 * Sales listed with something left to return, while the counter is free (the agent checks the rest):
 * those of the open batch, or what a search found in any batch or day.
 */
export function returnableSaleIds(s: PosState): string[] {
  return listedSales(s)
    .filter((sale) => sale.kind !== 'return' && (sale.returnableMinor ?? 0) > 0 && !counterBusy(s))
    .map((sale) => sale.id)
}

/** What the return panel says once the return runs: the card prompt, then how it ended, in plain words. */
export function returnPrompt(s: PosState): PromptView | null {
  const credit = s.returnId ? (s.sales[s.returnId] ?? null) : null
  if (!credit) return null
  if (credit.state === 'returnReadingCard') {
    const fromReader = fittingPrompt(s.prompt, credit, s.promptSaleId)
    const words = SALE_WORDS.returnReadingCard
    return fromReader
      ? { ...fromReader, detail: `Return: ${fromReader.detail}` }
      : { text: words.title, detail: words.detail, tone: words.tone }
  }
  const words = saleWords(credit)
  if (credit.state === 'credited' || credit.state === 'creditPending') {
    // How much went back, and what the sale has left to return now.
    const original = credit.originalId ? s.sales[credit.originalId] : undefined
    const left = original?.returnableMinor
    const amount = moneyText(credit.amountMinor, credit.currency)
    const rest =
      left === undefined
        ? ''
        : left > 0
          ? ` ${moneyText(left, credit.currency)} is left to return on the sale.`
          : ' Nothing is left to return on the sale.'
    return { text: `${words.title}: ${amount}`, detail: `${words.detail}${rest}`, tone: words.tone }
  }
  const reason = saleReasonWords(credit)
  return { text: words.title, detail: reason ? `${words.detail} ${reason}` : words.detail, tone: words.tone }
}
