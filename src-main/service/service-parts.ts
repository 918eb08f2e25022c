/**
 * What the service's use-case areas share: the engine and ports the composition root hands in
 * (src-main/app/agent.ts), and the parts the service builds once from them. A handler receives the
 * validated request and the call's context; access was decided before it runs (access.ts).
 */
import type { Logger } from 'pino'
import type {
  AppInfo,
  OperationName,
  OperationRequest,
  OperationResults,
  PosStreamSnapshot,
  QueueStatusView,
  SettingsView,
} from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import type { CardReader } from '../device'
import type { JournalStore } from '../journal'
import type { SecretStore } from '../keychain'
import type { Operators } from '../operators'
import type { ReceiptDesk } from '../receipts'
import { timeLeftMs, type Forwarder, type RetryPolicy, type TxnService } from '../txn'
import type { Approvals } from './approvals'
import type { AuditTrail } from './audit-trail'
import type { Caller } from './caller'
import type { CounterSessions } from './counter-session'
import type { IntegratorTokens } from './integrator-tokens'
import type { PinGuard } from './pin-guard'
import type { SpokenSales } from './spoken-sales'
import type { WindowSessions } from './windows'

/** What the service uses of the engine the composition root builds (src-main/app/compose.ts). */
export interface ServiceEngine {
  alarms: AppInfo['alarms']
  /** The service's own records: operators, shifts, the audit trail, paired windows. Sales are read through `txn`. */
  journal: Pick<JournalStore, 'operators' | 'shifts' | 'audit' | 'windows'>
  txn: TxnService
  forwarder: Forwarder
  /** Alarms raised after start, as they are raised (absent: this engine raises none later). */
  onAlarm?: (listener: (alarm: AppInfo['alarms'][number]) => void) => () => void
  /** How safe the store's copies are, for the status panel (absent or undefined: no store). */
  storeCopy?: () => { words: string; synced: boolean } | undefined
  /** Tells `listener` when `storeCopy()` changes (absent: it never changes after start). */
  onStoreCopy?: (listener: () => void) => () => void
}

export interface ServiceDeps {
  engine: ServiceEngine
  reader: CardReader
  secrets: SecretStore
  retry: RetryPolicy
  /** What the terminal is; its alarms and where receipts can go are added as they stand. */
  info: Omit<AppInfo, 'alarms' | 'receipts'>
  settings: Omit<SettingsView, 'signingKey'> & { aid: string }
  /** Training mode only: makes the simulated PIN pad present a test card next. */
  presentTestCard?: (name: string) => void
  /** The integrator tokens a manager manages (absent: this agent keeps none, e.g. in some tests). */
  tokens?: IntegratorTokens
  /** Where receipts go besides the screen: the receipt printer and email (absent: neither is set up). */
  receipts?: ReceiptDesk
  /** A void of a sale older than this needs a manager (30 minutes unless configured). */
  voidWithoutManagerMinutes?: number
  /** A sign-in at a counter ends after this long unused (15 minutes unless configured; 0 never). */
  idleSignOutMinutes?: number
  /** The agent's Prometheus metrics (src-main/metrics); absent: this agent keeps none. */
  metrics?: { contentType: string; scrape(): Promise<string> }
  logger: Logger
  /** The clock every rule reads (the void's age, lockouts, approvals' lifetime). */
  now?: () => number
}

/** The service's own parts, built once, that handlers use. */
export interface ServiceParts {
  deps: ServiceDeps
  now: () => number
  operators: Operators
  sessions: CounterSessions
  approvals: Approvals
  guard: PinGuard
  windows: WindowSessions
  audit: AuditTrail
  receipts: ReceiptDesk
  /** The sales whose prompts the customer display speaks (startSale `speech`). */
  spoken: SpokenSales
  /** A one-time link for a window of `view`, once a door that serves windows is there. */
  windowLink(view: 'cashier' | 'customer', caller: Caller): string
  queueStatus(): QueueStatusView
  /** The terminal's alarms as they stand: the engine's, and one while a queued message waits for a manager. */
  alarms(): AppInfo['alarms']
  snapshot(): PosStreamSnapshot
  /** Tells the windows (the customer display) which large amount the cashier is checking, or that none is. */
  showAmountCheck(amount: { amountMinor: number; currency: string } | null): void
  /** The key a caller's PIN tries are counted under (caller.ts pinLimitKey). */
  pinKey(caller: Caller): string
}

/** The call a handler serves: who asked, and the operator who acts (signed in here, or the manager who approved). */
export interface CallContext {
  caller: Caller
  actor?: string | undefined
  /** How the call was let in, when its audit record must say it (the machine's owner standing for a manager). */
  detail?: string | undefined
}

export type Handler<K extends OperationName> = (
  request: OperationRequest<K>,
  context: CallContext,
) => OperationResults[K] | Promise<OperationResults[K]>

/** The handlers of one area, for the operations it serves. */
export type Handlers<K extends OperationName> = { [P in K]: Handler<P> }

/** A sale by id, or NO_SUCH_SALE. */
export function saleOf(parts: ServiceParts, id: string) {
  const view = parts.deps.engine.txn.reads.get(id)
  if (!view) throw new PosError('NO_SUCH_SALE', `no sale ${id}`)
  return parts.spoken.view(view)
}

/** The queue as the screens and integrators read it. */
export function queueStatusOf(deps: ServiceDeps, now: number): QueueStatusView {
  const status = deps.engine.forwarder.status()
  const storeCopy = deps.engine.storeCopy?.()
  return {
    count: status.count,
    storedCount: status.storedCount,
    storedAmountMinor: status.storedAmountMinor,
    attentionCount: status.attentionCount,
    lockedCount: deps.engine.forwarder.lockedCount(),
    ...(status.oldestStoredAt !== undefined
      ? { oldestStoredAt: status.oldestStoredAt, oldestExpiresInMs: timeLeftMs(deps.retry, 'payment', status.oldestStoredAt, now) }
      : {}),
    ...(status.hostReachable !== undefined ? { hostReachable: status.hostReachable } : {}),
    ...(status.lastAttemptAt !== undefined ? { lastAttemptAt: status.lastAttemptAt } : {}),
    ...(storeCopy !== undefined ? { storeCopy: storeCopy.words, storeCopySynced: storeCopy.synced } : {}),
  }
}
