/**
 * The terminal's own rules, applied by the rescue to every copy it would send (docs/store.md "The
 * rescue"): a copy authenticated by the terminal is still checked as the terminal would have
 * checked the item before queuing it, so that a copy made by a terminal key that leaked, or by a bug,
 * never sends more than the terminal itself could have. Pure: the rescue gives the copies in the
 * order they were queued, and the running totals are kept here.
 */
import { checkRequestBody, isOperationKind } from '../gateway'
import { maskPan } from '../device/card-data'
import { displayAmount, minorUnitDigits, parseAmount } from '../../src-shared/money'
import type { QueueCopy } from './queue-replica'

export interface RescueRules {
  /** The configured currency: every amount a copy carries is in it. */
  currency: string
  /** `offline.perTransaction` in minor units: a stored payment above it was never the terminal's. */
  storedPaymentMaxMinor: number
  /** `limits.unreferencedReturn*` in minor units: credits without their sale's amount. */
  unreferencedReturnMaxMinor: number
  unreferencedReturnPerCardDayMinor: number
  unreferencedReturnPerDayMinor: number
}

/** The rules of a lane's configuration (the rescuing lane's: one store, one set of rules). */
export function rescueRulesOf(config: {
  currency: string
  offline: { perTransaction: number }
  limits: { unreferencedReturnMax: number; unreferencedReturnPerCardDay: number; unreferencedReturnPerDay: number }
}): RescueRules {
  const minor = (major: number) => Math.round(major * 10 ** minorUnitDigits(config.currency))
  return {
    currency: config.currency,
    storedPaymentMaxMinor: minor(config.offline.perTransaction),
    unreferencedReturnMaxMinor: minor(config.limits.unreferencedReturnMax),
    unreferencedReturnPerCardDayMinor: minor(config.limits.unreferencedReturnPerCardDay),
    unreferencedReturnPerDayMinor: minor(config.limits.unreferencedReturnPerDay),
  }
}

/** The card number a message carries, masked as receipts print it (first six and last four at most); '' when none. */
export function maskedCardOf(body: unknown): string {
  const info = (body as { paymentMethod?: { card?: { cardInfo?: Record<string, unknown> } } } | null)?.paymentMethod?.card?.cardInfo
  if (!info) return ''
  const candidates = [
    info.cardNumber,
    typeof info.track2 === 'string' ? info.track2.split(/[=D]/)[0] : undefined,
    typeof info.track1 === 'string' ? /^%?B(\d{8,19})\^/.exec(info.track1)?.[1] : undefined,
  ]
  for (const pan of candidates) if (typeof pan === 'string' && /^\d{8,19}$/.test(pan)) return maskPan(pan)
  return ''
}

/** What the rules keep across the copies of one run: credits without a sale's amount, per day and per card. */
export class RescueRuleBook {
  private readonly perDay = new Map<string, number>()
  private readonly perCardDay = new Map<string, number>()

  constructor(
    private readonly rules: RescueRules,
    private readonly terminalId: string,
  ) {}

  /** Why the terminal would not have sent this copy, in plain words; undefined when it would. */
  refusal(copy: QueueCopy): string | undefined {
    const { rules } = this
    // Ids are `<terminalId>-<epoch>-<sequence>` (journal/transaction-ids.ts); a follow-up adds a suffix.
    if (!copy.saleId.startsWith(`${this.terminalId}-`)) return `its sale ${copy.saleId} is not one of terminal ${this.terminalId}'s`
    if (copy.messageId !== copy.saleId && !copy.messageId.startsWith(`${copy.saleId}-`))
      return `its message ${copy.messageId} does not belong to its sale ${copy.saleId}`
    if (!isOperationKind(copy.operation)) return `"${copy.operation}" is not a message the terminal sends`
    const checked = checkRequestBody(copy.operation, copy.body)
    if (!checked.ok) return `its message is not one the bank accepts (${checked.problem.message})`
    const named = (copy.body as { merchantTransInfo?: { merchantTransID?: unknown } }).merchantTransInfo?.merchantTransID
    if (named !== undefined && named !== copy.messageId) return `its message names ${String(named)}, not ${copy.messageId}`
    if (copy.currency !== null && copy.currency !== rules.currency)
      return `it is in ${copy.currency}, and this store takes ${rules.currency}`
    const sent = (copy.body as { transAmount?: { currency: string; value: string } }).transAmount
    if (sent) {
      let minor: number
      try {
        minor = parseAmount(sent.value, sent.currency)
      } catch {
        return 'the amount in its message cannot be read'
      }
      if (sent.currency !== rules.currency) return `its message is in ${sent.currency}, and this store takes ${rules.currency}`
      if (minor !== copy.amountMinor || (copy.currency !== null && copy.currency !== sent.currency))
        return 'the amount in its message is not the amount the copy names'
    }
    const amount = displayAmount(copy.amountMinor, rules.currency)
    if (copy.operation === 'payment' && copy.amountMinor > rules.storedPaymentMaxMinor)
      return `a stored payment of ${amount} is above this store's offline limit of ${displayAmount(rules.storedPaymentMaxMinor, rules.currency)}`
    if (copy.operation === 'merchandiseCredit') return this.creditRefusal(copy, amount)
    return undefined
  }

  private creditRefusal(copy: QueueCopy, amount: string): string | undefined {
    const { rules } = this
    if (copy.saleAmountMinor !== undefined)
      return copy.amountMinor > copy.saleAmountMinor
        ? `a credit of ${amount} is more than its sale was approved for (${displayAmount(copy.saleAmountMinor, rules.currency)})`
        : undefined
    if (copy.amountMinor > rules.unreferencedReturnMaxMinor)
      return `a return without its sale of ${amount} is above this store's limit of ${displayAmount(rules.unreferencedReturnMaxMinor, rules.currency)}`
    const day = new Date(copy.queuedAt).toISOString().slice(0, 10)
    const card = maskedCardOf(copy.body)
    const dayTotal = (this.perDay.get(day) ?? 0) + copy.amountMinor
    if (dayTotal > rules.unreferencedReturnPerDayMinor)
      return `returns without their sale on ${day} would come to more than this store's daily limit of ${displayAmount(rules.unreferencedReturnPerDayMinor, rules.currency)}`
    const cardKey = `${day} ${card}`
    const cardTotal = (this.perCardDay.get(cardKey) ?? 0) + copy.amountMinor
    if (card !== '' && cardTotal > rules.unreferencedReturnPerCardDayMinor)
      return `returns without their sale to card ${card} on ${day} would come to more than this store's limit per card of ${displayAmount(rules.unreferencedReturnPerCardDayMinor, rules.currency)}`
    this.perDay.set(day, dayTotal)
    if (card !== '') this.perCardDay.set(cardKey, cardTotal)
    return undefined
  }
}
