/**
 * The shapes the agent answers with, as zod schemas: the source of the local API's OpenAPI document
 * (`GET /v1/openapi.json`, built with zod's JSON Schema output). The TypeScript interfaces of dto.ts
 * stay the declarations the code uses; test/main/api/result-schemas.typecheck.ts holds each schema
 * equal to its interface in both directions, so the two cannot drift apart.
 */
import { z } from 'zod'
import { ERROR_CODES, type ErrorCode } from '../errors'
import { CARDHOLDER_VERIFICATIONS, QUEUE_FAILURES, QUEUE_OPERATIONS, SALE_CAUSES, SALE_ORIGINS, SALE_STATES, TIP_STATES } from '../sale'
import { PRINTER_STATES } from '../receipt/printer-states'
import type { OperationName } from './operations'
import { TOKEN_SCOPES } from './access'

const minorAmounts = z.record(z.string(), z.number()).describe('minor units per ISO 4217 currency code')
const epochMs = z.number().describe('ms since the epoch')

export const saleViewSchema = z.object({
  id: z.string(),
  state: z.enum(SALE_STATES),
  amountMinor: z.number(),
  currency: z.string(),
  tipMinor: z.number(),
  tipState: z.enum(TIP_STATES),
  autoCapture: z.boolean(),
  offline: z.boolean(),
  reason: z.string().optional(),
  cause: z.enum(SALE_CAUSES).optional(),
  authCode: z.string().optional(),
  svcTransID: z.string().optional(),
  maskedPan: z.string().optional(),
  brand: z.string().optional(),
  readMethod: z.string().optional(),
  applicationId: z.string().optional(),
  applicationLabel: z.string().optional(),
  tvr: z.string().optional(),
  tsi: z.string().optional(),
  cvm: z.enum(CARDHOLDER_VERIFICATIONS).optional(),
  reference: z.string().optional(),
  orderReference: z.string().optional(),
  operatorId: z.string().optional(),
  startedBy: z.enum(SALE_ORIGINS).optional(),
  speech: z.literal(true).optional(),
  kind: z.literal('return').optional(),
  originalId: z.string().optional(),
  returnableMinor: z.number().optional(),
  returnedMinor: z.number().optional(),
  createdAt: epochMs,
  updatedAt: epochMs,
  businessDay: z.string(),
})

export const queueItemViewSchema = z.object({
  seq: z.number(),
  saleId: z.string(),
  operation: z.enum(QUEUE_OPERATIONS),
  state: z.string(),
  attempts: z.number(),
  amountMinor: z.number(),
  currency: z.string().nullable(),
  createdAt: epochMs,
  nextAttemptAt: epochMs,
  lastFailure: z.enum(QUEUE_FAILURES).nullable(),
  lastError: z.string().nullable(),
  expiresInMs: z.number(),
})

export const queueStatusViewSchema = z.object({
  count: z.number(),
  storedCount: z.number(),
  storedAmountMinor: minorAmounts,
  oldestStoredAt: epochMs.optional(),
  oldestExpiresInMs: z.number().optional(),
  attentionCount: z.number(),
  lockedCount: z.number(),
  hostReachable: z.boolean().optional(),
  lastAttemptAt: epochMs.optional(),
})

export const dayTotalsViewSchema = z.object({
  currency: z.string(),
  brand: z.string(),
  count: z.number(),
  amountMinor: z.number(),
  tipMinor: z.number(),
})

export const batchViewSchema = z.object({
  number: z.number(),
  closedAt: epochMs.optional(),
  managerOverride: z.boolean().optional(),
  closedBy: z.string().optional(),
})

export const batchSummaryViewSchema = z.object({
  number: z.number(),
  closedAt: epochMs,
  businessDay: z.string(),
  managerOverride: z.boolean(),
  saleCount: z.number(),
  totalMinor: minorAmounts,
})

export const dayReportViewSchema = z.object({
  batch: batchViewSchema,
  businessDay: z.string(),
  closable: z.boolean(),
  blockedReason: z.string().optional(),
  counts: z.object({
    approved: z.number(),
    declined: z.number(),
    offline: z.number(),
    stored: z.number(),
    reversed: z.number(),
    cancelled: z.number(),
    needsAttention: z.number(),
    abandoned: z.number(),
    notReceived: z.number(),
    returns: z.number(),
  }),
  notReceivedMinor: minorAmounts,
  overridable: z.boolean(),
  totals: z.array(dayTotalsViewSchema),
  tipsMinor: minorAmounts,
  returnsMinor: minorAmounts,
  grandTotalMinor: minorAmounts,
  byOperator: z.array(
    z.object({ operatorId: z.string().optional(), currency: z.string(), count: z.number(), amountMinor: z.number(), tipMinor: z.number() }),
  ),
  byShift: z.array(
    z.object({
      operatorId: z.string(),
      start: z.number(),
      end: z.number().optional(),
      count: z.number(),
      amountMinor: minorAmounts,
      tipMinor: minorAmounts,
    }),
  ),
  sales: z.array(saleViewSchema),
})

