/**
 * What a return may credit (pure). A referenced return credits part or all of a payment that stands
 * at the bank, to the same card, in its currency, never more in total than was charged: the amount
 * plus the tip, less what its other returns credited, are crediting or ask at the counter (the journal
 * sums them with the sale, SaleRecord.returnedMinor and returningMinor). A return without a sale on
 * this terminal needs a manager, is in the terminal's own currency (the one its limits are in: a
 * limit counted per currency would let each of ISO 4217's currencies credit a card its own full
 * limit), and stays within three limits (config `limits`): per return (`unreferencedReturnMax`), per
 * card and business day (`unreferencedReturnPerCardDay`) and for the terminal per business day
 * (`unreferencedReturnPerDay`); none configured: not allowed. The day's limits count every credit
 * without a sale of that day, whatever its currency (one made before the terminal's currency changed
 * counts at its face value: creditsOfTheDay).
 *
 * The same rule is checked twice: when the return starts (nothing is journaled if it does not fit)
 * and in the commit that queues the credit (`creditRoom`, which the machine decides on), since a tip,
 * another return or a void may have changed the sale while the customer looked for the card.
 */
import { createHash } from 'node:crypto'
import type { SaleRecord } from '../journal'
import { displayAmount, minorUnitDigits } from '../../src-shared/money'
import { PosError } from '../../src-shared/pos-error'
import { RETURNABLE } from '../../src-shared/sale'
import type { SaleLimits, TxnSettings } from './sale-request'
import type { CreditRoom } from './txn-types'

export interface ReturnAsked {
  originalId?: string | undefined
  amountMinor: number
  currency: string
  managerApproved: boolean
}

/** What returns without a sale credited or are crediting today, in the terminal's minor units: in all, and to one card. */
export interface UnreferencedCredits {
  totalMinor: number
  cardMinor: number
}

/** The day's credits without a sale as the journal sums them, one row per currency they were made in. */
export type CreditsByCurrency = ReadonlyArray<UnreferencedCredits & { currency: string }>

/**
 * The day's credits without a sale in the terminal's currency: every one counts. A credit in another
 * currency (only one made before the terminal's currency was changed) counts at its face value,
 * rounded up: the limits may stop a return too early that day, never let one through too many.
 */
export function creditsOfTheDay(credits: CreditsByCurrency, currency: string): UnreferencedCredits {
  let totalMinor = 0
  let cardMinor = 0
  for (const row of credits) {
    totalMinor += atFaceValue(row.totalMinor, row.currency, currency)
    cardMinor += atFaceValue(row.cardMinor, row.currency, currency)
  }
  return { totalMinor, cardMinor }
}

function atFaceValue(minor: number, from: string, to: string): number {
  const shift = minorUnitDigits(to) - minorUnitDigits(from)
  return shift >= 0 ? minor * 10 ** shift : Math.ceil(minor / 10 ** -shift)
}

type Returnable = Pick<SaleRecord, 'state' | 'amountMinor' | 'tipMinor' | 'tipState' | 'returnedMinor' | 'returningMinor'>

/**
 * What is left to return of a sale: what the bank holds for it (the amount, and the tip once the
 * bank confirmed it or captured it with the amount), less its crediting returns and those at the counter.
 */
export function returnableMinor(sale: Returnable): number {
  return Math.max(0, heldAtBankMinor(sale) - (sale.returnedMinor ?? 0) - (sale.returningMinor ?? 0))
}

/** What the bank holds for a sale: a tip still waiting, or refused, may never arrive there. */
export function heldAtBankMinor(sale: Pick<SaleRecord, 'state' | 'amountMinor' | 'tipMinor' | 'tipState'>): number {
  const tipHeld = sale.tipState === 'adjusted' || sale.state === 'captured'
  return sale.amountMinor + (tipHeld ? sale.tipMinor : 0)
}

