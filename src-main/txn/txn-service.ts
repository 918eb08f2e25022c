/**
 * TxnService runs a sale: it asks txn-machine what to do, journals the answer (state, event, sealed
 * card data, queue items) in one SQLite transaction, and only then talks to the card reader or the
 * host. Follow a sale from `startSale` down: every step is `step(event)` then its I/O effects.
 */
import { EventEmitter } from 'node:events'
import { createHash } from 'node:crypto'
import type { Logger } from 'pino'
import type { CardData, CardReader, ReadCardResult } from '../device/card-reader'
import type { HostClient } from '../gateway/gateway-client'
import { formatDateTime } from '../gateway/headers'
import { checkRequestBody } from '../gateway/request-schemas'
import type { GatewayOutcome } from '../gateway/outcome'
import type { JournalStore, NewOutboxItem, SaleChange, SaleRecord } from '../journal'
import { PosError } from '../app/errors'
import { transition } from './txn-machine'
import type { PaymentAnswer, QueuedOperation, Sale, TxnEffect, TxnEvent, TxnState, OfflinePolicy } from './txn-types'
import { decideOffline, type OfflineLimits } from './offline-policy'
import { cancelBody, captureBody, paymentBody, reversalBody, tipsBody, type MerchantIdentity, type PaymentOptions } from './message-bodies'
import { toSaleView, type SaleView } from './sale-view'
import { checkTip, type TipPolicy } from './tip-policy'
import { dayReport, type DayReport } from './close-of-day'

export interface TxnSettings {
  merchant: MerchantIdentity
  /** Retail sends autoCapture: true; restaurant mode authorises and captures base + tip at close. */
  restaurantMode: boolean
  cardReadTimeoutSeconds: number
  duplicateWindowMs: number
  offline: OfflineLimits
  tips: TipPolicy
}

export interface SaleRequest {
  amountMinor: number
  currency: string
  /** The integrator's own reference: repeating it returns the same sale, never a second charge. */
  reference?: string | undefined
  offlinePolicy?: OfflinePolicy | undefined
  options?: PaymentOptions | undefined
}

export interface TxnServiceDeps {
  journal: JournalStore
  reader: CardReader
  host: HostClient
  settings: TxnSettings
  logger: Logger
  now?: () => Date
  /** Wakes the store-and-forward queue after something was enqueued. */
  onEnqueued?: () => void
}

export type TxnServiceEvent = { type: 'sale'; sale: SaleView }

export class TxnService extends EventEmitter<{ update: [TxnServiceEvent] }> {
  private current: string | undefined
  private readonly now: () => Date
  /** Card data of the sale in progress, kept in memory between the read and the send. */
  private readonly cardInFlight = new Map<string, CardData>()
  private readonly waiters = new Map<string, Array<(sale: SaleView) => void>>()

  constructor(private readonly deps: TxnServiceDeps) {
    super()
    this.now = deps.now ?? (() => new Date())
  }

  /** One press, one sale: a second sale is refused while one runs. Resolves once the sale is journaled. */
  startSale(request: SaleRequest): SaleView {
    const { journal, settings } = this.deps
    const requestHash = hashRequest(request)
    if (request.reference !== undefined) {
      const existing = journal.byReference(request.reference)
      if (existing) {
        if (existing.requestHash !== requestHash)
          throw new PosError(
            'REFERENCE_REUSED',
            `reference "${request.reference}" was already used for a different sale (${existing.id}); nothing was charged`,
          )
        return toSaleView(existing)
      }
    }
    if (this.current !== undefined)
      throw new PosError('SALE_IN_PROGRESS', `sale ${this.current} is still running: finish or cancel it first`, true)
    const at = this.now()
    checkPaymentOptions(request, settings, formatDateTime(at))
    // Created and handed to the reader in one commit: the journal knows the sale before the reader does.
    const { record, effects } = journal.batch(() => {
      const created = journal.createSale(settings.merchant.terminalId, {
        state: 'created',
        businessDay: businessDay(at),
        transTime: formatDateTime(at),
        amountMinor: request.amountMinor,
        currency: request.currency,
        autoCapture: !settings.restaurantMode,
        reference: request.reference,
        requestHash,
        options: JSON.stringify({ ...(request.options ?? {}), ...(request.offlinePolicy ? { offlinePolicy: request.offlinePolicy } : {}) }),
      })
      this.current = created.id
      return { record: created, effects: this.applyAndPublish(created.id, { type: 'readCard' }) ?? [] }
    })
    void this.runEffects(record.id, effects).catch((error: unknown) => this.crashed(record.id, error))
    return toSaleView(this.require(record.id))
  }

