/**
 * The data that crosses from the main process to the cashier UI and the local API. Masked PAN and
 * ids only: no type here can carry a card number, track, PIN block or key.
 */

import type { ErrorView } from '../errors'
import type { TokenScope } from './access'
import type { PrinterState } from '../receipt/printer-states'
import type { CardholderVerification, QueueFailure, QueueOperation, SaleCause, SaleOrigin, SaleState, TipState } from '../sale'

export { SALE_STATES, SALE_ORIGINS, type SaleState, type SaleOrigin } from '../sale'

export interface SaleView {
  id: string
  state: SaleState
  amountMinor: number
  currency: string
  tipMinor: number
  tipState: TipState
  autoCapture: boolean
  offline: boolean
  reason?: string
  /** Why the payment ended as it did, as the machine recorded it (for doors that speak another protocol). */
  cause?: SaleCause
  authCode?: string
  svcTransID?: string
  maskedPan?: string
  brand?: string
  readMethod?: string
  applicationId?: string
  applicationLabel?: string
  /** Chip: Terminal Verification Results (95), hex, as the receipt prints them: the final ones once the card completed. */
  tvr?: string
  /** Chip: Transaction Status Information (9B), hex, once the card completed. */
  tsi?: string
  /** How the cardholder was verified (src-shared/sale/cardholder-verification.ts). */
  cvm?: CardholderVerification
  reference?: string
  /** The operator signed in at the counter when it was rung up. */
  operatorId?: string
  /** The merchant's order reference it was started with (startSale `options.merchantOrderReference`), sent to the bank. */
  orderReference?: string
  /**
   * Who rang the sale up: the cashier at this screen, or the POS through the local API (docs/local-api.md).
   * Absent on sales journaled before it was recorded.
   */
  startedBy?: SaleOrigin
  /**
   * The cashier or the POS asked for this sale's prompts to be spoken on the customer display
   * (startSale `speech`); absent otherwise.
   */
  speech?: true
  /** A return (a credit to the card); absent for a sale. */
  kind?: 'return'
  /** A return: the sale it credits (absent for a return without a sale on this terminal). */
  originalId?: string
  /** A sale that may be returned: what is left to return (amount plus tip, less its returns), in minor units. */
  returnableMinor?: number
  /** A sale: what its returns credited or are crediting, in minor units; absent when none (a sale with returns cannot be voided). */
  returnedMinor?: number
  createdAt: number
  updatedAt: number
  businessDay: string
}

export interface QueueItemView {
  seq: number
  saleId: string
  operation: QueueOperation
  state: string
  attempts: number
  amountMinor: number
  currency: string | null
  createdAt: number
  nextAttemptAt: number
  /** Why the last attempt did not go through (its words: QUEUE_FAILURE_WORDS); null before any failure. */
  lastFailure: QueueFailure | null
  /** The last failure's technical detail, for the log and support: never shown to a cashier. */
  lastError: string | null
  /** Time left before the item needs a manager, in ms. */
  expiresInMs: number
}

export interface QueueStatusView {
  count: number
  storedCount: number
  storedAmountMinor: Record<string, number>
  oldestStoredAt?: number
  /** Time left before the oldest stored payment expires, in ms. */
  oldestExpiresInMs?: number
  attentionCount: number
  /** Items sealed under a data key the keychain no longer holds. */
  lockedCount: number
  hostReachable?: boolean
  lastAttemptAt?: number
}

/** The receipt printer as the agent last found it (docs/receipts.md). */
export interface PrinterStatusView {
  configured: boolean
  state: PrinterState
  /** Paper width, 58 or 80 mm. */
  paperMm?: number
  /** When the printer was last asked (epoch ms). */
  checkedAt?: number
}

export interface OperatorTotalsView {
  operatorId?: string
  currency: string
  count: number
  amountMinor: number
  tipMinor: number
}

/**
 * One shift: an operator's time signed in at the counter (sign-in to sign-out, the next operator's
 * sign-in or the close), and what they charged in it, per currency: the sales they rang up in that
 * time, as byOperator counts them (returns are counted apart, as there).
 */
export interface ShiftTotalsView {
  operatorId: string
  /** The sign-in (epoch ms). */
  start: number
  /** When it ended (epoch ms); absent while the operator is still signed in. */
  end?: number
  /** Sales charged in it. */
  count: number
  /** Amount charged, per currency, in minor units. */
  amountMinor: Record<string, number>
  /** Tips on those sales, per currency, in minor units. */
  tipMinor: Record<string, number>
}

export interface DayTotalsView {
  currency: string
  brand: string
  count: number
  amountMinor: number
  tipMinor: number
}

