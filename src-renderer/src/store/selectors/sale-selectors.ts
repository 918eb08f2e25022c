/**
 * The sale on the counter, derived: its phase, whether a sale can start or be cancelled, and what
 * the prompt area says. Pure functions of the state (zustand selectors), tested without React.
 */
import { moneyText } from '../money-words'
import type { SaleView } from '../../../../src-shared/contract'
import { wordsOf } from '../../../../src-shared/errors'
import { isKnownCurrency, minorUnitDigits } from '../../../../src-shared/money'
import { READING_CARD } from '../../../../src-shared/sale'
import { entryMinor, entryText } from '../amount-entry'
import type { CardPrompt } from '../slices/device/device-slice'
import { describeError } from '../error-words'
import { plainReason } from '../reason-words'
import { COUNTER_WAITS } from '../sale-records'
import { readMethodWords, saleWords, type Tone } from '../sale-words'
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
export function counterBusy(
  s: Pick<PosState, 'currentSaleId' | 'sales' | 'starting' | 'voidingSaleId' | 'voidBusy'> &
    Partial<Pick<PosState, 'returnBusy' | 'returnId'>>,
): boolean {
  const phase = salePhase(s)
  if (phase !== 'idle' && phase !== 'result') return true
  if (s.voidBusy || s.returnBusy) return true
  const returning = s.returnId ? s.sales[s.returnId] : undefined
  if (returning !== undefined && COUNTER_WAITS.has(returning.state)) return true
  const voiding = s.voidingSaleId ? s.sales[s.voidingSaleId] : undefined
  return voiding !== undefined && COUNTER_WAITS.has(voiding.state)
}

export const navigationLocked = counterBusy

export function saleCurrency(s: Pick<PosState, 'appInfo'>): string | null {
  const currency = s.appInfo?.currency
  return currency && isKnownCurrency(currency) ? currency : null
}

/** The terminal currency's decimals (2 until it is known): where a typed decimal point puts the digits. */
export function entryFractionDigits(s: Pick<PosState, 'appInfo'>): number {
  const currency = saleCurrency(s)
  return currency ? minorUnitDigits(currency) : 2
}

export function entryAmountMinor(s: Pick<PosState, 'entryDigits' | 'appInfo'>): number {
  return entryMinor(s.entryDigits, entryFractionDigits(s))
}

/**
 * What the amount field shows: the keyed amount; while a sale runs (the field is read-only) that
 * sale's amount; '' when nothing is keyed, so the placeholder shows.
 */
export function amountFieldText(s: PosState): string {
  const phase = salePhase(s)
  const sale = currentSale(s)
  // The finished sale's amount stays in view until the next one is keyed.
  const shown = phase === 'reading' || phase === 'confirming' || phase === 'processing' || (phase === 'result' && s.entryDigits === '')
  if (shown && sale && isKnownCurrency(sale.currency)) return entryText(String(sale.amountMinor), minorUnitDigits(sale.currency))
  return entryText(s.entryDigits, entryFractionDigits(s))
}

/** Not while a sale or void holds the counter, nor under the large-amount question (the amount asked about stays). */
export function canEditEntry(s: PosState): boolean {
  return !counterBusy(s) && s.amountToConfirm === null
}