  /** Resolves when the sale reaches a state where the counter no longer waits on it. */
  waitForOutcome(id: string): Promise<SaleView> {
    const sale = this.deps.journal.get(id)
    if (sale && !COUNTER_BUSY.has(sale.state as TxnState)) return Promise.resolve(toSaleView(sale))
    return new Promise((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]))
  }

  async cancelSale(id: string): Promise<void> {
    const sale = this.require(id)
    if (sale.state === 'readingCard' || sale.state === 'voidReadingCard') await this.deps.reader.cancel()
    else if (sale.state === 'awaitingConfirmation') await this.step(id, { type: 'duplicateRefused' })
    else throw new PosError('CANNOT_CANCEL', `sale ${id} is ${sale.state}: it can no longer be stopped at the counter`)
  }

  async confirmDuplicate(id: string, charge: boolean): Promise<void> {
    await this.step(id, { type: charge ? 'duplicateConfirmed' : 'duplicateRefused' })
  }

  async voidSale(id: string): Promise<SaleView> {
    if (this.current !== undefined) throw new PosError('SALE_IN_PROGRESS', 'finish the running sale before a void', true)
    const queued = this.deps.journal.outbox
      .ofSale(id)
      .find((item) => item.operation === 'payment' && (item.state === 'pending' || item.state === 'inflight'))
    const paymentQueue = queued === undefined ? 'none' : queued.state === 'inflight' ? 'inflight' : 'pending'
    this.current = id
    try {
      await this.step(id, { type: 'voidRequested', paymentQueue })
    } finally {
      if (this.require(id).state !== 'voidReadingCard') this.current = undefined
    }
    return toSaleView(this.require(id))
  }

  adjustTip(id: string, tipMinor: number, managerOverride = false): Promise<SaleView> {
    const sale = this.require(id)
    const check = checkTip(this.deps.settings.tips, sale.amountMinor, tipMinor, managerOverride)
    if (!check.ok) return Promise.reject(new PosError(check.needsOverride ? 'TIP_NEEDS_OVERRIDE' : 'TIP_INVALID', check.reason))
    return this.step(id, { type: 'tipRequested', tipMinor }).then(() => toSaleView(this.require(id)))
  }

  capture(id: string): Promise<SaleView> {
    return this.step(id, { type: 'captureRequested' }).then(() => toSaleView(this.require(id)))
  }

  /** The day's report; nothing changes. */
  dayReport(day: string = businessDay(this.now())): DayReport {
    return dayReport(day, this.deps.journal.salesOfDay(day).map(toSaleView))
  }

  /**
   * Close of day: refused while reversals are pending; in restaurant mode every authorised payment
   * of the day is captured for base plus tip (docs/gateway.md §D3 "Capture"), queued like the rest.
   */
  async closeDay(day: string = businessDay(this.now())): Promise<DayReport> {
    const before = this.dayReport(day)
    if (!before.closable) return before
    for (const sale of this.deps.journal.salesOfDay(day)) {
      if (!sale.autoCapture && (sale.state === 'approved' || sale.state === 'forwarded')) await this.capture(sale.id)
    }
    return this.dayReport(day)
  }

  managerRetry(id: string): Promise<SaleView> {
    return this.step(id, { type: 'managerRetry' }).then(() => toSaleView(this.require(id)))
  }

  get(id: string): SaleView | undefined {
    const record = this.deps.journal.get(id)
    return record ? toSaleView(record) : undefined
  }

  /** A forwarded item's answer, or the queue giving up on it (called by the forwarder). */
  applyQueueEvent(id: string, event: TxnEvent, settleOutbox: NonNullable<SaleChange['settleOutbox']>): boolean {
    return this.applyAndPublish(id, event, settleOutbox) !== undefined
  }

  /** Settles, after a restart, every sale that was in flight (txn-machine `recovered`). */
  async recover(): Promise<number> {
    const { journal } = this.deps
    journal.outbox.recoverInflight()
    let recovered = 0
    for (const sale of journal.openSales()) {
      const result = transition(toSale(sale), { type: 'recovered' })
      if (!result.ok) continue
      await this.step(sale.id, { type: 'recovered' })
      recovered++
    }
    return recovered
  }

  // ---- the engine: one event → journal → effects ----------------------------------------------

  private async step(id: string, event: TxnEvent, extra: { card?: CardData; answerPatch?: Partial<SaleRecord> } = {}): Promise<void> {
    const effects = this.applyAndPublish(id, event, undefined, extra)
    if (effects === undefined)
      throw new PosError('INVALID_STEP', `${event.type} is not possible for sale ${id} in state ${this.require(id).state}`)
    await this.runEffects(id, effects)
  }

  private async runEffects(id: string, effects: TxnEffect[]): Promise<void> {
    for (const effect of effects) await this.run(id, effect)
  }

  /** The write-ahead half: journal the transition and its queue effects; returns the I/O effects. */
  private applyAndPublish(
    id: string,
    event: TxnEvent,
    settleOutbox?: SaleChange['settleOutbox'],
    extra: { card?: CardData; answerPatch?: Partial<SaleRecord> } = {},
  ): TxnEffect[] | undefined {
    const { journal } = this.deps
    const before = this.require(id)
    const result = transition(toSale(before), event)
    if (!result.ok) {
      this.deps.logger.warn({ sale: id, event: event.type, state: before.state }, result.reason)
      return undefined
    }
    const next: SaleRecord = { ...before, ...extra.answerPatch, ...fromSale(result.sale) }
    const card = extra.card
    if (card && event.type === 'cardRead') Object.assign(next, cardSummaryFields(card, journal.fingerprint(card.pan)))
    const enqueue: NewOutboxItem[] = []
    let withdrawPending = false
    let retryAttention = false
    let purgeCard = false
    for (const effect of result.effects) {
      if (effect.type === 'enqueue') enqueue.push(this.queueItem(next, effect.operation, effect.reason ?? 'reversal', card))
      else if (effect.type === 'withdraw') withdrawPending = true
      else if (effect.type === 'retryQueued') retryAttention = true
      else if (effect.type === 'purgeCardData') purgeCard = true
    }
    const sealCard = card ? { purpose: event.type === 'voidCardRead' ? ('void' as const) : ('purchase' as const), data: card } : undefined
    const saved = journal.apply({
      event: { type: event.type, detail: eventDetail(event) },
      next,
      expectedState: before.state,
      enqueue,
      withdrawPending,
      retryAttention,
      purgeCard,
      ...(sealCard ? { sealCard } : {}),
      ...(settleOutbox !== undefined ? { settleOutbox } : {}),
    })
    if (purgeCard) this.cardInFlight.delete(id)
    this.publish(saved)
    if (enqueue.length > 0 || retryAttention) this.deps.onEnqueued?.()
    return result.effects.filter(
      (e) => e.type === 'readCard' || e.type === 'cancelCardRead' || e.type === 'sendPayment' || e.type === 'completeCard',
    )
  }

  /** The I/O half, run only after the journal has committed. */
  private async run(id: string, effect: TxnEffect): Promise<void> {
    switch (effect.type) {
      case 'readCard':
        return this.readCard(id, effect.purpose)
      case 'cancelCardRead':
        await this.deps.reader
          .cancel()
          .catch((error: unknown) => this.deps.logger.warn({ sale: id, err: error }, 'could not cancel the reader'))
        return
      case 'sendPayment':
        return this.sendPayment(id)
      case 'completeCard': {
        const sale = this.require(id)
        const decision = await this.deps.reader
          .completeCard({
            result: effect.result,
            authorizationResponseCode: effect.result === 'approved' ? '00' : effect.result === 'declined' ? '05' : 'Z3',
          })
          .catch((error: unknown) => {
            // A card that cannot confirm did not approve: the safe reading is a decline.
            this.deps.logger.warn({ sale: id, err: error }, 'card completion failed')
            return 'declined' as const
          })
        if (sale.state === 'completingCard') await this.step(id, { type: 'cardCompleted', decision })
        return
      }
      default:
        return
    }
  }

  private async readCard(id: string, purpose: 'purchase' | 'void'): Promise<void> {
    const sale = this.require(id)
    let result: ReadCardResult
    try {
      result = await this.deps.reader.readCard({
        amountMinor: sale.amountMinor,
        currency: sale.currency,
        purpose,
        timeoutSeconds: this.deps.settings.cardReadTimeoutSeconds,
      })
    } catch (error) {
      result = { kind: 'failed', code: 'DEVICE_ERROR', message: error instanceof Error ? error.message : String(error) }
    }
    if (purpose === 'void') {
      if (result.kind === 'card') await this.step(id, { type: 'voidCardRead' }, { card: result.card })
      else await this.step(id, { type: 'voidCardNotRead', reason: readFailure(result) })
      this.current = undefined
      return
    }
    if (result.kind !== 'card') return this.step(id, { type: 'cardNotRead', reason: readFailure(result) })
    const card = result.card
    this.cardInFlight.set(id, card)
    const since = this.now().getTime() - this.deps.settings.duplicateWindowMs
    const duplicate =
      this.deps.journal.recentSameCard(this.deps.journal.fingerprint(card.pan), sale.amountMinor, sale.currency, since, id) !== undefined
    await this.step(id, { type: 'cardRead', chip: card.icCardData !== undefined, duplicate }, { card })
  }

  private async sendPayment(id: string): Promise<void> {
    const sale = this.require(id)
    const card = this.cardInFlight.get(id) ?? this.deps.journal.openCard<CardData>(id, 'purchase')
    if (!card) throw new PosError('CARD_DATA_GONE', `sale ${id}: card data is no longer available`)
    const policy = (JSON.parse(sale.options ?? '{}') as { offlinePolicy?: OfflinePolicy }).offlinePolicy ?? 'preferOnline'
    const body = paymentBody(sale, card, this.deps.settings.merchant)
    const outcome: GatewayOutcome | undefined = policy === 'forceOffline' ? undefined : await this.deps.host.send('payment', body)
    const answer = this.paymentAnswer(outcome, sale, card, policy)
    const patch: Partial<SaleRecord> = outcome?.kind === 'approved' ? { svcTransID: outcome.svcTransID } : {}
    await this.step(id, { type: 'paymentAnswered', answer }, { answerPatch: patch })
  }

  private paymentAnswer(outcome: GatewayOutcome | undefined, sale: SaleRecord, card: CardData, policy: OfflinePolicy): PaymentAnswer {
    if (outcome === undefined || outcome.kind === 'notDelivered') {
      const totals = this.deps.journal.outbox.totals()
      const offline = decideOffline(
        {
          policy,
          amountMinor: sale.amountMinor,
          currency: sale.currency,
          method: card.method,
          onlinePin: card.summary.onlinePin,
          expired: card.summary.expired,
        },
        this.deps.settings.offline,
        { count: totals.storedCount, amountMinor: totals.storedAmountMinor, oldestStoredAt: totals.oldestStoredAt },
        this.now().getTime(),
      )
      return { kind: 'notDelivered', offline }
    }
    switch (outcome.kind) {
      case 'approved':
        return { kind: 'approved', authCode: outcome.authorizationCode }
      case 'declined':
        return { kind: 'declined', reason: outcome.reason }
      case 'rejected':
        return { kind: 'rejected', code: outcome.code, message: outcome.message }
      case 'unknown':
        return { kind: 'unknown', reason: outcome.reason }
    }
  }

  /** A queue item and its body; `freshCard` is the card just read (for a void, the card presented again). */
  private queueItem(sale: SaleRecord, operation: QueuedOperation, reason: string, freshCard: CardData | undefined): NewOutboxItem {
    const transTime = formatDateTime(this.now())
    const nth = this.deps.journal.outbox.ofSale(sale.id).filter((item) => item.operation === operation).length + 1
    switch (operation) {
      case 'payment':
        return {
          operation,
          messageId: sale.id,
          body: paymentBody(sale, this.cardOf(sale.id), this.deps.settings.merchant),
          amountMinor: sale.amountMinor,
          currency: sale.currency,
        }
      case 'reversal':
        return {
          operation,
          messageId: sale.id,
          body: reversalBody(reason, this.cardInFlight.get(sale.id) ?? this.readableCard(sale.id)),
          amountMinor: sale.amountMinor,
          currency: sale.currency,
        }
      case 'tips':
        return {
          operation,
          messageId: `${sale.id}-T${nth}`,
          body: tipsBody(`${sale.id}-T${nth}`, transTime, sale),
          amountMinor: sale.tipMinor,
          currency: sale.currency,
        }
      case 'cancel':
        return {
          operation,
          messageId: `${sale.id}-V${nth}`,
          body: cancelBody(`${sale.id}-V${nth}`, transTime, freshCard ?? this.cardOf(sale.id, 'void')),
          amountMinor: sale.amountMinor,
          currency: sale.currency,
        }
      case 'capture':
        return {
          operation,
          messageId: `${sale.id}-C${nth}`,
          body: captureBody(`${sale.id}-C${nth}`, transTime, sale),
          amountMinor: sale.amountMinor + sale.tipMinor,
          currency: sale.currency,
        }
    }
  }

  /** The sealed card data if this process can open it; a reversal goes without it otherwise (it is optional). */
  private readableCard(id: string): CardData | undefined {
    try {
      return this.deps.journal.openCard<CardData>(id, 'purchase')
    } catch (error) {
      this.deps.logger.warn({ sale: id, err: error }, 'card data of this sale cannot be opened; the reversal is sent without ICC data')
      return undefined
    }
  }

  private cardOf(id: string, purpose: 'purchase' | 'void' = 'purchase'): CardData {
    const card = (purpose === 'purchase' ? this.cardInFlight.get(id) : undefined) ?? this.deps.journal.openCard<CardData>(id, purpose)
    if (!card) throw new PosError('CARD_DATA_GONE', `sale ${id}: the card data for this message is no longer available`)
    return card
  }

  private publish(record: SaleRecord): void {
    const view = toSaleView(record)
    if (!COUNTER_BUSY.has(view.state)) {
      if (this.current === record.id) this.current = undefined
      for (const resolve of this.waiters.get(record.id) ?? []) resolve(view)
      this.waiters.delete(record.id)
    }
    this.emit('update', { type: 'sale', sale: view })
  }

  private crashed(id: string, error: unknown): void {
    this.deps.logger.error({ sale: id, err: error }, 'sale flow failed')
    if (this.current === id) this.current = undefined
  }

  private require(id: string): SaleRecord {
    const sale = this.deps.journal.get(id)
    if (!sale) throw new PosError('NO_SUCH_SALE', `no sale ${id}`)
    return sale
  }
}

