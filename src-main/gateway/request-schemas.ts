/**
 * Request bodies of the operations the terminal sends, as zod schemas (docs/gateway.md §4, after the
 * specification's "Offline payment", "Offline cancel", "Offline reversal", "TipsAdjustment", "Capture and Recapture",
 * "MerchandiseCredit").
 * The same schemas validate what the agent sends and what the training host accepts, so a body the
 * agent builds wrongly is caught before it leaves the terminal.
 *
 * Where the specification does not say whether a nested field is required, the decision is in
 * docs/gateway.md §D5 ("Nested required fields").
 */
import { z } from 'zod'
import { isKnownCurrency, minorUnitDigits } from '../../src-shared/money'
import { utf8ByteLength } from '../../src-shared/utf8'
import { DATE_TIME_PATTERN } from './headers'
import type { OperationKind } from './operations'

/** A string limited in UTF-8 bytes (docs/gateway.md §4: lengths are bytes). */
export function bytes(max: number, min = 0) {
  return z.string().refine((s) => utf8ByteLength(s) <= max && utf8ByteLength(s) >= min, {
    message: min > 0 ? `must be ${min} to ${max} bytes of UTF-8` : `must be at most ${max} bytes of UTF-8`,
  })
}

export const LIMITS = {
  metadata: 512,
  webhook: 300,
  initiatingReason: 64,
  /** Not shown in the specification; decided in docs/gateway.md §D5. */
  merchantTransID: 64,
  genericField: 256,
} as const

const text = bytes(LIMITS.genericField)
const dateTime = z.string().regex(DATE_TIME_PATTERN, 'must be ISO 8601 with an offset, e.g. 2026-11-21T10:00:00+01:00')

export const merchantTransInfoSchema = z.object({
  merchantTransID: bytes(LIMITS.merchantTransID, 1),
  merchantTransTime: dateTime,
  merchantOrderReference: text.optional(),
})

/** docs/gateway.md §D5 "Unstated limits": an amount's value has at most 16 digits before the point. */
export const AMOUNT_INTEGER_DIGITS = 16

/**
 * The largest amount `transAmount.value` can carry in `currency`, in minor units; never above
 * Number.MAX_SAFE_INTEGER, the largest count of minor units the agent holds exactly.
 */
export function maxAmountMinor(currency: string): number {
  return Math.min(Number.MAX_SAFE_INTEGER, 10 ** (AMOUNT_INTEGER_DIGITS + minorUnitDigits(currency)) - 1)
}

export const amountSchema = z
  .object({
    currency: z.string().refine(isKnownCurrency, 'must be an ISO 4217 alphabetic currency code'),
    value: z.string(),
  })
  .superRefine((amount, ctx) => {
    if (!isKnownCurrency(amount.currency)) return
    const digits = minorUnitDigits(amount.currency)
    const whole = `(0|[1-9]\\d{0,${AMOUNT_INTEGER_DIGITS - 1}})`
    const pattern = new RegExp(digits === 0 ? `^${whole}$` : `^${whole}\\.\\d{${digits}}$`)
    if (!pattern.test(amount.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message:
          digits === 0 ? `must be a whole number for ${amount.currency}` : `must have exactly ${digits} decimals for ${amount.currency}`,
      })
    }
  })

const hex = (max: number) =>
  z
    .string()
    .regex(/^([0-9A-Fa-f]{2})*$/, 'must be hexadecimal bytes')
    .refine((s) => s.length <= max, `must be at most ${max} hex characters`)

export const cardInfoSchema = z.object({
  cardNumber: z
    .string()
    .regex(/^\d{12,19}$/, 'must be 12 to 19 digits')
    .optional(),
  cvc: z
    .string()
    .regex(/^\d{3,4}$/)
    .optional(),
  /** YYMM, as in track data (ISO 7813). */
  expiryDate: z
    .string()
    .regex(/^\d{4}$/, 'must be YYMM')
    .optional(),
  holderName: bytes(26).optional(),
  paymentBrand: text.optional(),
  cardSequenceNum: z
    .string()
    .regex(/^\d{1,3}$/, 'must be 1 to 3 digits')
    .optional(),
  icCardData: hex(2048).optional(),
  track1: bytes(79).optional(),
  track2: bytes(40).optional(),
  track3: bytes(107).optional(),
})