/** One press, one sale: never while one is starting or running, nor while a void waits for the card. */
export function canStartSale(s: PosState): boolean {
  return (
    s.agentAnswering &&
    saleCurrency(s) !== null &&
    entryAmountMinor(s) > 0 &&
    salePhase(s) === 'idle' &&
    !counterBusy(s) &&
    s.amountToConfirm === null
  )
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

/** The cashier can stop a sale while the reader waits for the card or a duplicate is asked about, not once the payment is on its way. */
export function canCancelSale(s: PosState): boolean {
  const phase = salePhase(s)
  return (phase === 'reading' || phase === 'confirming') && !s.saleActionBusy && s.agentAnswering
}

/** Why Cancel is greyed out while a sale runs (null: it can be pressed). */
export function cancelDisabledReason(s: PosState): string | null {
  if (canCancelSale(s)) return null
  if (s.saleActionBusy) return 'Stopping the sale…'
  if (!s.agentAnswering) return `${AGENT_NOT_ANSWERING}: the sale can be stopped once it answers again.`
  switch (salePhase(s)) {
    case 'starting':
      return 'The sale is starting; it can be stopped once the reader asks for the card.'
    case 'processing':
      return 'The bank is answering; this sale can no longer be stopped.'
    default:
      return null
  }
}

/** The words for a window whose agent does not answer (header badge and Charge alike). */
export const AGENT_NOT_ANSWERING = 'Payment agent not answering'

/** Why Charge is greyed out (null: it can be pressed). */
export function chargeDisabledReason(s: PosState): string | null {
  if (canStartSale(s)) return null
  if (!s.agentAnswering) return `${AGENT_NOT_ANSWERING}. Charge comes back by itself when it answers.`
  if (saleCurrency(s) === null) return 'The terminal’s currency is not known yet.'
  // Each phase says what the cashier can do now: a sale past the card can no longer be cancelled, and
  // after a result the amount in the field is the last sale's, not one to charge.
  switch (salePhase(s)) {
    case 'starting':
      return 'A sale is running. Wait for the reader to ask for the card.'
    case 'reading':
      return 'A sale is running. Cancel it to start another.'
    case 'confirming':
      return 'A sale is running. Answer the question about the card first.'
    case 'processing':
      return 'A sale is running. The bank is answering: wait for the result.'
    case 'idle':
    case 'result':
      break
  }
  if (counterBusy(s)) return 'A void is waiting for the card. Finish it first.'
  if (s.amountToConfirm !== null) return 'Answer the question about the amount first.'
  if (salePhase(s) === 'result') return 'That sale has ended. Press New sale, or type the next amount.'
  return 'Type the amount first.'
}

/** The sale on the counter was rung up by the POS through the local API (absent means at this screen). */
export function startedByPos(s: S): boolean {
  return currentSale(s)?.startedBy === 'pos'
}

export interface PromptView {
  text: string
  detail: string
  tone: Tone
}

/** Which reader prompts still mean something in a sale state (an old "Enter PIN" must not linger into "Processing"). */
function promptFits(prompt: CardPrompt, state: SaleView['state']): boolean {
  if (state === 'created' || READING_CARD.has(state)) return true
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
      return { text: 'Card reader problem', detail: prompt.message ? plainReason(prompt.message) : wordsOf('READER_FAULT'), tone: 'error' }
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
export function fittingPrompt(prompt: CardPrompt | null, sale: SaleView, promptSaleId: string | null = null): PromptView | null {
  // A prompt the agent gave for another sale (the last one's "Remove card") says nothing about this one.
  if (promptSaleId !== null && promptSaleId !== sale.id) return null
  return prompt && promptFits(prompt, sale.state) ? cardPromptWords(prompt) : null
}

const NOTHING_CHARGED = new Set(['declined', 'abandoned', 'reversed', 'reversalPending'])

/** The sale ended without charging the customer (refused, stopped, or its charge taken back): it may be charged again. */
export function chargedNothing(sale: Pick<SaleView, 'state' | 'kind'>): boolean {
  return sale.kind !== 'return' && NOTHING_CHARGED.has(sale.state)
}

/**
 * The ended sale's result offers "Charge … again": it charged nothing, and not because the cashier
 * just said "Stop, do not charge" to it as a possible duplicate (the charge they refused).
 */
export function offersChargeAgain(s: PosState): boolean {
  const sale = currentSale(s)
  return s.agentAnswering && salePhase(s) === 'result' && sale !== null && chargedNothing(sale) && s.stoppedDuplicateId !== sale.id
}

/** Why the sale did not start; a refusal over the terminal's limit says the limit. */
function saleErrorWords(s: PosState): string {
  const error = s.saleError!
  const limits = s.appInfo?.saleLimits
  const currency = saleCurrency(s)
  if (error.code === 'AMOUNT_ABOVE_LIMIT' && limits && currency)
    return `This terminal charges at most ${moneyText(limits.maxSaleMinor, currency)} in one sale. Nothing was charged; check the amount.`
  return describeError(error)
}

/** The text of the fixed prompt area on the sale screen (role=status). */
export function salePrompt(s: PosState): PromptView {
  const phase = salePhase(s)
  if (phase === 'starting') return { text: 'Starting the sale', detail: 'Getting the card reader ready.', tone: 'info' }
  const sale = currentSale(s)
  if (!sale) {
    if (s.amountToConfirm !== null)
      return { text: 'Confirm the amount', detail: 'Check it with the customer before the card.', tone: 'warn' }
    if (s.saleError) return { text: 'The sale did not start', detail: saleErrorWords(s), tone: 'error' }
    if (counterBusy(s)) return { text: 'A void is in progress', detail: 'Finish it on the Transactions screen first.', tone: 'warn' }
    if (!s.agentAnswering)
      return { text: AGENT_NOT_ANSWERING, detail: 'Nothing can be charged now. This screen reconnects by itself.', tone: 'warn' }
    if (entryAmountMinor(s) > 0) return { text: 'Press Enter or Charge', detail: 'The customer is then asked for the card.', tone: 'info' }
    return { text: 'Enter the amount', detail: 'Type it or use the keypad.', tone: 'info' }
  }
  if (s.saleError) return { text: 'That did not work', detail: describeError(s.saleError), tone: 'error' }
  // A running sale with no agent to run it: nobody may be asked for a card meanwhile.
  if (!s.agentAnswering && phase !== 'result')
    return {
      text: AGENT_NOT_ANSWERING,
      detail: 'The customer should not insert the card now. The sale carries on, or says how it ended, once the agent answers again.',
      tone: 'error',
    }
  const words = saleWords(sale)
  const fromReader = fittingPrompt(s.prompt, sale, s.promptSaleId)
  // The result is said once, here, where the cashier has been looking all along.
  if (phase === 'result') {
    return fromReader
      ? { text: words.title, detail: `${words.detail} The customer takes the card out of the reader.`, tone: words.tone }
      : { text: words.title, detail: words.detail, tone: words.tone }
  }
  return (
    fromReader ?? {
      text: sale.state === 'readingCard' ? 'Insert, tap or swipe the card' : words.title,
      detail: words.detail,
      tone: words.tone,
    }
  )
}
