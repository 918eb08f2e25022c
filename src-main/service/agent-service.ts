/**
 * The application layer: the one door behind every door. The local API, Electron IPC, nexo and the
 * command line turn their transport into `dispatch(caller, operation, request)` (or the typed
 * `call`), and nothing else: the request is validated with the contract's schema, access is decided
 * from the operation's row (access.ts), a manager's approval is checked against this very request
 * (approvals.ts), what must be is written to the audit trail, and the use-case area's handler runs.
 * Failures are catalogue errors, as data, mapped once here.
 */
import { EventEmitter } from 'node:events'
import {
  isOperationName,
  type OperationName,
  type OperationRequest,
  type OperationResults,
  type PosEvent,
  type PosResult,
  type PosStreamSnapshot,
} from '../../src-shared/contract'
import { errorView, failed, PosError } from '../../src-shared/errors'
import { receiptMerchantOf } from '../../src-shared/receipt'
import { toPosError } from '../errors'
import { Operators, Shifts } from '../operators'
import { ReceiptDesk } from '../receipts'
import { authorise } from './authorise'
import { feedEvents, standingAlarms } from './event-feed'
import { Approvals } from './approvals'
import { approvalWordsHandlers } from './approval-words'
import { AuditTrail } from './audit-trail'
import { callerKey, fingerprint, openerKey, pinLimitKey, type Caller } from './caller'
import { CounterSessions } from './counter-session'
import { CredentialRefusals, type RefusedCredential } from './credential-refusals'
import { dayHandlers } from './day'
import { runOperation, type OperationPipeline } from './operation-run'
import { peopleHandlers } from './people'
import { PinGuard } from './pin-guard'
import { queueHandlers } from './queue'
import { receiptsHandlers } from './receipts'
import { returnsHandlers } from './returns'
import { SaleEvents } from './sale-events'
import { SpokenSales } from './spoken-sales'
import { salesHandlers } from './sales'
import { queueStatusOf, type Handlers, type ServiceDeps, type ServiceParts } from './service-parts'
import { terminalHandlers } from './terminal'
import { WindowSessions, type RedeemRefusal, type SessionView, type WindowOpener } from './windows'

/** Builds a window's launch link from its one-time nonce: the door that serves windows gives it. */
export type WindowLinkBuilder = (view: SessionView, nonce: string) => string

/** Every operation's handler, area by area: what the service runs once access is decided. */
export type ServiceAreas = (parts: ServiceParts) => Handlers<OperationName>

/** The agent's use-case areas, one file each. */
export const USE_CASE_AREAS: ServiceAreas = (parts) => ({
  ...salesHandlers(parts),
  ...returnsHandlers(parts),
  ...dayHandlers(parts),
  ...queueHandlers(parts),
  ...receiptsHandlers(parts),
  ...terminalHandlers(parts),
  ...peopleHandlers(parts),
  ...approvalWordsHandlers(parts),
})

/**
 * Events of the service besides its PosEvents: `callerEnded` names a caller whose access just ended,
 * so a door closes what it holds open for it (an event stream): a window by its session, a token as
 * `token:<id>` (callerKey).
 */
export class AgentService extends EventEmitter<{ event: [PosEvent]; callerEnded: [string] }> {
  readonly windows: WindowSessions
  private readonly refusals: CredentialRefusals
  private readonly parts: ServiceParts
  private readonly pipeline: OperationPipeline
  private readonly saleEvents: SaleEvents
  private readonly unsubscribe: Array<() => void> = []
  private linkBuilder: WindowLinkBuilder | undefined

