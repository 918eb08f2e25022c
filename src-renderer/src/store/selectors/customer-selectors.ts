/**
 * What the customer-facing display shows, derived from the same state as the cashier's screen: the
 * sale at the counter (its amount and what the customer is asked to do), then its result and a
 * thank-you for a while, then a welcome. Only what a customer should read: no card number, no sale
 * number, no reasons meant for the cashier, no internal word.
 */
import type { SaleState, SaleView } from '../../../../src-shared/contract'
import { CHARGED, COUNTER_BUSY, CREDITING, READING_CARD } from '../../../../src-shared/sale'
import { moneyText } from '../money-words'
import type { CardPrompt } from '../slices/device/device-slice'
import { bankUnreachable, type Tone } from '../sale-words'
import type { PosState } from '../store-types'

/** How long a result stays on the customer display after the sale ended. */
export const CUSTOMER_RESULT_MS = 15_000

/**
 * How long a large amount the cashier asked the customer to check stays shown without an answer (a
 * cashier window closed meanwhile must not leave it there for the next customer).
 */
export const AMOUNT_CHECK_MS = 120_000

export interface CustomerView {
  /** `check`: a large amount the cashier is checking with the customer, before the card is asked for. */
  kind: 'welcome' | 'check' | 'sale' | 'result'
  /**
   * What the amount is to the customer: "Total" to pay, "Refund" coming back to their card (a return),
   * "Cancel" a payment being cancelled (a void). Never "Total" for money that is not taken.
   */
  amountLabel: 'Total' | 'Refund' | 'Cancel'
  /** The amount to pay (or refunded, or cancelled), when there is a sale. */
  amountMinor: number | null
  currency: string | null
  title: string
  detail: string
  tone: Tone
}

/** The customer's instruction for each reader prompt. */
function promptForCustomer(prompt: CardPrompt): { title: string; detail: string } {
  switch (prompt.type) {
    case 'waitingForCard':
      return { title: 'Insert, tap or swipe your card', detail: 'Follow the instructions on the card reader.' }
    case 'cardRead':
    case 'pinEntered':
    case 'processing':
      return { title: 'Processing', detail: 'Please wait.' }
    case 'enterPin':
      return { title: 'Enter your PIN', detail: 'On the card reader. Cover the keypad with your hand.' }
    case 'removeCard':
      return { title: 'Please remove your card', detail: '' }
    case 'insertChip':
      return { title: 'Please insert your card', detail: 'This card has a chip: insert it into the reader.' }
    case 'error':
    case 'interrupted':
      return { title: 'Please wait', detail: 'The cashier will help you.' }
  }
}

const RUNNING_WORDS: Partial<Record<SaleState, { title: string; detail: string }>> = {
  created: { title: 'Please wait', detail: 'Getting the card reader ready.' },
  readingCard: { title: 'Insert, tap or swipe your card', detail: 'Follow the instructions on the card reader.' },
  awaitingConfirmation: { title: 'Please wait', detail: 'The cashier is checking the payment with you.' },
  sending: { title: 'Processing', detail: 'Please wait.' },
  completingCard: { title: 'Processing', detail: 'Please leave your card in the reader.' },
  voidReadingCard: { title: 'Present the same card to cancel this payment', detail: 'Nothing more is charged.' },
}

/** A return at the counter: money going back to the customer's card, never a payment (the amount line says "Refund … to your card"). */
const RETURN_RUNNING_WORDS = { title: 'Insert, tap or swipe your card', detail: 'The card you paid with.' }

/** How a return ended, for the customer: refunded (sent or confirmed), or not refunded. */
function returnResultWords(sale: SaleView, amount: string): { title: string; detail: string; tone: Tone } {
  if (CREDITING.has(sale.state)) return { title: 'Refunded', detail: `${amount} goes back to your card. Thank you.`, tone: 'ok' }
  return { title: 'Not refunded', detail: 'Nothing was refunded to your card. Please ask the cashier.', tone: 'error' }
}

function resultWords(sale: SaleView): { title: string; detail: string; tone: Tone } {
  // A void on its way to the bank is already a cancelled payment for the customer.
  if (sale.state === 'cancelled' || sale.state === 'cancelPending')
    return { title: 'Payment cancelled', detail: 'You will not be charged. Thank you.', tone: 'info' }
  if (CHARGED.has(sale.state)) return { title: 'Approved', detail: 'Thank you!', tone: 'ok' }
  if (bankUnreachable(sale))
    return { title: 'Payment not completed', detail: 'The bank could not be reached. You were not charged.', tone: 'error' }
  if (sale.state === 'declined')
    return { title: 'Payment declined', detail: 'You were not charged. Please ask the cashier.', tone: 'error' }
  return { title: 'Payment not completed', detail: 'You will not be charged. Please ask the cashier.', tone: 'error' }
}

