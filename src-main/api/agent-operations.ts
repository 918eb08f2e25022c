/**
 * The contract's operations (src-shared/contract) carried out on the running agent. One dispatcher
 * for every door: Electron IPC and the local HTTP API both call `dispatch`, which validates the
 * request with the contract's schema and maps errors once, to `{ ok: false, error }`.
 */
import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import {
  COUNTER_ONLY_OPERATIONS,
  MANAGER_APPROVED_OPERATIONS,
  SIGNED_IN_OPERATIONS,
  type CounterOperatorView,
  OPERATION_SCHEMAS,
  type AppInfo,
  type OperationName,
  type OperationRequest,
  type OperationResults,
  type PosEvent,
  type PosResult,
  type PosStreamSnapshot,
  type QueueStatusView,
  type SaleOrigin,
  type SaleView,
  type SettingsView,
} from '../../src-shared/contract'
import { errorView, failed, PosError } from '../../src-shared/errors'
import type { CardReader } from '../device'
import { toPosError } from '../errors'
import { keyCheckValue, storeSigningKey } from '../gateway'
import type { JournalStore } from '../journal'
import { signingKeyAccount, type SecretStore } from '../keychain'
import { dayReportCsv, timeLeftMs, type Forwarder, type QueueAttention, type RetryPolicy, type TxnService } from '../txn'
import { QUEUE_FAILURE_WORDS, QUEUE_OPERATION_NOUNS, type QueueOperation } from '../../src-shared/sale'
import type { IntegratorTokens } from './integrator-tokens'
import { Operators, Shifts, type Credential, type OperatorView } from '../operators'
import { SaleEvents } from './sale-events'
import { ReceiptDesk } from '../receipts'
import { receiptMerchantOf } from '../../src-shared/receipt'

/** What the operations use of the engine the composition root builds (src-main/app/compose.ts). */
export interface AgentEngine {
  alarms: AppInfo['alarms']
  journal: Pick<JournalStore, 'outbox' | 'byReference' | 'events' | 'openSales' | 'saleChangesAfter' | 'operators' | 'shifts'>
  txn: TxnService
  forwarder: Forwarder
}

export interface AgentContext {
  engine: AgentEngine
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
  logger: Logger
}

/** Who acts, once the terminal has operators: the operator signed in at the counter, or the manager who approved. */
interface Actor {
  by?: string
}

/** `caller`: the cashier's screen (Electron, or the page the local server serves) or the POS. */
type Handlers = {
  [K in OperationName]: (
    request: OperationRequest<K>,
    caller: SaleOrigin,
    actor: Actor,
  ) => Promise<OperationResults[K]> | OperationResults[K]
}

export class AgentOperations extends EventEmitter<{ event: [PosEvent] }> {
  private readonly handlers: Handlers
  private readonly unsubscribe: Array<() => void> = []
  private readonly saleEvents: SaleEvents
  private readonly operators: Operators
  private readonly shifts: Shifts
  private readonly receipts: ReceiptDesk
  /** Who is signed in at the counter (the cashier window), if anyone. */
  private counterOperator: OperatorView | undefined

