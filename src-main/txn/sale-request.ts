/**
 * What starting a sale asks for, and the checks made before the customer is asked for a card: the
 * integrator's optional payment fields against the gateway's rules, and the request's fingerprint
 * for the integrator's idempotency key.
 */
import { createHash } from 'node:crypto'
import type { CardData } from '../device'
import { checkRequestBody } from '../gateway'
import { PosError } from '../../src-shared/pos-error'
import type { OfflinePolicy } from '../../src-shared/sale'
import { paymentBody, type MerchantIdentity, type PaymentOptions, type PaymentSale } from './message-bodies'
import type { OfflineLimits } from './offline-policy'
import type { TipPolicy } from './tip-policy'

export interface TxnSettings {
  merchant: MerchantIdentity
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
}

/** Two requests under one reference are the same sale only if these fields agree. */
export function hashRequest(request: SaleRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.amountMinor, request.currency, request.offlinePolicy ?? null, request.options ?? null]))
    .digest('hex')
    .slice(0, 32)
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
    options: JSON.stringify(request.options),
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
} as CardData
