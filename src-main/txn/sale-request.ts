/**
 * What starting a sale asks for, and the checks made before the customer is asked for a card: the
 * currency and the amount against the terminal's configuration and what the reader and the gateway
 * can carry, the integrator's optional payment fields against the gateway's rules, and the request's
 * fingerprint for the integrator's idempotency key.
 */
import { createHash } from 'node:crypto'
import { MAX_READ_AMOUNT_MINOR, type CardData } from '../device'
import { checkRequestBody, maxAmountMinor } from '../gateway'
import { displayAmount } from '../../src-shared/money'
import { PosError } from '../../src-shared/pos-error'
import type { OfflinePolicy, SaleOrigin } from '../../src-shared/sale'
import { paymentBody, type MerchantIdentity, type PaymentOptions, type PaymentSale } from './message-bodies'
import type { OfflineLimits } from './offline-policy'
import { saleOptionsText } from './sale-options'
import type { TipPolicy } from './tip-policy'

/** Sale amounts in minor units of the terminal's currency (config `limits`, docs/product-defaults.md §6). */
export interface SaleLimits {
  /** Above this a sale is refused. */
  maxSaleMinor: number
  /** Above this the amount must be confirmed before the card is asked for. */
  confirmAboveMinor: number
  /** The most one return without a sale on this terminal may credit; absent: no such return is allowed. */
  unreferencedReturnMaxMinor?: number | undefined
  /** The most returns without a sale may credit to one card in a business day; absent: no such limit. */
  unreferencedReturnPerCardDayMinor?: number | undefined
  /** The most returns without a sale may credit on this terminal in a business day; absent: no such limit. */
  unreferencedReturnPerDayMinor?: number | undefined
}

export interface TxnSettings {
  merchant: MerchantIdentity
  /** The one currency this terminal takes (config `currency`); `limits` are in its minor units. */
  currency: string
  limits: SaleLimits
  /** Retail sends autoCapture: true; restaurant mode authorises and captures base + tip at close. */
  restaurantMode: boolean
  cardReadTimeoutSeconds: number
  duplicateWindowMs: number
  offline: OfflineLimits
  tips: TipPolicy
}

export interface SaleRequest {
  amountMinor: number
  currency: string
  /** The integrator's own reference: repeating it returns the same sale, never a second charge. */
  reference?: string | undefined
  offlinePolicy?: OfflinePolicy | undefined
  options?: PaymentOptions | undefined
  /** The cashier or the POS confirmed an amount above `limits.confirmAboveMinor`. */
  amountConfirmed?: boolean | undefined
  /** Who rang it up (the cashier's screen or the POS); not part of the sale's fingerprint. */
  startedBy?: SaleOrigin | undefined
  /** The operator signed in at the counter; not part of the sale's fingerprint either. */
  operatorId?: string | undefined
}

/**
 * Two requests under one reference are the same sale only if these fields agree. `amountConfirmed`
 * is not one of them: it answers a question asked before the sale exists, so repeating a reference
 * with or without it still finds the same sale.
 */
export function hashRequest(request: SaleRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.amountMinor, request.currency, request.offlinePolicy ?? null, request.options ?? null]))
    .digest('hex')
    .slice(0, 32)
}

/**
 * Everything that can refuse a sale before it is journaled and the customer is asked for a card, so
 * that a refused request leaves no sale behind and charges nothing. In this order: the terminal's
 * own currency only (a sale in another currency would be charged in a currency the merchant did not
 * set up); an amount the card reader and the gateway can carry (else it fails later, at the reader);
 * not above the configured maximum; above `confirmAboveMinor` only once confirmed (one Enter too many
 * must not charge a fortune); then the payment options.
 */
export function checkSaleRequest(request: SaleRequest, settings: TxnSettings, transTime: string): void {
  const { amountMinor, currency } = request
  if (currency !== settings.currency)
    throw new PosError('CURRENCY_NOT_ACCEPTED', `not started: this terminal takes ${settings.currency}, the sale is in ${currency}`)
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 1)
    throw new PosError('INVALID_AMOUNT', `not started: the amount must be a whole number of minor units above zero, got ${amountMinor}`)
  // Both carry the amount: EMV's 12 digits at the reader are the tighter today, the gateway's 16 digits are checked too.
  const largest = Math.min(MAX_READ_AMOUNT_MINOR, maxAmountMinor(currency))
  if (amountMinor > largest)
    throw new PosError(
      'AMOUNT_TOO_LARGE',
      `not started: ${amountMinor} minor units is more than the card reader and the gateway can carry (at most ${displayAmount(largest, currency)})`,
    )
  if (amountMinor > settings.limits.maxSaleMinor)
    throw new PosError(
      'AMOUNT_ABOVE_LIMIT',
      `not started: ${displayAmount(amountMinor, currency)} is above this terminal's maximum sale of ${displayAmount(settings.limits.maxSaleMinor, currency)}`,
    )
  if (amountMinor > settings.limits.confirmAboveMinor && request.amountConfirmed !== true)
    throw new PosError(
      'AMOUNT_NEEDS_CONFIRMATION',
      `not started: ${displayAmount(amountMinor, currency)} is above ${displayAmount(settings.limits.confirmAboveMinor, currency)}; send it again with amountConfirmed: true once the amount is confirmed`,
    )
  checkPaymentOptions(request, settings, transTime)
}

/**
 * The integrator's optional payment fields are checked against the gateway's rules (byte limits,
 * instalment only with autoCapture, DCC with the original) before the customer is asked for a card:
 * refused with the field named, never dropped and never found out at the host.
 */
export function checkPaymentOptions(request: SaleRequest, settings: TxnSettings, transTime: string): void {
  if (request.options === undefined || Object.keys(request.options).length === 0) return
  const probe: PaymentSale = {
    id: 'PROBE-1',
    transTime,
    amountMinor: request.amountMinor,
    currency: request.currency,
    autoCapture: !settings.restaurantMode,
    options: saleOptionsText(request.options, undefined),
  }
  const checked = checkRequestBody('payment', paymentBody(probe, PROBE_CARD, settings.merchant))
  if (!checked.ok) throw new PosError('INVALID_OPTIONS', `not started: ${checked.problem.message}`)
}

/** A card shaped like a real one, so the probe body has every field the rules look at. */
const PROBE_CARD: CardData = {
  method: 'chip',
  posEntryMode: '051',
  termReadability: '5',
  pinFlag: false,
  pan: '4000000000000002',
  track2: '4000000000000002=49122010000000000000',
  summary: { maskedPan: '', brand: 'VISA', method: 'chip', expired: false, onlinePin: false },
}
