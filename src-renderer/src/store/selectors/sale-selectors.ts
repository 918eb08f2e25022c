/**
 * The sale on the counter, derived: its phase, whether a sale can start or be cancelled, and what
 * the prompt area says. Pure functions of the state (zustand selectors), tested without React.
 */
import type { SaleView } from '../../../../src-shared/contract'
import { wordsOf } from '../../../../src-shared/errors'
import { formatAmount, isKnownCurrency } from '../../../../src-shared/money'
import { entryMinor } from '../amount-entry'
import type { CardPrompt } from '../device-slice'
import { describeError } from '../error-words'
import { COUNTER_WAITS } from '../sale-records'
import { readMethodWords, SALE_WORDS, type Tone } from '../sale-words'
import type { PosState } from '../store-types'

/** idle: keying an amount; starting: startSale on its way; reading…processing: the counter waits; result: the sale ended. */
export type SalePhase = 'idle' | 'starting' | 'reading' | 'confirming' | 'processing' | 'result'

type S = Pick<PosState, 'currentSaleId' | 'sales' | 'starting'>

export function currentSale(s: S): SaleView | null {
  return s.currentSaleId ? (s.sales[s.currentSaleId] ?? null) : null
}

export function salePhase(s: S): SalePhase {
  if (s.starting) return 'starting'
  const sale = currentSale(s)
  if (!sale) return 'idle'
  switch (sale.state) {
    case 'created':
    case 'readingCard':
      return 'reading'
    case 'awaitingConfirmation':
      return 'confirming'
    case 'sending':
    case 'completingCard':
      return 'processing'
    default:
      return 'result'
  }
}

/** The counter waits for a sale or a void: the reader is taken and the cashier stays on that screen. */
export function counterBusy(s: Pick<PosState, 'currentSaleId' | 'sales' | 'starting' | 'voidingSaleId' | 'voidBusy'>): boolean {
  const phase = salePhase(s)
  if (phase !== 'idle' && phase !== 'result') return true
  if (s.voidBusy) return true
  const voiding = s.voidingSaleId ? s.sales[s.voidingSaleId] : undefined
  return voiding !== undefined && COUNTER_WAITS.has(voiding.state)
}

export const navigationLocked = counterBusy

export function saleCurrency(s: Pick<PosState, 'appInfo'>): string | null {
  const currency = s.appInfo?.currency
  return currency && isKnownCurrency(currency) ? currency : null
}

export function entryAmountMinor(s: Pick<PosState, 'entryDigits'>): number {
  return entryMinor(s.entryDigits)
}

/**
 * What the amount field shows: the keyed amount; while a sale runs (the field is read-only) that
 * sale's amount; '' when nothing is keyed, so the placeholder shows.
 */
export function amountFieldText(s: PosState): string {
  const phase = salePhase(s)
  const sale = currentSale(s)
  const running = phase === 'reading' || phase === 'confirming' || phase === 'processing'
  if (running && sale && isKnownCurrency(sale.currency)) return formatAmount(sale.amountMinor, sale.currency)
  const currency = saleCurrency(s)
  if (s.entryDigits === '' || !currency) return s.entryDigits
  return formatAmount(entryMinor(s.entryDigits), currency)
}

/** Not while a sale or void holds the counter, nor under the large-amount question (the amount asked about stays). */
export function canEditEntry(s: PosState): boolean {
  return !counterBusy(s) && s.amountToConfirm === null
}

/** One press, one sale: never while one is starting or running, nor while a void waits for the card. */
export function canStartSale(s: PosState): boolean {
  return saleCurrency(s) !== null && entryAmountMinor(s) > 0 && salePhase(s) === 'idle' && !counterBusy(s) && s.amountToConfirm === null
}

/**
 * The keyed amount is above the agent's confirmation amount (appInfo.saleLimits), so the cashier is
 * asked before the card. Above the maximum nothing is asked: the agent refuses it with its words.
 */
export function amountNeedsConfirmation(s: Pick<PosState, 'appInfo' | 'entryDigits'>): boolean {
  const limits = s.appInfo?.saleLimits
  if (!limits) return false
  const amount = entryAmountMinor(s)
  return amount > limits.confirmAboveMinor && amount <= limits.maxSaleMinor
}