export const pinSchema = z.object({
  encryptedPin: hex(32).refine((s) => s.length === 16 || s.length === 32, 'must be an 8- or 16-byte PIN block in hex'),
  keySerialNumber: hex(24).refine((s) => s.length === 20 || s.length === 24, 'must be a 10-byte (TDES) or 12-byte (AES) KSN in hex'),
  pinEncryptMethod: text,
  checkValue: text.optional(),
})

export const cardSchema = z.object({
  cardInfo: cardInfoSchema.optional(),
  cardInfoEncryptMethod: text.optional(),
  encryptedCardInfo: bytes(4096).optional(),
  cardSource: text.optional(),
  pinFlag: z.boolean().optional(),
  posEntryMode: z
    .string()
    .regex(/^\d{2,3}$/, 'must be 2 or 3 digits')
    .optional(),
  termReadability: z
    .string()
    .regex(/^\d{1,2}$/, 'must be 1 or 2 digits')
    .optional(),
  icCardCondCode: z
    .string()
    .regex(/^\d{1,2}$/)
    .optional(),
  noSecretNoSignFlag: z
    .string()
    .regex(/^[01YN]$/)
    .optional(),
  pin: pinSchema.optional(),
})

export const cardPaymentMethodSchema = z.object({
  type: z.literal('card'),
  card: cardSchema,
})

export const pspInfoSchema = z.record(z.string(), text).and(z.object({ merchantID: bytes(64, 1), terminalID: bytes(64, 1) }))

export const transInitiatorSchema = z.object({
  platform: text.optional(),
  deviceID: text.optional(),
  deviceType: text.optional(),
  userCreateIP: z.union([z.ipv4(), z.ipv6()]).optional(),
  latitude: text.optional(),
  longitude: text.optional(),
})

const metadata = bytes(LIMITS.metadata)
const webhook = bytes(LIMITS.webhook).refine((s) => /^https?:\/\/[^\s]+$/.test(s), 'must be an http(s) URL')
const initiatingReason = bytes(LIMITS.initiatingReason)

export const offlinePaymentSchema = z
  .object({
    autoCapture: z.boolean(),
    merchantTransInfo: merchantTransInfoSchema,
    paymentMethod: cardPaymentMethodSchema,
    pspInfo: pspInfoSchema,
    transAmount: amountSchema,
    DCCBillingAmount: amountSchema.optional(),
    origMerchantTransInfo: merchantTransInfoSchema.optional(),
    instalment: z.record(z.string(), z.unknown()).optional(),
    transInitiator: transInitiatorSchema.optional(),
    metadata: metadata.optional(),
    webhook: webhook.optional(),
  })
  .superRefine((body, ctx) => {
    // Instalment is honoured only with autoCapture (docs/gateway.md §4); refusing it
    // beats sending a field the host would silently ignore.
    if (body.instalment !== undefined && !body.autoCapture) {
      ctx.addIssue({ code: 'custom', path: ['instalment'], message: 'is supported only with autoCapture: true' })
    }
    if (body.DCCBillingAmount !== undefined && body.origMerchantTransInfo === undefined) {
      ctx.addIssue({ code: 'custom', path: ['origMerchantTransInfo'], message: 'is required with DCCBillingAmount' })
    }
    const info = body.paymentMethod.card.cardInfo
    if (!info?.track2 && !info?.cardNumber && !info?.track1 && !body.paymentMethod.card.encryptedCardInfo) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentMethod', 'card', 'cardInfo', 'track2'],
        message: 'card data is missing: track2, track1, cardNumber or encryptedCardInfo',
      })
    }
  })

export const offlineCancelSchema = z.object({
  merchantTransInfo: merchantTransInfoSchema,
  paymentMethod: cardPaymentMethodSchema,
  initiatingReason: initiatingReason.optional(),
  metadata: metadata.optional(),
  webhook: webhook.optional(),
})