  constructor(private readonly ctx: AgentContext) {
    super()
    const { engine } = ctx
    const txn = engine.txn
    this.operators = new Operators(engine.journal.operators)
    this.shifts = new Shifts(engine.journal.shifts)
    this.receipts = ctx.receipts ?? new ReceiptDesk(receiptMerchantOf(ctx.info))
    this.saleEvents = new SaleEvents({
      journal: engine.journal,
      txn,
      reader: ctx.reader,
      alarms: () => engine.alarms,
      queue: () => this.queueStatus(),
    })
    this.handlers = {
      appInfo: () => ({ ...ctx.info, receipts: { printer: this.receipts.canPrint, email: this.receipts.canEmail }, alarms: engine.alarms }),
      // A receipt leaves the terminal as often as asked; reprinting changes nothing of the sale.
      printReceipt: async (r) => {
        await this.receipts.print(this.sale(r.id), r.copies, r.kind)
        return this.receipts.printerStatus(false)
      },
      emailReceipt: async (r) => {
        await this.receipts.email(this.sale(r.id), r.to, r.kind)
        return { to: r.to }
      },
      printerStatus: () => this.receipts.printerStatus(true),
      printDayReport: async (r) => {
        await this.receipts.printDayReport(txn.dayReport(r.batch))
        return this.receipts.printerStatus(false)
      },
      startSale: (r, caller, actor) =>
        txn.startSale({
          startedBy: caller,
          operatorId: actor.by,
          amountMinor: r.amountMinor,
          currency: r.currency ?? ctx.info.currency,
          reference: r.reference,
          offlinePolicy: r.offlinePolicy,
          options: r.options,
          amountConfirmed: r.amountConfirmed,
        }),
      getSale: (r) => this.sale(r.id),
      getSaleByReference: (r) => {
        const record = engine.journal.byReference(r.reference)
        if (!record) throw new PosError('NO_SUCH_SALE', `no sale with reference "${r.reference}"`)
        return this.sale(record.id)
      },
      cancelSale: async (r, _caller, actor) => {
        await txn.cancelSale(r.id, actor.by)
        return this.sale(r.id)
      },
      confirmDuplicate: async (r, _caller, actor) => {
        await txn.confirmDuplicate(r.id, r.charge, actor.by)
        return this.sale(r.id)
      },
      voidSale: (r, _caller, actor) => txn.voidSale(r.id, actor.by),
      startReturn: (r, caller, actor) =>
        txn.startReturn({
          originalId: r.originalId,
          amountMinor: r.amountMinor,
          currency: r.currency ?? ctx.info.currency,
          reference: r.reference,
          // actorFor let it through only with a manager's approval, once the terminal has a manager; a
          // terminal without any has nobody who could approve a return without a sale.
          managerApproved: this.operators.hasManager(),
          startedBy: caller,
          operatorId: actor.by,
        }),
      adjustTip: (r, _caller, actor) => txn.adjustTip(r.id, r.tipMinor, r.managerOverride ?? false, actor.by),
      listSales: (r) => txn.searchSales(r),
      queueStatus: () => this.queueStatus(),
      queueItems: () => {
        const now = Date.now()
        return engine.journal.outbox
          .waiting()
          .map((item) => ({ ...item, expiresInMs: timeLeftMs(ctx.retry, item.operation as never, item.createdAt, now) }))
      },
      forwardNow: async () => {
        await engine.forwarder.forwardNow()
        return this.queueStatus()
      },
      retryAttention: (r, _caller, actor) => txn.managerRetry(r.id, actor.by),
      dayReport: (r) => txn.dayReport(r.batch),
      closeDay: async (r, _caller, actor) => {
        const report = await txn.closeDay(r.batch, r.managerOverride ?? false, actor.by)
        // The close ended the shift of whoever is signed in at the counter; they stay signed in, so
        // their time from the close on is a shift of the next batch.
        if (this.counterOperator) this.shifts.signedIn(this.counterOperator.id, report.batch.closedAt)
        return report
      },
      listBatches: () => txn.listBatches(),
      acknowledgeAttention: (r, _caller, actor) => txn.acknowledge(r.id, actor.by),
      exportDay: (r) => {
        const report = txn.dayReport(r.batch)
        const name = `pos-agent-${report.businessDay}-batch-${report.batch.number}${report.batch.closedAt === undefined ? '-open' : ''}`
        return r.format === 'csv'
          ? { filename: `${name}.csv`, contentType: 'text/csv; charset=utf-8', content: dayReportCsv(report) }
          : {
              filename: `${name}.json`,
              contentType: 'application/json; charset=utf-8',
              content: JSON.stringify(report, null, 2),
            }
      },
      deviceStatus: () => ctx.reader.status(),
      presentTestCard: (r) => {
        if (!ctx.presentTestCard) throw new PosError('NOT_TRAINING', 'test cards exist only in training mode')
        ctx.presentTestCard(r.name)
        return { presented: r.name }
      },
      settings: async () => {
        const key = await ctx.secrets.get(signingKeyAccount(ctx.settings.aid))
        return { ...ctx.settings, signingKey: key === undefined ? { present: false } : { present: true, kcv: keyCheckValue(key) } }
      },
      setSigningKey: async (r) => ({ kcv: await storeSigningKey(ctx.secrets, ctx.settings.aid, r.key) }),
      createToken: (r) => {
        const { token, view } = this.tokens().create(r.name)
        ctx.logger.info({ token: view.id, name: view.name }, 'integrator token created')
        return { token, integrator: view }
      },
      listTokens: () => this.tokens().list(),
      listOperators: () => this.operators.list(),
      addOperator: (r) => this.operators.add({ operatorId: r.operatorId, name: r.name, role: r.role, pin: r.pin }, r.approval),
      signIn: async (r) => {
        // One counter per terminal: signing in there replaces whoever was signed in.
        this.counterOperator = await this.operators.verify(r)
        this.shifts.signedIn(this.counterOperator.id)
        return this.counterOperator
      },
      signOut: () => {
        this.counterOperator = undefined
        this.shifts.signedOut()
        return this.counterOperatorView()
      },
      counterOperator: () => this.counterOperatorView(),
      setOperatorPin: (r) => this.operators.setPin(r.operatorId, r.pin, r.approval),
      disableOperator: (r) => this.operators.disable(r.operatorId, r.approval),
      revokeToken: (r) => {
        const view = this.tokens().revoke(r.id)
        ctx.logger.info({ token: view.id, name: view.name }, 'integrator token revoked')
        return view
      },
    }
    const onSale = (update: { sale: SaleView }) => this.emit('event', this.saleEvents.sale(update.sale))
    txn.on('update', onSale)
    this.unsubscribe.push(() => txn.off('update', onSale))
    const onQueue = () => this.emit('event', { type: 'queue', queue: this.queueStatus() })
    engine.forwarder.on('status', onQueue)
    this.unsubscribe.push(() => engine.forwarder.off('status', onQueue))
    // A queued message past its limits is an alarm for the manager, on top of the sale's own state.
    // Its message is in a manager's words; the technical detail goes to the log.
    const onAttention = (item: { operation: QueueOperation; saleId: string }, why: QueueAttention) => {
      ctx.logger.warn(
        { sale: item.saleId, operation: item.operation, failure: why.failure, detail: why.detail },
        'queued message needs a manager',
      )
      const message = `The ${QUEUE_OPERATION_NOUNS[item.operation]} of sale ${item.saleId} needs a manager. ${QUEUE_FAILURE_WORDS[why.failure]}`
      this.emit('event', this.saleEvents.alarm({ code: 'NEEDS_ATTENTION', message }, item.saleId))
    }
    engine.forwarder.on('attention', onAttention)
    this.unsubscribe.push(() => engine.forwarder.off('attention', onAttention))
    this.unsubscribe.push(ctx.reader.onEvent((prompt) => this.emit('event', this.saleEvents.device(prompt))))
  }