/** The cashier can stop a sale while the reader waits for the card, not once the payment is on its way. */
export function canCancelSale(s: PosState): boolean {
  return salePhase(s) === 'reading' && !s.saleActionBusy
}

export interface PromptView {
  text: string
  detail: string
  tone: Tone
}

/** Which reader prompts still mean something in a sale state (an old "Enter PIN" must not linger into "Processing"). */
function promptFits(prompt: CardPrompt, state: SaleView['state']): boolean {
  if (state === 'created' || state === 'readingCard' || state === 'voidReadingCard') return true
  if (state === 'sending' || state === 'completingCard')
    return prompt.type === 'processing' || prompt.type === 'removeCard' || prompt.type === 'error'
  return prompt.type === 'removeCard'
}

export function cardPromptWords(prompt: CardPrompt): PromptView {
  switch (prompt.type) {
    case 'waitingForCard':
      return {
        text: 'Insert, tap or swipe the card',
        detail: sameWords(prompt.prompt, 'insert tap or swipe the card') ? 'The customer presents the card.' : prompt.prompt,
        tone: 'info',
      }
    case 'cardRead':
      return { text: 'Card read', detail: `${prompt.maskedPan} · ${readMethodWords(prompt.method)}`, tone: 'info' }
    case 'enterPin':
      return { text: 'Enter PIN', detail: 'The customer enters the PIN on the PIN pad.', tone: 'info' }
    case 'pinEntered':
      return { text: 'PIN entered', detail: 'Processing.', tone: 'info' }
    case 'processing':
      return { text: 'Processing', detail: 'Please wait.', tone: 'info' }
    case 'removeCard':
      return { text: 'Remove card', detail: 'The customer takes the card out of the reader.', tone: 'warn' }
    case 'insertChip':
      return { text: 'Insert the chip', detail: prompt.reason || 'This card has a chip: insert it instead of swiping.', tone: 'warn' }
    case 'error':
      return { text: 'Card reader problem', detail: prompt.message || wordsOf('READER_FAULT'), tone: 'error' }
    case 'interrupted':
      return { text: 'The reader was interrupted', detail: 'The card was not read.', tone: 'error' }
  }
}

function sameWords(a: string, b: string): boolean {
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^a-z]+/g, ' ')
      .replace(/\b(the|card)\b/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  return a.trim() === '' || norm(a) === norm(b)
}

/** A reader prompt that fits the sale, if any, for a sale or void in `sale`. */
export function fittingPrompt(prompt: CardPrompt | null, sale: SaleView): PromptView | null {
  return prompt && promptFits(prompt, sale.state) ? cardPromptWords(prompt) : null
}

/** The text of the fixed prompt area on the sale screen (role=status). */
export function salePrompt(s: PosState): PromptView {
  const phase = salePhase(s)
  if (phase === 'starting') return { text: 'Starting the sale', detail: 'Getting the card reader ready.', tone: 'info' }
  const sale = currentSale(s)
  if (!sale) {
    if (s.amountToConfirm !== null)
      return { text: 'Confirm the amount', detail: 'Check it with the customer before the card.', tone: 'warn' }
    if (s.saleError) return { text: 'The sale did not start', detail: describeError(s.saleError), tone: 'error' }
    if (counterBusy(s)) return { text: 'A void is in progress', detail: 'Finish it on the Transactions screen first.', tone: 'warn' }
    if (entryAmountMinor(s) > 0) return { text: 'Press Enter or Charge', detail: 'The customer is then asked for the card.', tone: 'info' }
    return { text: 'Enter the amount', detail: 'Type it or use the keypad.', tone: 'info' }
  }
  if (s.saleError) return { text: 'That did not work', detail: describeError(s.saleError), tone: 'error' }
  const words = SALE_WORDS[sale.state]
  const fromReader = fittingPrompt(s.prompt, sale)
  if (phase === 'result') {
    return fromReader
      ? { text: `${words.title}: remove card`, detail: 'The customer takes the card out of the reader.', tone: words.tone }
      : { text: words.title, detail: 'Type the next amount to start a new sale.', tone: words.tone }
  }
  return (
    fromReader ?? {
      text: sale.state === 'readingCard' ? 'Insert, tap or swipe the card' : words.title,
      detail: words.detail,
      tone: words.tone,
    }
  )
}
