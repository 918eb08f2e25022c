/**
 * The training host's deterministic decisions (docs/gateway.md §D4) and the card data they read.
 *
 * Pure: the clock is passed in. The full card number exists only inside a request's handling; what
 * leaves this module for responses and the ledger is first6/last4 (docs/gateway.md §D2: "never the
 * full card number").
 *
 * Order of the rules, as docs/gateway.md §D4 lists them: amount ending 51, amount ending 05, Luhn,
 * expiry. The first that matches decides, so "10.51" on an expired card is a 51.
 */
import type { OfflinePaymentBody } from '../../gateway'
import { isLuhnValid } from '../../device/card-data'

export interface CardData {
  pan: string
  /** YYMM as in track data (ISO 7813); absent when the track carried a field separator instead. */
  expiry?: string
}

export interface CardSummary {
  first6No: string
  last4No: string
  paymentBrand: string
  fundingType: string
  maskedPan: string
}

export type DeclineCode = '51' | '05' | '14' | '54'

export type Decision = { approved: true } | { approved: false; pspFailureCode: DeclineCode; pspFailureReason: string }

/** Text of the ISO 8583 response codes the host uses (field 39). */
export const DECLINE_REASONS: Readonly<Record<DeclineCode, string>> = {
  '51': 'Insufficient funds',
  '05': 'Do not honour',
  '14': 'Invalid card number',
  '54': 'Expired card',
}

type CardInfo = NonNullable<OfflinePaymentBody['paymentMethod']['card']['cardInfo']>

/** Where a card read failed, named like a request field so the V0008 message points at it. */
export interface CardReadProblem {
  field: string
  message: string
}

/**
 * Card number and expiry from, in this order: track2, cardNumber/expiryDate, track1. An unreadable
 * track is a format error of that field (V0008), not a decline: the host never saw a card number.
 */
export function readCard(info: CardInfo | undefined): CardData | CardReadProblem {
  const prefix = 'paymentMethod.card.cardInfo'
  if (info?.track2) {
    return (
      parseTrack2(info.track2) ?? {
        field: `${prefix}.track2`,
        message: `${prefix}.track2 is not ISO 7813 track 2 data (PAN, '=' or 'D', YYMM)`,
      }
    )
  }
  if (info?.cardNumber) {
    return info.expiryDate === undefined ? { pan: info.cardNumber } : { pan: info.cardNumber, expiry: info.expiryDate }
  }
  if (info?.track1) {
    return parseTrack1(info.track1) ?? { field: `${prefix}.track1`, message: `${prefix}.track1 is not ISO 7813 track 1 format B data` }
  }
  // Only encryptedCardInfo is left: the training host holds no decryption key.
  return {
    field: 'paymentMethod.card.encryptedCardInfo',
    message: 'paymentMethod.card.encryptedCardInfo cannot be read by the training host; send track2, cardNumber or track1',
  }
}

export function isCardReadProblem(value: CardData | CardReadProblem): value is CardReadProblem {
  return 'field' in value
}

/**
 * Track 2 (ISO 7813): optional start sentinel ';', PAN, separator ('=' on a magstripe, 'D' in the EMV
 * tag 57 form), then YYMM or a second separator when the expiry is absent; the rest is ignored.
 */
export function parseTrack2(track: string): CardData | undefined {
  const match = /^;?(\d{12,19})[=D](?:(\d{4})|[=D])/i.exec(track)
  if (!match?.[1]) return undefined
  return match[2] === undefined ? { pan: match[1] } : { pan: match[1], expiry: match[2] }
}

/** Track 1 format B (ISO 7813): '%B', PAN, '^', name, '^', YYMM (or '^' when absent). */
export function parseTrack1(track: string): CardData | undefined {
  const match = /^%?B(\d{12,19})\^[^^]{0,26}\^(?:(\d{4})|\^)/.exec(track)
  if (!match?.[1]) return undefined
  return match[2] === undefined ? { pan: match[1] } : { pan: match[1], expiry: match[2] }
}

/** The host checks the check digit with the same Luhn code the terminal uses. */
export const luhnValid = isLuhnValid

/**
 * A card is valid through the last day of its expiry month (UTC). A month outside 01-12 cannot be
 * honoured either, so it counts as expired (54). No expiry on the track: nothing to check.
 */
export function isExpired(expiry: string | undefined, now: Date): boolean {
  if (expiry === undefined) return false
  const year = 2000 + Number(expiry.slice(0, 2))
  const month = Number(expiry.slice(2, 4))
  if (month < 1 || month > 12) return true
  return year * 12 + month < now.getUTCFullYear() * 12 + (now.getUTCMonth() + 1)
}

export function decide(amountMinor: number, card: CardData, now: Date): Decision {
  const lastTwo = amountMinor % 100
  const decline = (code: DeclineCode): Decision => ({ approved: false, pspFailureCode: code, pspFailureReason: DECLINE_REASONS[code] })
  if (lastTwo === 51) return decline('51')
  if (lastTwo === 5) return decline('05')
  if (!luhnValid(card.pan)) return decline('14')
  if (isExpired(card.expiry, now)) return decline('54')
  return { approved: true }
}

/** Brand by IIN range; good enough for receipts and demos, not a BIN table. */
export function brandOf(pan: string): string {
  const n2 = Number(pan.slice(0, 2))
  const n3 = Number(pan.slice(0, 3))
  const n4 = Number(pan.slice(0, 4))
  if (pan.startsWith('4')) return 'VISA'
  if ((n2 >= 51 && n2 <= 55) || (n4 >= 2221 && n4 <= 2720)) return 'MASTERCARD'
  if (n2 === 34 || n2 === 37) return 'AMEX'
  if (n4 >= 3528 && n4 <= 3589) return 'JCB'
  if (n4 === 6011 || n2 === 65 || (n3 >= 644 && n3 <= 649)) return 'DISCOVER'
  if (n2 === 62) return 'UNIONPAY'
  if (n2 === 36 || n2 === 38 || n2 === 39 || (n3 >= 300 && n3 <= 305)) return 'DINERS'
  return 'UNKNOWN'
}

export function summarizeCard(pan: string): CardSummary {
  return {
    first6No: pan.slice(0, 6),
    last4No: pan.slice(-4),
    paymentBrand: brandOf(pan),
    // The training host has no BIN table; every card is a credit card.
    fundingType: 'credit',
    maskedPan: `${pan.slice(0, 6)}${'*'.repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`,
  }
}