/**
 * One numbered batch of sales: each close of day closes the open batch, and later sales go to the
 * next. A closed batch's totals never change.
 */
export interface BatchView {
  /** 1, 2, 3, … in the order batches were opened on this journal. */
  number: number
  /** When it was closed (epoch ms); absent while the batch is open. */
  closedAt?: number
  /** Closed by a manager past sales that needed a manager (recorded on each of them too). */
  managerOverride?: boolean
  /** The operator who closed it. */
  closedBy?: string
}

/** A closed batch in the list of batches: what a manager picks a report from. */
export interface BatchSummaryView extends Required<Pick<BatchView, 'number' | 'closedAt'>> {
  businessDay: string
  managerOverride: boolean
  saleCount: number
  /** Charged amount plus tips, per currency, in minor units, as closed. */
  totalMinor: Record<string, number>
}

export interface DayReportView {
  /** The batch this report is about: the open one, or a closed one with its totals as closed. */
  batch: BatchView
  /** The terminal's local day the batch was closed on, or today while it is open. */
  businessDay: string
  /** Only the open batch, with sales in it and nothing blocking, can be closed. */
  closable: boolean
  blockedReason?: string
  counts: {
    approved: number
    declined: number
    offline: number
    stored: number
    reversed: number
    cancelled: number
    needsAttention: number
    abandoned: number
    /** Stored payments the bank declined when forwarded: approved at the counter, never paid. */
    notReceived: number
    /** Returns credited, or being credited, to a card. */
    returns: number
  }
  /** What the store did not get (notReceived), per currency, in minor units. */
  notReceivedMinor: Record<string, number>
  /**
   * Blocked only by sales that need a manager: a manager may close anyway, and that is recorded on
   * each of those sales. False when something else blocks (a reversal waiting, a sale at the counter).
   */
  overridable: boolean
  totals: DayTotalsView[]
  tipsMinor: Record<string, number>
  /** What returns credited, or are crediting, per currency, in minor units. */
  returnsMinor: Record<string, number>
  /** What was charged, amount plus tips, less returns, per currency: the Z-report's grand total. */
  grandTotalMinor: Record<string, number>
  /** What each operator charged, per currency; sales without an operator (the POS's) in a row without one. */
  byOperator: OperatorTotalsView[]
  /** Each operator's shifts at the counter, oldest first (none for batches closed before shifts were kept). */
  byShift: ShiftTotalsView[]
  sales: SaleView[]
}

export type DevicePrompt =
  /**
   * `expiresAt` (epoch ms): when the wait for the card ends, unless the customer asks for more time
   * (extendCardRead) while `extensionsLeft` is above 0.
   */
  | { type: 'waitingForCard'; prompt: string; expiresAt?: number; extensionsLeft?: number }
  | { type: 'cardRead'; maskedPan: string; method: string }
  | { type: 'enterPin' }
  | { type: 'pinEntered' }
  | { type: 'processing' }
  | { type: 'removeCard' }
  | { type: 'insertChip'; reason: string }
  | { type: 'error'; code: string; message: string }
  | { type: 'connection'; state: 'connected' | 'disconnected' | 'reconnecting'; port?: string }
  | { type: 'interrupted'; purpose: 'purchase' | 'void' }

/** extendCardRead's answer: the card prompt's new end, and how many more times it can be moved. */
export interface CardReadExtensionView {
  expiresAt: number
  extensionsLeft: number
}

export interface DeviceStatusView {
  connected: boolean
  port?: string
  busy: boolean
}

export interface AlarmView {
  code: string
  message: string
}

export interface AppInfo {
  mode: 'production' | 'training'
  currency: string
  terminalId: string
  storeName?: string
  /** The merchant id and the store's address lines, as receipts print them. */
  merchantId: string
  storeAddress: string[]
  restaurantMode: boolean
  tipTolerancePercent: number
  /**
   * Sale amounts in minor units of `currency`: above `maxSaleMinor` a sale is refused; above
   * `confirmAboveMinor` it starts only with `amountConfirmed: true`.
   */
  saleLimits: { maxSaleMinor: number; confirmAboveMinor: number }
  /** Where receipts can go besides the screen: a receipt printer, email. */
  receipts: { printer: boolean; email: boolean }
  /** Training mode: the simulated PIN pad's test cards, to choose which one the "customer" presents. */
  trainingCards: TrainingCardView[]
  alarms: AlarmView[]
}

/** A test card of the simulated PIN pad, in the words a trainee picks it by. */
export interface TrainingCardView {
  /** What presentTestCard takes. */
  name: string
  label: string
  description: string
}

