/**
 * The data that crosses from the main process to the cashier UI and the local API: each type is
 * inferred from its schema in result-schemas.ts (where its fields are explained), so what the agent
 * declares, validates and documents (the OpenAPI document) is what the code uses. Masked PAN and ids
 * only: no type here can carry a card number, track, PIN block or key. Type-only imports: the screens
 * do not load zod.
 */

import type { z } from 'zod'
import type { ErrorView } from '../errors'
import type * as shapes from './result-schemas'

export { SALE_STATES, SALE_ORIGINS, type SaleState, type SaleOrigin } from '../sale'

export type SaleView = z.infer<typeof shapes.saleViewSchema>
export type QueueItemView = z.infer<typeof shapes.queueItemViewSchema>
export type QueueStatusView = z.infer<typeof shapes.queueStatusViewSchema>
export type PrinterStatusView = z.infer<typeof shapes.printerStatusViewSchema>
export type OperatorTotalsView = z.infer<typeof shapes.operatorTotalsViewSchema>
export type ShiftTotalsView = z.infer<typeof shapes.shiftTotalsViewSchema>
export type DayTotalsView = z.infer<typeof shapes.dayTotalsViewSchema>
export type BatchView = z.infer<typeof shapes.batchViewSchema>
export type BatchSummaryView = z.infer<typeof shapes.batchSummaryViewSchema>
export type DayReportView = z.infer<typeof shapes.dayReportViewSchema>
export type DevicePrompt = z.infer<typeof shapes.devicePromptSchema>
export type CardReadExtensionView = z.infer<typeof shapes.cardReadExtensionViewSchema>
export type DeviceStatusView = z.infer<typeof shapes.deviceStatusViewSchema>
export type AlarmView = z.infer<typeof shapes.alarmViewSchema>
export type AppInfo = z.infer<typeof shapes.appInfoSchema>
export type TrainingCardView = z.infer<typeof shapes.trainingCardViewSchema>
export type OperatorView = z.infer<typeof shapes.operatorSchema>
export type CounterOperatorView = z.infer<typeof shapes.counterOperatorSchema>
export type IntegratorTokenView = z.infer<typeof shapes.integratorTokenSchema>
export type ApprovalProofView = z.infer<typeof shapes.approvalProofSchema>
export type ApprovalRequestView = z.infer<typeof shapes.approvalRequestSchema>
export type MetricsScrapeView = z.infer<typeof shapes.metricsScrapeSchema>
export type PairedWindowView = z.infer<typeof shapes.pairedWindowSchema>
export type WindowLinkView = z.infer<typeof shapes.windowLinkSchema>
export type AuditRecordView = z.infer<typeof shapes.auditRecordSchema>
export type AuditTrailView = z.infer<typeof shapes.auditTrailSchema>
export type SettingsView = z.infer<typeof shapes.settingsViewSchema>
export type SaleTag = z.infer<typeof shapes.saleTagSchema>
export type AmountCheck = z.infer<typeof shapes.amountCheckSchema>
export type PosEvent = z.infer<typeof shapes.posEventSchema>
export type PosStreamSnapshot = z.infer<typeof shapes.posStreamSnapshotSchema>
export type PosStreamHeartbeat = z.infer<typeof shapes.posStreamHeartbeatSchema>

/** An error as every door sends it: code, detail, retryable and the catalogue's words (src-shared/errors). */
export type PosErrorView = ErrorView

export type PosResult<T> = { ok: true; value: T } | { ok: false; error: PosErrorView }