export const offlineReversalSchema = z.object({
  initiatingReason: initiatingReason.optional(),
  metadata: metadata.optional(),
  paymentMethod: z
    .object({
      type: z.literal('card').optional(),
      card: z.object({
        cardInfo: cardInfoSchema.pick({ cardSequenceNum: true, icCardData: true }).optional(),
        cardInfoEncryptMethod: text.optional(),
        encryptedCardInfo: bytes(4096).optional(),
      }),
    })
    .optional(),
})

export const tipsSchema = z.object({
  merchantTransInfo: merchantTransInfoSchema,
  transAmount: amountSchema,
  metadata: metadata.optional(),
})

export const captureSchema = z.object({
  merchantTransInfo: merchantTransInfoSchema,
  transAmount: amountSchema,
  initiatingReason: initiatingReason.optional(),
  metadata: metadata.optional(),
  webhook: webhook.optional(),
})

/**
 * A return's credit (the specification's "MerchandiseCredit", docs/gateway.md; the host contract §3): the card presented at the
 * counter, as its number and expiry (YYMM) or as encrypted card info; never a track, a PIN or chip data.
 */
export const merchandiseCreditSchema = z
  .object({
    merchantTransInfo: merchantTransInfoSchema,
    pspInfo: pspInfoSchema,
    transAmount: amountSchema,
    initiatingReason: initiatingReason.optional(),
    metadata: metadata.optional(),
    webhook: webhook.optional(),
    paymentMethod: z
      .object({
        type: z.literal('card'),
        accountUpdateIndicator: text.optional(),
        card: z.object({
          cardInfo: cardInfoSchema.pick({ cardNumber: true, cvc: true, expiryDate: true, holderName: true }).optional(),
          cardInfoEncryptMethod: text.optional(),
          encryptedCardInfo: bytes(4096).optional(),
        }),
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    const card = body.paymentMethod?.card
    if (card !== undefined && !card.cardInfo?.cardNumber && !card.encryptedCardInfo) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentMethod', 'card', 'cardInfo', 'cardNumber'],
        message: 'card data is missing: cardNumber or encryptedCardInfo',
      })
    }
  })

export type OfflinePaymentBody = z.infer<typeof offlinePaymentSchema>
export type OfflineCancelBody = z.infer<typeof offlineCancelSchema>
export type OfflineReversalBody = z.infer<typeof offlineReversalSchema>
export type TipsBody = z.infer<typeof tipsSchema>
export type CaptureBody = z.infer<typeof captureSchema>
export type MerchandiseCreditBody = z.infer<typeof merchandiseCreditSchema>

export interface RequestBodies {
  payment: OfflinePaymentBody
  cancel: OfflineCancelBody
  reversal: OfflineReversalBody
  tips: TipsBody
  capture: CaptureBody
  merchandiseCredit: MerchandiseCreditBody
}

export const REQUEST_SCHEMAS: { readonly [K in OperationKind]: z.ZodType<RequestBodies[K]> } = {
  payment: offlinePaymentSchema,
  cancel: offlineCancelSchema,
  reversal: offlineReversalSchema,
  tips: tipsSchema,
  capture: captureSchema,
  merchandiseCredit: merchandiseCreditSchema,
}

export interface FieldProblem {
  /** `missing` maps to V0007, `invalid` to V0008 (docs/gateway.md §D1). */
  kind: 'missing' | 'invalid'
  field: string
  message: string
}

/** Validates a body and names the first offending field the way the host's result message does. */
export function checkRequestBody<K extends OperationKind>(
  kind: K,
  body: unknown,
): { ok: true; body: RequestBodies[K] } | { ok: false; problem: FieldProblem } {
  const parsed = REQUEST_SCHEMAS[kind].safeParse(body)
  if (parsed.success) return { ok: true, body: parsed.data }
  const issue = parsed.error.issues[0]
  const path = issue?.path ?? []
  const field = path.map(String).join('.') || '(body)'
  const missing = issue?.code === 'invalid_type' && valueAt(body, path) === undefined
  return {
    ok: false,
    problem: {
      kind: missing ? 'missing' : 'invalid',
      field,
      message: `${field} ${missing ? 'is required' : (issue?.message ?? 'is invalid')}`,
    },
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = root
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<PropertyKey, unknown>)[key]
  }
  return node
}