  private counterOperatorView(): CounterOperatorView {
    return {
      required: this.operators.hasManager(),
      ...(this.counterOperator ? { operator: this.counterOperator } : {}),
      voidWithoutManagerMinutes: this.voidWithoutManagerMinutes(),
    }
  }

  private voidWithoutManagerMinutes(): number {
    return this.ctx.voidWithoutManagerMinutes ?? 30
  }

  /**
   * Who acts, and whether they may. A terminal without operators is open, as before operators
   * existed. With operators, the counter acts only with an operator signed in, and what a manager
   * approves (MANAGER_APPROVED_OPERATIONS) needs a manager signed in at the counter or a manager's
   * number and PIN in the request (`approval`), from the counter or the POS alike.
   */
  private async actorFor(name: OperationName, request: Record<string, unknown>, caller: SaleOrigin): Promise<Actor> {
    if (!this.operators.hasManager()) return {}
    const atCounter = caller === 'counter' ? this.counterOperator : undefined
    if (caller === 'counter' && !atCounter && SIGNED_IN_OPERATIONS.includes(name))
      throw new PosError('SIGN_IN_REQUIRED', `${name} needs an operator signed in at the counter`)
    if (!this.needsManager(name, request)) return atCounter ? { by: atCounter.id } : {}
    if (atCounter?.role === 'manager') return { by: atCounter.id }
    // The manager who approved answers for the step: their number is the one kept on it.
    const approver = await this.operators.approve(request.approval as Credential | undefined)
    return { by: approver.id }
  }