/** States in which the cashier is still waiting at the counter. */
const COUNTER_BUSY: ReadonlySet<TxnState> = new Set([
  'created',
  'readingCard',
  'awaitingConfirmation',
  'sending',
  'completingCard',
  'voidReadingCard',
])

function readFailure(result: Exclude<ReadCardResult, { kind: 'card' }>): string {
  if (result.kind === 'cancelled') return 'cancelled at the counter'
  if (result.kind === 'timeout') return 'no card was presented in time'
  return result.message
}

function cardSummaryFields(card: CardData, fingerprint: string): Partial<SaleRecord> {
  return {
    maskedPan: card.summary.maskedPan,
    brand: card.summary.brand,
    readMethod: card.method,
    applicationId: card.summary.applicationId,
    applicationLabel: card.summary.applicationLabel,
    cardFingerprint: fingerprint,
  }
}

function eventDetail(event: TxnEvent): unknown {
  switch (event.type) {
    case 'paymentAnswered':
      return event.answer
    case 'forwardAnswered':
      return { operation: event.operation, answer: event.answer }
    case 'forwardGaveUp':
      return { operation: event.operation, reason: event.reason }
    case 'cardNotRead':
    case 'voidCardNotRead':
      return { reason: event.reason }
    case 'tipRequested':
      return { tipMinor: event.tipMinor }
    case 'cardRead':
      return { chip: event.chip, duplicate: event.duplicate }
    default:
      return undefined
  }
}