  constructor(
    private readonly deps: ServiceDeps,
    areas: ServiceAreas = USE_CASE_AREAS,
  ) {
    super()
    const now = deps.now ?? Date.now
    const { engine } = deps
    const operators = new Operators(engine.journal.operators, now)
    const audit = new AuditTrail(engine.journal.audit, (err, entry) =>
      deps.logger.error({ err, action: entry.action }, 'could not write the audit trail'),
    )
    this.refusals = new CredentialRefusals((entry) => audit.append(entry), now)
    const guard = new PinGuard(now)
    const sessions = new CounterSessions(new Shifts(engine.journal.shifts, now), now, (deps.idleSignOutMinutes ?? 15) * 60_000)
    this.windows = new WindowSessions(
      now,
      {
        opened: (session, view, openedBy) =>
          audit.append({
            action: 'windowOpened',
            door: view === 'customer' ? 'display' : 'counter',
            via: `window:${fingerprint(session)}`,
            ok: true,
            detail: `${view}, opened by ${openerWords(openedBy)}`,
          }),
        closed: (id, session, why, view) => {
          if (session !== undefined) sessions.forget(session)
          audit.append({
            action: 'windowClosed',
            door: view === 'customer' ? 'display' : 'counter',
            via: `window:${id}`,
            ok: true,
            detail: why,
          })
          if (session !== undefined) this.emit('callerEnded', session)
        },
      },
      engine.journal.windows,
      (opener) => opener.kind !== 'token' || (deps.tokens?.active(opener.id) ?? false),
    )
    if (deps.tokens)
      this.unsubscribe.push(
        deps.tokens.onRevoke((id) => {
          this.windows.tokenRevoked(id)
          this.emit('callerEnded', callerKey({ door: 'pos', token: { id, name: '', scopes: [] } }))
        }),
      )
    this.parts = {
      deps,
      now,
      operators,
      sessions,
      approvals: new Approvals(operators, guard, now),
      guard,
      windows: this.windows,
      audit,
      receipts: deps.receipts ?? new ReceiptDesk(receiptMerchantOf(deps.info)),
      spoken: new SpokenSales(),
      windowLink: (view, caller) => this.windowLink(view, caller),
      queueStatus: () => queueStatusOf(deps, now()),
      alarms: () => standingAlarms(engine.alarms, this.parts.queueStatus()),
      snapshot: () => this.saleEvents.snapshot(),
      showAmountCheck: (amount) => this.emit('event', this.saleEvents.amountCheck(amount)),
      pinKey: (caller) => pinLimitKey(caller, (session) => this.windows.rootOf(session)),
    }
    const handlers = areas(this.parts)
    this.pipeline = { audit, handlers, authorise: (caller, operation, request) => authorise(this.parts, caller, operation, request) }
    this.saleEvents = new SaleEvents({
      reads: engine.txn.reads,
      reader: deps.reader,
      alarms: () => this.parts.alarms(),
      queue: () => this.parts.queueStatus(),
      present: (view) => this.parts.spoken.view(view),
    })
    this.unsubscribe.push(
      ...feedEvents(
        deps,
        this.saleEvents,
        () => this.parts.queueStatus(),
        (event) => this.emit('event', event),
      ),
    )
  }

  /** Validates, checks access, and runs one operation; never throws: every failure is a catalogue error as data. */
  async dispatch(caller: Caller, operation: string, request: unknown): Promise<PosResult<unknown>> {
    if (!isOperationName(operation)) return failed('UNKNOWN_OPERATION', `no operation "${operation}"`)
    try {
      return { ok: true, value: await this.run(caller, operation, request) }
    } catch (thrown) {
      // A PosError is a refusal the code already explained; anything else is logged with its stack.
      if (!(thrown instanceof PosError)) this.deps.logger.error({ operation, err: thrown }, 'operation failed')
      return { ok: false, error: errorView(toPosError(thrown)) }
    }
  }

  /** One operation, typed end to end, for a door in this process (nexo); a refusal is thrown as a PosError. */
  async call<K extends OperationName>(caller: Caller, operation: K, request: OperationRequest<K>): Promise<OperationResults[K]> {
    try {
      return await this.run(caller, operation, request)
    } catch (thrown) {
      throw toPosError(thrown)
    }
  }

