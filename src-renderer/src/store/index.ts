export { connectStore, createPosStore, type PosStore } from './pos-store'
export { PosProvider, useNow, usePos, usePosStore } from './pos-context'
export { applyEvent, queueAfterSale } from './apply-event'
export { alarmsWithQueue, forwardingNotice } from './slices/queue/queue-words'
export { currentQueueNotice, queueShape } from './slices/queue/queue-slice'
export { describeError } from './error-words'
export { entryAfterEdit, entryFromText, entryMinor, entryText, parseTypedAmount } from './amount-entry'
export {
  bankUnreachable,
  readMethodWords,
  SALE_WORDS,
  saleReasonWords,
  saleWords,
  showsAuthCode,
  tipStateWords,
  type SaleWords,
  type Tone,
} from './sale-words'
export { plainReason } from './reason-words'
export { adoptRunningSale, runningSale } from './counter-sale'
export { SCREENS, type Notice, type PosState, type Screen, type StoreDeps } from './store-types'
export type { TipDraft } from './slices/tips/tips-slice'
export type { DayExport, SalesScope, SalesSearch } from './slices/sales/sales-slice'
export { searching } from './slices/sales/sales-slice'
export type { CardPrompt, DeviceInfo, DeviceLink } from './slices/device/device-slice'
export * from './selectors'
export { signInNeeded, type ApprovalRequest } from './slices/operator/operator-slice'
