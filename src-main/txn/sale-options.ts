/**
 * What a sale was started with beyond its amount, as the journal's `options` column keeps it: the
 * integrator's payment fields (sent to the host with the payment) and the sale's offline policy (the
 * agent's own, never sent). One JSON object on disk, read here once into one type, so no reader takes
 * the column for one of its halves: a payment body built from the whole column would carry the
 * offline policy to the host.
 */
import { z } from 'zod'
import { paymentOptionsSchema, type PaymentOptions } from '../../src-shared/contract'
import { OFFLINE_POLICIES, type OfflinePolicy } from '../../src-shared/sale'

export interface SaleOptions {
  /** The integrator's payment fields (startSale `options`), as the host receives them. */
  payment: PaymentOptions
  /** How the sale may go when the host cannot be reached (startSale `offlinePolicy`). */
  offlinePolicy: OfflinePolicy
}

/** The column's one shape: the payment fields and the policy side by side (journals already written keep it). */
const columnSchema = paymentOptionsSchema.extend({ offlinePolicy: z.enum(OFFLINE_POLICIES).optional() })

/** The column's text for a new sale. */
export function saleOptionsText(payment: PaymentOptions | undefined, offlinePolicy: OfflinePolicy | undefined): string {
  return JSON.stringify({ ...(payment ?? {}), ...(offlinePolicy ? { offlinePolicy } : {}) })
}

/** The column read: a sale without one (most of the counter's) prefers the host and has no payment fields. */
export function parseSaleOptions(text: string | undefined): SaleOptions {
  if (!text || text === '{}') return { payment: {}, offlinePolicy: 'preferOnline' }
  const { offlinePolicy, ...payment } = columnSchema.parse(JSON.parse(text))
  return { payment, offlinePolicy: offlinePolicy ?? 'preferOnline' }
}