  private needsManager(name: OperationName, request: Record<string, unknown>): boolean {
    if (!MANAGER_APPROVED_OPERATIONS.includes(name)) return false
    if (name === 'adjustTip') return request.managerOverride === true
    if (name === 'voidSale') {
      const sale = this.ctx.engine.txn.get(String(request.id))
      return sale !== undefined && Date.now() - sale.createdAt > this.voidWithoutManagerMinutes() * 60_000
    }
    return true
  }

  private tokens(): IntegratorTokens {
    if (!this.ctx.tokens) throw new PosError('NOT_FOUND', 'this agent keeps no integrator tokens')
    return this.ctx.tokens
  }

  /** Validates and runs one operation; never throws: every failure is a catalogue error as data. */
  async dispatch(operation: string, request: unknown, caller: SaleOrigin = 'counter'): Promise<PosResult<unknown>> {
    if (!Object.hasOwn(OPERATION_SCHEMAS, operation)) return failed('UNKNOWN_OPERATION', `no operation "${operation}"`)
    const name = operation as OperationName
    if (caller !== 'counter' && COUNTER_ONLY_OPERATIONS.includes(name))
      return failed('FORBIDDEN', `${operation} is for the cashier screen (a manager), not for a POS with its token`)
    const parsed = OPERATION_SCHEMAS[name].safeParse(request ?? {})
    if (!parsed.success) return { ok: false, error: errorView(toPosError(parsed.error)) }
    try {
      const actor = await this.actorFor(name, parsed.data as Record<string, unknown>, caller)
      const handler = this.handlers[name] as (r: unknown, caller: SaleOrigin, actor: Actor) => Promise<unknown> | unknown
      return { ok: true, value: await handler(parsed.data, caller, actor) }
    } catch (thrown) {
      // A PosError is a refusal the code already explained; anything else is logged with its stack.
      if (!(thrown instanceof PosError)) this.ctx.logger.error({ operation, err: thrown }, 'operation failed')
      return { ok: false, error: errorView(toPosError(thrown)) }
    }
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
  }

  private sale(id: string) {
    const view = this.ctx.engine.txn.get(id)
    if (!view) throw new PosError('NO_SUCH_SALE', `no sale ${id}`)
    return view
  }

  private queueStatus(): QueueStatusView {
    const status = this.ctx.engine.forwarder.status()
    const now = Date.now()
    return {
      count: status.count,
      storedCount: status.storedCount,
      storedAmountMinor: status.storedAmountMinor,
      attentionCount: status.attentionCount,
      lockedCount: this.ctx.engine.journal.outbox.lockedCount(),
      ...(status.oldestStoredAt !== undefined
        ? { oldestStoredAt: status.oldestStoredAt, oldestExpiresInMs: timeLeftMs(this.ctx.retry, 'payment', status.oldestStoredAt, now) }
        : {}),
      ...(status.hostReachable !== undefined ? { hostReachable: status.hostReachable } : {}),
      ...(status.lastAttemptAt !== undefined ? { lastAttemptAt: status.lastAttemptAt } : {}),
    }
  }
}