/** Why this return may not start, or undefined when it may. */
export function returnRefusal(
  request: ReturnAsked,
  original: SaleRecord | undefined,
  terminal: Pick<TxnSettings, 'currency' | 'limits'>,
  today: UnreferencedCredits,
): PosError | undefined {
  if (!Number.isSafeInteger(request.amountMinor) || request.amountMinor <= 0)
    return new PosError('INVALID_AMOUNT', 'a return credits a whole amount greater than zero')
  if (original === undefined) {
    if (!request.managerApproved) return new PosError('MANAGER_REQUIRED', 'a return without a sale on this terminal needs a manager')
    if (request.currency !== terminal.currency)
      return new PosError(
        'CURRENCY_NOT_ACCEPTED',
        `not returned: this terminal credits in ${terminal.currency} only, the return asks for ${request.currency}`,
      )
    const room = unreferencedRoom(terminal.limits, { ...today, cardMinor: 0 })
    if (request.amountMinor > room.leftMinor)
      return new PosError(
        'RETURN_ABOVE_LIMIT',
        `a return without a sale may credit at most ${displayAmount(room.leftMinor, request.currency)} ${room.limit}`,
      )
    return undefined
  }
  if (original.kind === 'return' || !RETURNABLE.has(original.state))
    return new PosError('NOT_RETURNABLE', `sale ${original.id} is ${original.state}${original.kind === 'return' ? ' (a return)' : ''}`)
  if (original.cardFingerprint === undefined) return new PosError('NOT_RETURNABLE', `sale ${original.id} has no card to credit`)
  if (request.currency !== original.currency)
    return new PosError(
      'CURRENCY_NOT_ACCEPTED',
      `sale ${original.id} was paid in ${original.currency}, the return asks for ${request.currency}`,
    )
  const left = returnableMinor(original)
  if (request.amountMinor > left)
    return new PosError(
      'RETURN_TOO_LARGE',
      `sale ${original.id}: ${displayAmount(left, original.currency)} is left to return, ${displayAmount(request.amountMinor, request.currency)} was asked`,
    )
  return undefined
}

/**
 * What return `ret` may still credit, read in the commit of its card (write-ahead.ts): of its sale,
 * what is left once every other return is counted (this one is at the counter, so it is taken out of
 * the sale's `returningMinor`), nothing if the sale no longer stands; without a sale, what its limits
 * leave for this card and this day.
 */
export function creditRoom(
  ret: Pick<SaleRecord, 'amountMinor' | 'state'>,
  original: SaleRecord | undefined,
  limits: SaleLimits,
  today: UnreferencedCredits,
): CreditRoom {
  if (original === undefined) return unreferencedRoom(limits, today)
  if (!RETURNABLE.has(original.state)) return { leftMinor: 0, limit: 'of this sale: it no longer stands at the bank' }
  const others = (original.returningMinor ?? 0) - (ret.state === 'returnReadingCard' ? ret.amountMinor : 0)
  return { leftMinor: returnableMinor({ ...original, returningMinor: Math.max(0, others) }), limit: 'of this sale' }
}

/** The tightest of the limits of a return without a sale, and its words. */
function unreferencedRoom(limits: SaleLimits, today: UnreferencedCredits): CreditRoom {
  const rooms: CreditRoom[] = [
    { leftMinor: limits.unreferencedReturnMaxMinor ?? 0, limit: 'in one return without a sale' },
    ...(limits.unreferencedReturnPerCardDayMinor === undefined
      ? []
      : [{ leftMinor: limits.unreferencedReturnPerCardDayMinor - today.cardMinor, limit: 'to this card today without a sale' }]),
    ...(limits.unreferencedReturnPerDayMinor === undefined
      ? []
      : [{ leftMinor: limits.unreferencedReturnPerDayMinor - today.totalMinor, limit: 'today in returns without a sale' }]),
  ]
  const tightest = rooms.reduce((a, b) => (b.leftMinor < a.leftMinor ? b : a))
  return { leftMinor: Math.max(0, tightest.leftMinor), limit: tightest.limit }
}

/** Two requests under one integrator reference are the same return only if these agree. */
export function hashReturn(request: Pick<ReturnAsked, 'originalId' | 'amountMinor' | 'currency'>): string {
  return createHash('sha256')
    .update(JSON.stringify(['return', request.originalId ?? null, request.amountMinor, request.currency]))
    .digest('hex')
}