export const devicePromptSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('waitingForCard'),
    prompt: z.string(),
    expiresAt: z.number().int().optional(),
    extensionsLeft: z.number().int().min(0).optional(),
  }),
  z.object({ type: z.literal('cardRead'), maskedPan: z.string(), method: z.string() }),
  z.object({ type: z.literal('enterPin') }),
  z.object({ type: z.literal('pinEntered') }),
  z.object({ type: z.literal('processing') }),
  z.object({ type: z.literal('removeCard') }),
  z.object({ type: z.literal('insertChip'), reason: z.string() }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({
    type: z.literal('connection'),
    state: z.enum(['connected', 'disconnected', 'reconnecting']),
    port: z.string().optional(),
  }),
  z.object({ type: z.literal('interrupted'), purpose: z.enum(['purchase', 'void']) }),
])

export const cardReadExtensionViewSchema = z.object({ expiresAt: z.number().int(), extensionsLeft: z.number().int().min(0) })
export const deviceStatusViewSchema = z.object({ connected: z.boolean(), port: z.string().optional(), busy: z.boolean() })

export const alarmViewSchema = z.object({ code: z.string(), message: z.string() })

export const printerStatusViewSchema = z.object({
  configured: z.boolean(),
  state: z.enum(PRINTER_STATES),
  paperMm: z.number().optional(),
  checkedAt: z.number().optional(),
})

export const appInfoSchema = z.object({
  mode: z.enum(['production', 'training']),
  currency: z.string(),
  terminalId: z.string(),
  storeName: z.string().optional(),
  merchantId: z.string(),
  storeAddress: z.array(z.string()),
  receipts: z.object({ printer: z.boolean(), email: z.boolean() }),
  restaurantMode: z.boolean(),
  tipTolerancePercent: z.number(),
  saleLimits: z.object({ maxSaleMinor: z.number(), confirmAboveMinor: z.number() }),
  trainingCards: z.array(z.object({ name: z.string(), label: z.string(), description: z.string() })),
  alarms: z.array(alarmViewSchema),
})

export const settingsViewSchema = z.object({
  offlineBaseUrl: z.string(),
  aid: z.string(),
  storeId: z.string(),
  terminalId: z.string(),
  merchantId: z.string(),
  signingKey: z.object({ present: z.boolean(), kcv: z.string().optional() }),
})

export const dayExportSchema = z.object({ filename: z.string(), contentType: z.string(), content: z.string() })

export const errorViewSchema = z.object({
  code: z.enum(ERROR_CODES as readonly [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  retryable: z.boolean(),
  words: z.string(),
})

const operatorSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['cashier', 'manager']),
  createdAt: epochMs,
  lockedUntil: epochMs.optional(),
  disabled: z.boolean(),
})

const counterOperatorSchema = z.object({
  required: z.boolean(),
  operator: operatorSchema.optional(),
  voidWithoutManagerMinutes: z.number(),
})

const integratorTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: epochMs,
  lastUsedAt: epochMs.optional(),
  revokedAt: epochMs.optional(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
})

const approvalProofSchema = z.object({ approval: z.string(), operation: z.string(), operatorId: z.string(), expiresAt: epochMs })
const windowLinkSchema = z.object({ url: z.string() })
const pairedWindowSchema = z.object({
  id: z.string(),
  view: z.enum(['cashier', 'customer']),
  openedBy: z.string(),
  createdAt: epochMs,
  lastSeenAt: epochMs,
  current: z.boolean(),
})
const auditRecordSchema = z.object({
  seq: z.number(),
  at: epochMs,
  action: z.string(),
  door: z.string(),
  via: z.string().optional(),
  actor: z.string().optional(),
  subject: z.string().optional(),
  ok: z.boolean(),
  detail: z.string().optional(),
})
const auditTrailSchema = z.object({ records: z.array(auditRecordSchema), intact: z.boolean() })

const saleTag = { saleId: z.string().optional(), reference: z.string().optional() }