export function toSale(record: SaleRecord): Sale {
  return {
    id: record.id,
    state: record.state as TxnState,
    amountMinor: record.amountMinor,
    currency: record.currency,
    autoCapture: record.autoCapture,
    offline: record.offline,
    chip: record.chip,
    tipMinor: record.tipMinor,
    tipState: record.tipState as Sale['tipState'],
    reason: record.reason,
    attentionFrom: record.attentionFrom as TxnState | undefined,
    authCode: record.authCode,
  }
}

function fromSale(sale: Sale): Partial<SaleRecord> {
  return {
    state: sale.state,
    offline: sale.offline,
    chip: sale.chip,
    tipMinor: sale.tipMinor,
    tipState: sale.tipState,
    reason: sale.reason,
    attentionFrom: sale.attentionFrom,
    authCode: sale.authCode,
  }
}

/**
 * The integrator's optional payment fields are checked against the gateway's rules (byte limits,
 * instalment only with autoCapture, DCC with the original) before the customer is asked for a card:
 * refused with the field named, never dropped and never found out at the host.
 */
function checkPaymentOptions(request: SaleRequest, settings: TxnSettings, transTime: string): void {
  if (request.options === undefined || Object.keys(request.options).length === 0) return
  const probe = paymentBody(
    {
      id: 'PROBE-1',
      transTime,
      amountMinor: request.amountMinor,
      currency: request.currency,
      autoCapture: !settings.restaurantMode,
      options: JSON.stringify(request.options),
    } as SaleRecord,
    PROBE_CARD,
    settings.merchant,
  )
  const checked = checkRequestBody('payment', probe)
  if (!checked.ok) throw new PosError('INVALID_OPTIONS', `not started: ${checked.problem.message}`)
}

const PROBE_CARD = {
  method: 'chip',
  posEntryMode: '051',
  termReadability: '5',
  pinFlag: false,
  pan: '4000000000000002',
  track2: '4000000000000002=49122010000000000000',
  summary: { maskedPan: '', brand: 'VISA', method: 'chip', expired: false, onlinePin: false },
} as CardData

function hashRequest(request: SaleRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.amountMinor, request.currency, request.offlinePolicy ?? null, request.options ?? null]))
    .digest('hex')
    .slice(0, 32)
}

/** The terminal's local calendar day, for close of day. */
export function businessDay(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000)
  return local.toISOString().slice(0, 10)
}