/** An operator (cashier or manager) as the screens and the API show one: never the PIN or its hash. */
export interface OperatorView {
  /** The operator number typed at sign-in. */
  id: string
  name: string
  role: 'cashier' | 'manager'
  createdAt: number
  /** Locked after too many wrong PINs, until then (ms since the epoch). */
  lockedUntil?: number
  disabled: boolean
}

/** The counter's operator: whether the terminal asks for a sign-in (it has operators), and who is signed in. */
export interface CounterOperatorView {
  required: boolean
  operator?: OperatorView
  /** A void of a sale older than this needs a manager. */
  voidWithoutManagerMinutes: number
}

/** An integrator token as a manager sees it: never the token itself, which is shown once, when created. */
export interface IntegratorTokenView {
  id: string
  /** What it is for, e.g. the POS it was given to. */
  name: string
  createdAt: number
  lastUsedAt?: number
  /** Revoked: the token no longer opens anything. */
  revokedAt?: number
  /** What it may do (src-shared/contract/access.ts). */
  scopes: TokenScope[]
}

/** A manager's approval of one request (the `approve` operation): send it as that request's `approval`. */
export interface ApprovalProofView {
  approval: string
  operation: string
  /** The manager who approved. */
  operatorId: string
  expiresAt: number
}

/** One scrape of the agent's metrics, in the Prometheus text format. */
export interface MetricsScrapeView {
  contentType: string
  text: string
}

/** A browser window a launch link opened, as a manager sees it in Settings: never its secret. */
export interface PairedWindowView {
  /** A short, one-way name for it. */
  id: string
  view: 'cashier' | 'customer'
  /** What opened it, in words: the machine's owner, a token by name, another window. */
  openedBy: string
  createdAt: number
  lastSeenAt: number
  /** It is the window asking. */
  current: boolean
}

/** A one-time link that opens a window (good once, for ten minutes). */
export interface WindowLinkView {
  url: string
}

/** One record of the audit trail: what happened, who did it, through which door. */
export interface AuditRecordView {
  seq: number
  at: number
  /** What happened, e.g. signIn, signInRefused, lockout, approval, windowOpened, tokenCreated, keyChanged. */
  action: string
  /** How it reached the agent: counter, display, pos, nexo, cli, setup. */
  door: string
  /** Which window or token it came through (a token's id, a window's short fingerprint). */
  via?: string
  /** The operator who did it or approved it. */
  actor?: string
  /** What it was about: an operation, an operator, a token, a sale. */
  subject?: string
  /** Whether it was done (false: refused). */
  ok: boolean
  detail?: string
}

export interface AuditTrailView {
  records: AuditRecordView[]
  /** Every record's hash follows from the one before: nothing was changed, removed or slipped in. */
  intact: boolean
}

export interface SettingsView {
  offlineBaseUrl: string
  aid: string
  storeId: string
  terminalId: string
  merchantId: string
  signingKey: { present: boolean; kcv?: string }
}

/**
 * Which sale an event is about, when it is about one: the agent's id and the POS's own `reference`
 * (absent for a sale rung up without one), so an integrator can follow its sale without knowing the
 * agent's id first.
 */
export interface SaleTag {
  saleId?: string
  reference?: string
}

/**
 * Live updates pushed to the UI (IPC in Electron, server-sent events in the browser). A `sale` event
 * carries `seq`, the journal position of the change it reports: the SSE `id`, from which a dropped
 * stream resumes (docs/local-api.md). A `device` prompt names the sale it belongs to; a reader
 * connection change with no sale at the counter names none.
 */
export type PosEvent =
  | ({ type: 'sale'; sale: SaleView; seq?: number } & SaleTag)
  | { type: 'queue'; queue: QueueStatusView }
  | ({ type: 'device'; prompt: DevicePrompt } & SaleTag)
  | ({ type: 'alarm'; alarm: AlarmView } & SaleTag)

/**
 * What the event stream sends first on every (re)connect, after any missed sale changes: the state
 * that queue, device and alarm events only report changes of.
 */
export interface PosStreamSnapshot {
  /** The journal position this snapshot reflects: every sale change up to it was delivered. */
  seq: number
  at: number
  /** The sale at the counter, if one is. */
  sale?: SaleView
  /** The reader's latest prompt for that sale. */
  prompt?: DevicePrompt
  queue: QueueStatusView
  device: DeviceStatusView
  alarms: AlarmView[]
}

/** The data of the event stream's `heartbeat` event: the agent's clock when it was sent. */
export interface PosStreamHeartbeat {
  at: number
}

/** An error as every door sends it: code, detail, retryable and the catalogue's words (src-shared/errors). */
export type PosErrorView = ErrorView

export type PosResult<T> = { ok: true; value: T } | { ok: false; error: PosErrorView }