  private run<K extends OperationName>(caller: Caller, operation: K, request: unknown): Promise<OperationResults[K]> {
    return runOperation(this.pipeline, caller, operation, request)
  }

  /**
   * A refusal a door made by its own rule, before any operation ran (nexo: an Abort of a payment
   * another POS started), kept in the audit trail as an operation's refusal is.
   */
  recordRefusal(caller: Caller, refusal: { action: string; subject?: string | undefined; detail: string }): void {
    this.parts.audit.record(caller, { action: refusal.action, subject: refusal.subject, ok: false, detail: refusal.detail })
  }

  /** Lets a door that serves browser windows build their launch links (the local server). */
  serveWindows(builder: WindowLinkBuilder): void {
    this.linkBuilder = builder
  }

  /** A launch link the machine's owner opens (what `serve` prints at start). */
  ownerLink(view: SessionView = 'cashier'): string {
    return this.link(view, { kind: 'owner' }, 'issue')
  }

  private windowLink(view: SessionView, caller: Caller): string {
    const opener: WindowOpener =
      caller.door === 'counter' || caller.door === 'display'
        ? { kind: 'window', session: caller.session }
        : caller.door === 'cli' || caller.door === 'setup' || caller.token.id === 'installation'
          ? { kind: 'owner' }
          : { kind: 'token', id: caller.token.id }
    return this.link(view, opener)
  }

  private link(view: SessionView, opener: WindowOpener, whenFull: 'refuse' | 'issue' = 'refuse'): string {
    if (!this.linkBuilder) throw new PosError('NOT_FOUND', 'this agent serves no browser windows')
    return this.linkBuilder(view, this.windows.issue(view, opener, whenFull))
  }

  /** A launch link opened: the window's session, or why not (kept in the audit trail, a count a minute). */
  openWindow(nonce: string, refused: (why: RedeemRefusal) => void = () => {}): { id: string; view: SessionView } | undefined {
    return this.windows.redeem(nonce, (why) => {
      this.refusals.refused('counter', why === 'unknown' ? 'launch' : 'launchFull')
      refused(why)
    })
  }

  /** A door was shown a credential that opens nothing: the audit trail keeps it, a count a minute. */
  credentialRefused(door: Caller['door'], kind: RefusedCredential): void {
    this.refusals.refused(door, kind)
  }

  /**
   * Who a caller counts under for a door's allowances per opener (event streams, connections): a
   * token with every window opened from it (`token:<id>`), or the machine's owner's windows (`owner`).
   */
  openerOf(caller: Caller): string {
    return openerKey(caller, (session) => this.windows.rootOf(session))
  }

  /** The caller a window session is, if it is a live one. */
  windowCaller(session: string | undefined): Caller | undefined {
    const view = this.windows.sessionView(session)
    if (view === undefined || session === undefined) return undefined
    return view === 'customer' ? { door: 'display', session } : { door: 'counter', session }
  }

  /**
   * For a (re)connecting event stream: the sale events missed since journal position `afterSeq`
   * (each sale once, in its current state, oldest first, at most `limit`) and the newest position.
   */
  missedSaleEvents(afterSeq: number, limit: number): { events: PosEvent[]; lastSeq: number } {
    return this.saleEvents.missed(afterSeq, limit)
  }

  /** The terminal now, with the journal position it reflects: what a (re)connecting stream is sent. */
  snapshot(): PosStreamSnapshot {
    return this.saleEvents.snapshot()
  }

  close(): void {
    for (const off of this.unsubscribe.splice(0)) off()
    this.refusals.close()
  }
}

function openerWords(opener: WindowOpener): string {
  switch (opener.kind) {
    case 'owner':
      return "the machine's owner"
    case 'token':
      return `token ${opener.id}`
    case 'window':
      return `window ${opener.session.slice(0, 12)}`
  }
}
