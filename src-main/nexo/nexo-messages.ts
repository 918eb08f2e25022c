/**
 * The nexo Sale-to-POI messages the endpoint understands, in their JSON form ("unencrypted local"
 * Terminal API, as Adyen's client libraries send them; docs/nexo.md). Requests are read leniently
 * (unknown fields are ignored, as the nexo specification asks of a receiver) but every field the
 * agent acts on is checked: an amount is a number, an identifier a bounded string. Responses are
 * written with the wire strings of the nexo enumerations ("OK", "ICC", "WrongPIN").
 */
import { z } from 'zod'

/** The message categories this endpoint answers; any other gets a failure Response (NotAllowed). */
export const NEXO_CATEGORIES = ['Login', 'Logout', 'Payment', 'Reversal', 'TransactionStatus', 'Abort', 'GetTotals', 'Diagnosis'] as const
export type NexoCategory = (typeof NEXO_CATEGORIES)[number]

/** nexo Response.ErrorCondition values this endpoint sends. */
export type ErrorCondition =
  | 'Aborted'
  | 'Busy'
  | 'Cancel'
  | 'DeviceOut'
  | 'InProgress'
  | 'MessageFormat'
  | 'NotAllowed'
  | 'NotFound'
  | 'PaymentRestriction'
  | 'Refusal'
  | 'UnavailableService'
  | 'UnreachableHost'

const id = (max: number) => z.string().min(1).max(max)

export const messageHeaderSchema = z.object({
  MessageClass: z.string(),
  MessageCategory: z.string(),
  MessageType: z.string(),
  POIID: z.string().max(64).optional(),
  SaleID: id(64),
  ServiceID: id(10),
  ProtocolVersion: z.string().max(16).optional(),
  DeviceID: z.string().max(64).optional(),
})
export type MessageHeader = z.infer<typeof messageHeaderSchema>

/** The envelope: a header and one body, whose key names the category (`PaymentRequest`). */
export const envelopeSchema = z.object({
  SaleToPOIRequest: z.looseObject({ MessageHeader: messageHeaderSchema }),
})

export const transactionIdentificationSchema = z.object({ TransactionID: id(64), TimeStamp: z.string().max(64) })
export type TransactionIdentification = z.infer<typeof transactionIdentificationSchema>

const messageReferenceSchema = z.object({
  MessageCategory: z.string().optional(),
  ServiceID: id(10).optional(),
  SaleID: id(64).optional(),
})

export const REQUEST_SCHEMAS = {
  Login: z.object({ OperatorID: z.string().max(64).optional(), OperatorLanguage: z.string().max(8).optional() }),
  Logout: z.object({}),
  Payment: z.object({
    SaleData: z.object({
      SaleTransactionID: transactionIdentificationSchema,
      OperatorID: z.string().max(64).optional(),
      /** For the POI: Base64 JSON; an `Operation` Payment/Accessibility asks for spoken prompts (nexo-accessibility.ts). */
      SaleToPOIData: z.string().max(4096).optional(),
    }),
    PaymentTransaction: z.object({
      AmountsReq: z.object({
        Currency: z.string().regex(/^[A-Z]{3}$/, 'Currency is an ISO 4217 code'),
        RequestedAmount: z.number().positive(),
      }),
    }),
    PaymentData: z.object({ PaymentType: z.string().optional() }).optional(),
  }),
  Reversal: z.object({
    OriginalPOITransaction: z.object({ POITransactionID: transactionIdentificationSchema, SaleID: z.string().optional() }),
    ReversalReason: z.string(),
    ReversedAmount: z.number().positive().optional(),
  }),
  TransactionStatus: z.object({ MessageReference: messageReferenceSchema.optional() }),
  Abort: z.object({ AbortReason: z.string().max(256), MessageReference: messageReferenceSchema }),
  GetTotals: z.object({}),
  Diagnosis: z.object({ HostDiagnosisFlag: z.boolean().optional() }),
} as const satisfies Record<NexoCategory, z.ZodType>

export type NexoRequest<C extends NexoCategory> = z.infer<(typeof REQUEST_SCHEMAS)[C]>

export interface NexoResult {
  Result: 'Success' | 'Failure'
  ErrorCondition?: ErrorCondition
  /** URL-encoded key=value pairs, as nexo implementations carry extra detail. */
  AdditionalResponse?: string
}

export function isNexoCategory(category: string): category is NexoCategory {
  return (NEXO_CATEGORIES as readonly string[]).includes(category)
}

/** `message=…&saleId=…`: the AdditionalResponse form. */
export function additionalResponse(fields: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) params.set(key, String(value))
  return params.toString()
}

export const success = (additional?: Record<string, string | number | boolean | undefined>): NexoResult => ({
  Result: 'Success',
  ...(additional ? { AdditionalResponse: additionalResponse(additional) } : {}),
})

export const failure = (
  condition: ErrorCondition,
  message: string,
  more: Record<string, string | number | boolean | undefined> = {},
): NexoResult => ({
  Result: 'Failure',
  ErrorCondition: condition,
  AdditionalResponse: additionalResponse({ message, ...more }),
})
