export { connectStore, createPosStore, type PosStore } from './pos-store'
export { PosProvider, useNow, usePos, usePosStore } from './pos-context'
export { applyEvent, queueAfterSale } from './apply-event'
export { alarmsWithQueue, forwardingNotice } from './queue-words'
export { currentQueueNotice, queueShape } from './queue-slice'
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
export type { TipDraft } from './tips-slice'
export type { DayExport, SalesScope, SalesSearch } from './sales-slice'
export { searching } from './sales-slice'
export type { CardPrompt, DeviceInfo, DeviceLink } from './device-slice'
export * from './selectors'
export { signInNeeded, type ApprovalRequest } from './operator-slice'