/** The sale at the counter now, if any (the newest, should there be more than one). */
export function counterSale(sales: PosState['sales']): SaleView | null {
  let busy: SaleView | null = null
  for (const sale of Object.values(sales)) if (COUNTER_BUSY.has(sale.state) && (!busy || sale.updatedAt > busy.updatedAt)) busy = sale
  return busy
}

/**
 * `followedId` is the last sale the display saw at the counter: only its result is shown (a tip added
 * later, or a stored payment forwarded, is no business of the next customer).
 */
export function customerView(
  s: Pick<PosState, 'sales' | 'prompt' | 'promptSaleId' | 'appInfo' | 'amountCheck'> & Partial<Pick<PosState, 'agentAnswering'>>,
  now: number,
  followedId: string | null,
): CustomerView {
  const busy = counterSale(s.sales)
  // The cashier was told to check a large amount with the customer: the customer sees it too.
  const check = s.amountCheck
  if (!busy && check && now - check.at < AMOUNT_CHECK_MS)
    return {
      kind: 'check',
      amountLabel: 'Total',
      amountMinor: check.amountMinor,
      currency: check.currency,
      title: 'Please check the amount',
      detail: 'The cashier asks for your card once you agree.',
      tone: 'info',
    }
  const sale = busy ?? (followedId ? (s.sales[followedId] ?? null) : null)
  const welcome: CustomerView = {
    kind: 'welcome',
    amountLabel: 'Total',
    amountMinor: null,
    currency: null,
    title: 'Welcome',
    detail: s.appInfo?.storeName ?? '',
    tone: 'info',
  }
  if (!sale) return welcome
  const isReturn = sale.kind === 'return'
  const amountLabel = isReturn ? 'Refund' : sale.state === 'voidReadingCard' ? 'Cancel' : 'Total'
  const amount = { amountLabel, amountMinor: sale.amountMinor + sale.tipMinor, currency: sale.currency } as const
  const amountWords = moneyText(amount.amountMinor, sale.currency)
  const prompt = s.promptSaleId === null || s.promptSaleId === sale.id ? s.prompt : null
  if (COUNTER_BUSY.has(sale.state)) {
    // The display cannot reach the agent: a card inserted now would go to a terminal that may not be listening.
    if (s.agentAnswering === false)
      return {
        kind: 'sale',
        ...amount,
        title: 'Please wait',
        detail: 'Do not insert your card yet. The cashier will tell you when.',
        tone: 'warn',
      }
    const base = isReturn ? RETURN_RUNNING_WORDS : (RUNNING_WORDS[sale.state] ?? { title: 'Please wait', detail: '' })
    // The reader's own prompt is the more precise one while the card is being read.
    const reading = READING_CARD.has(sale.state)
    const words = reading && prompt && prompt.type !== 'waitingForCard' ? promptForCustomer(prompt) : base
    return { kind: 'sale', ...amount, ...words, tone: 'info' }
  }
  if (now - sale.updatedAt > CUSTOMER_RESULT_MS) return welcome
  const words = isReturn ? returnResultWords(sale, amountWords) : resultWords(sale)
  const removeCard = prompt?.type === 'removeCard'
  // A cancelled payment is not a total to pay.
  const label = isReturn ? 'Refund' : sale.state === 'cancelled' || sale.state === 'cancelPending' ? 'Cancel' : 'Total'
  return {
    kind: 'result',
    ...amount,
    amountLabel: label,
    ...words,
    ...(removeCard ? { detail: `Please remove your card. ${words.detail}` } : {}),
  }
}

/**
 * The card prompt's time limit, warned of before it runs out (WCAG 2.2 SC 2.2.1 "Timing Adjustable":
 * warned, with at least 20 seconds to extend it with a simple action).
 */
export const CARD_PROMPT_WARN_MS = 20_000

export interface CardPromptLimit {
  secondsLeft: number
  /** The customer may still ask for more time. */
  canExtend: boolean
}

/** While the customer is asked for the card and its time is nearly up: how long is left. Null otherwise. */
export function cardPromptLimit(s: Pick<PosState, 'sales' | 'prompt' | 'promptSaleId'>, now: number): CardPromptLimit | null {
  const sale = counterSale(s.sales)
  const prompt = s.prompt
  if (!sale || sale.state !== 'readingCard' || prompt?.type !== 'waitingForCard' || prompt.expiresAt === undefined) return null
  if (s.promptSaleId !== null && s.promptSaleId !== sale.id) return null
  const left = prompt.expiresAt - now
  if (left > CARD_PROMPT_WARN_MS || left <= 0) return null
  return { secondsLeft: Math.ceil(left / 1000), canExtend: (prompt.extensionsLeft ?? 0) > 0 }
}