export const posEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sale'), sale: saleViewSchema, seq: z.number().optional(), ...saleTag }),
  z.object({ type: z.literal('queue'), queue: queueStatusViewSchema }),
  z.object({ type: z.literal('device'), prompt: devicePromptSchema, ...saleTag }),
  z.object({ type: z.literal('alarm'), alarm: alarmViewSchema, ...saleTag }),
])

export const posStreamSnapshotSchema = z.object({
  seq: z.number(),
  at: epochMs,
  sale: saleViewSchema.optional(),
  prompt: devicePromptSchema.optional(),
  queue: queueStatusViewSchema,
  device: deviceStatusViewSchema,
  alarms: z.array(alarmViewSchema),
})

export const posStreamHeartbeatSchema = z.object({ at: epochMs })

/** What each operation answers with, under `value` (docs/local-api.md). */
export const RESULT_SCHEMAS = {
  appInfo: appInfoSchema,
  startSale: saleViewSchema,
  getSale: saleViewSchema,
  getSaleByReference: saleViewSchema,
  cancelSale: saleViewSchema,
  confirmDuplicate: saleViewSchema,
  voidSale: saleViewSchema,
  startReturn: saleViewSchema,
  adjustTip: saleViewSchema,
  listSales: z.array(saleViewSchema),
  queueStatus: queueStatusViewSchema,
  queueItems: z.array(queueItemViewSchema),
  forwardNow: queueStatusViewSchema,
  retryAttention: saleViewSchema,
  dayReport: dayReportViewSchema,
  closeDay: dayReportViewSchema,
  listBatches: z.array(batchSummaryViewSchema),
  acknowledgeAttention: saleViewSchema,
  exportDay: dayExportSchema,
  deviceStatus: deviceStatusViewSchema,
  extendCardRead: cardReadExtensionViewSchema,
  presentTestCard: z.object({ presented: z.string() }),
  settings: settingsViewSchema,
  setSigningKey: z.object({ kcv: z.string() }),
  createToken: z.object({ token: z.string(), integrator: integratorTokenSchema }),
  listTokens: z.array(integratorTokenSchema),
  revokeToken: integratorTokenSchema,
  listOperators: z.array(operatorSchema),
  addOperator: operatorSchema,
  signIn: operatorSchema,
  signOut: counterOperatorSchema,
  counterOperator: counterOperatorSchema,
  setOperatorPin: operatorSchema,
  disableOperator: operatorSchema,
  printReceipt: printerStatusViewSchema,
  emailReceipt: z.object({ to: z.string() }),
  printerStatus: printerStatusViewSchema,
  printDayReport: printerStatusViewSchema,
  unlockOperator: operatorSchema,
  approve: approvalProofSchema,
  openCashierWindow: windowLinkSchema,
  openCustomerDisplay: windowLinkSchema,
  auditTrail: auditTrailSchema,
  snapshot: posStreamSnapshotSchema,
  metrics: z.object({ contentType: z.string(), text: z.string() }),
  listWindows: z.array(pairedWindowSchema),
  revokeWindow: z.array(pairedWindowSchema),
} as const satisfies Record<OperationName, z.ZodType>

/**
 * The schemas the OpenAPI document names as components, by name: each is written once there and
 * referred to wherever it appears.
 */
export const NAMED_RESULT_SCHEMAS = {
  SaleView: saleViewSchema,
  QueueItemView: queueItemViewSchema,
  QueueStatusView: queueStatusViewSchema,
  DayTotalsView: dayTotalsViewSchema,
  BatchView: batchViewSchema,
  BatchSummaryView: batchSummaryViewSchema,
  DayReportView: dayReportViewSchema,
  DevicePrompt: devicePromptSchema,
  DeviceStatusView: deviceStatusViewSchema,
  CardReadExtensionView: cardReadExtensionViewSchema,
  AlarmView: alarmViewSchema,
  AppInfo: appInfoSchema,
  SettingsView: settingsViewSchema,
  OperatorView: operatorSchema,
  CounterOperatorView: counterOperatorSchema,
  IntegratorTokenView: integratorTokenSchema,
  ApprovalProofView: approvalProofSchema,
  AuditRecordView: auditRecordSchema,
  PairedWindowView: pairedWindowSchema,
  PrinterStatusView: printerStatusViewSchema,
  DayExport: dayExportSchema,
  ErrorView: errorViewSchema,
  PosEvent: posEventSchema,
  PosStreamSnapshot: posStreamSnapshotSchema,
  PosStreamHeartbeat: posStreamHeartbeatSchema,
} as const
