/**
 * The transaction engine's public door. A sale reads top to bottom in sale-flow.ts, a return in
 * return-flow.ts, a void or a tip in after-sale-flow.ts, close of day in day-flow.ts, all steps of
 * the one engine in step-engine.ts; the pure machine is txn-machine.ts; the store-and-forward loop
 * is forwarder.ts. TxnService builds them and exposes each flow.
 */
export {
  TxnService,
  businessDay,
  type TxnServiceDeps,
  type TxnServiceEvent,
  type SaleRequest,
  type ReturnRequest,
  type TxnSettings,
} from './txn-service'
export { HostReach } from './host-reach'
export { Forwarder, type ForwarderDeps, type QueueAttention, type QueueStatus, type QueueAnswerSink } from './forwarder'
export { DEFAULT_RETRY_POLICY, timeLeftMs, type RetryPolicy } from './retry-policy'
export { DEFAULT_OFFLINE_LIMITS, type OfflineLimits } from './offline-policy'
export { DEFAULT_TIP_POLICY, type TipPolicy } from './tip-policy'
export { dayReportCsv, type DayReport } from './close-of-day'
export type { SaleFlow } from './sale-flow'
export type { ReturnFlow } from './return-flow'
export type { AfterSaleFlow } from './after-sale-flow'
export type { DayFlow } from './day-flow'
export type { SaleReads } from './sale-reads'
export { toSaleView, type SaleView } from './sale-view'
export type { MerchantIdentity, PaymentOptions } from './message-bodies'
