/**
 * A sale, top to bottom: the cashier starts it, the reader reads the card, the host answers, the
 * chip has the last word. Each step is an event for the pure machine (txn-machine.ts), committed by
 * the step engine (step-engine.ts), which then runs the reader and host effects the machine asked
 * for through the effect map; this file holds the sale's own: its card read, the payment, the chip.
 * Returns (return-flow.ts) and what happens after a sale (after-sale.ts) are peers on the same engine.
 *
 *   startSale ──► readCard ──► sendPayment ──► completeCard ──► approved | declined | storedOffline | reversalPending
 *                  │ duplicate?     │ host unreachable: store-and-forward decision (offline-policy.ts)
 *                  ▼                ▼ no valid answer: reversal queued at once
 *        awaitingConfirmation   (the forwarder sends what was queued, forwarder.ts)
 */
import type { Logger } from 'pino'
import { cryptogramEvidence, type CardCompletion, type CardData, type CardReader } from '../device'
import { answerOf, formatDateTime, type HostClient } from '../gateway'
import type { JournalStore, SaleRecord } from '../journal'
import { PosError } from '../../src-shared/pos-error'
import { READING_CARD } from '../../src-shared/sale'
import { businessDay } from './business-day'
import type { CardVault } from './card-vault'
import type { CounterLock } from './counter-lock'
import { readFailure, type CounterReader } from './counter-reader'
import { paymentBody } from './message-bodies'
import { decideOffline } from './offline-policy'
import { parseSaleOptions, saleOptionsText } from './sale-options'
import { checkSaleRequest, hashRequest, type SaleRequest, type TxnSettings } from './sale-request'
import { toSaleView, type SaleView } from './sale-view'
import type { StepEngine } from './step-engine'
import type { OfflinePolicy, PaymentAnswer, TxnEvent } from './txn-types'
import type { StepInput, WriteAhead } from './write-ahead'

/**
 * The authorisation response code the chip is given with the host's answer (EMV 4.4 Book 4, Annex
 * A6): "00" approved, "05" declined, "Z3" unable to go online, so the card decides offline.
 */
const RESPONSE_CODE_FOR_CARD = { approved: '00', declined: '05', unableToGoOnline: 'Z3' } as const

export interface SaleFlowDeps {
  journal: JournalStore
  reader: CardReader
  host: HostClient
  settings: TxnSettings
  logger: Logger
  now: () => Date
  vault: CardVault
  lock: CounterLock
  writeAhead: WriteAhead
  engine: StepEngine
  counterReader: CounterReader
}

/** The effects a sale owns, in the order it meets them (txn-service.ts puts them in the engine's map). */
export class SaleFlow {
  constructor(private readonly deps: SaleFlowDeps) {}

  // ---- 1. the cashier (or the POS) starts the sale -------------------------------------------

  /** One press, one sale. Returns once the sale is journaled and the reader is asked for the card. */
  start(request: SaleRequest): SaleView {
    const { journal, settings, lock, writeAhead } = this.deps
    const requestHash = hashRequest(request)
    if (request.reference !== undefined) {
      const existing = journal.byReference(request.reference)
      if (existing) {
        if (existing.requestHash !== requestHash) {
          throw new PosError(
            'REFERENCE_REUSED',
            `reference "${request.reference}" was already used for a different sale (${existing.id}); nothing was charged`,
          )
        }
        return toSaleView(existing)
      }
    }
    lock.assertFree('a new sale')
    const at = this.deps.now()
    checkSaleRequest(request, settings, formatDateTime(at))
    // Created and handed to the reader in one commit: the journal knows the sale before the reader does.
    // Synced with the card's commit, before the bank is called: nothing is read or sent yet, so a power
    // cut in between loses a sale that never charged anything (write-ahead.ts syncsWithNext).
    const { id, io } = journal.batch(() => {
      const created = journal.createSale(settings.merchant.terminalId, {
        state: 'created',
        businessDay: businessDay(at),
        transTime: formatDateTime(at),
        amountMinor: request.amountMinor,
        currency: request.currency,
        autoCapture: !settings.restaurantMode,
        reference: request.reference,
        startedBy: request.startedBy ?? 'counter',
        operatorId: request.operatorId,
        requestHash,
        options: saleOptionsText(request.options, request.offlinePolicy),
      })
      const committed = writeAhead.commit(created.id, { type: 'readCard' })
      return { id: created.id, io: committed.ok ? committed.io : [] }
    }, 'withNext')
    // Taken once the sale is committed: a failed commit (a full disk) leaves the counter free.
    lock.take(id)
    this.deps.engine.continueInBackground(id, io)
    return toSaleView(writeAhead.sale(id))
  }

  // ---- 2. the card -----------------------------------------------------------------------------

  /** The effect readCard{purpose:'purchase'}. */
  async readCard(id: string): Promise<void> {
    const sale = this.deps.writeAhead.sale(id)
    const result = await this.deps.counterReader.read(sale, 'purchase')
    if (result.kind !== 'card') return this.step(id, { type: 'cardNotRead', reason: readFailure(result) })
    const card = result.card
    this.deps.vault.hold(id, card)
    // Duplicate guard: the same card for the same amount within the window asks the cashier first.
    const since = this.deps.now().getTime() - this.deps.settings.duplicateWindowMs
    const duplicate =
      this.deps.journal.recentSameCard(this.deps.vault.fingerprint(card), sale.amountMinor, sale.currency, since, id) !== undefined
    await this.step(id, { type: 'cardRead', chip: card.icCardData !== undefined, duplicate }, { card })
  }

  // ---- 3. the host -----------------------------------------------------------------------------

  /** The effect sendPayment. */
  async sendPayment(id: string): Promise<void> {
    const sale = this.deps.writeAhead.sale(id)
    const card = this.deps.vault.require(id)
    const policy = offlinePolicyOf(sale)
    const outcome =
      policy === 'forceOffline' ? undefined : await this.deps.host.send('payment', paymentBody(sale, card, this.deps.settings.merchant))
    const delivered = outcome === undefined ? undefined : answerOf(outcome)
    // Never sent (forced offline, or provably not delivered): may it be approved here, for later?
    const answer: PaymentAnswer =
      delivered === undefined || delivered.kind === 'notDelivered'
        ? { kind: 'notDelivered', offline: this.offlineDecision(sale, card, policy) }
        : delivered
    // A chip approved (by the bank, or to decide offline) is asked for its last word next: that commit
    // may be synced with the one that journals the chip's answer (write-ahead.ts syncsWithNext).
    const syncWithNext = sale.chip && (answer.kind === 'approved' || (answer.kind === 'notDelivered' && answer.offline.eligible))
    await this.step(
      id,
      { type: 'paymentAnswered', answer },
      {
        ...(outcome?.kind === 'approved' ? { answerPatch: { svcTransID: outcome.svcTransID } } : {}),
        syncWithNext,
      },
    )
  }

  /** The host provably never saw the payment: may it be approved here and forwarded later? */
  private offlineDecision(sale: SaleRecord, card: CardData, policy: OfflinePolicy) {
    const stored = this.deps.journal.outbox.storedTotals()
    return decideOffline(
      {
        policy,
        amountMinor: sale.amountMinor,
        currency: sale.currency,
        method: card.method,
        onlinePin: card.summary.onlinePin,
        expired: card.summary.expired,
      },
      this.deps.settings.offline,
      { count: stored.storedCount, amountMinor: stored.storedAmountMinor, oldestStoredAt: stored.oldestStoredAt },
      this.deps.now().getTime(),
    )
  }

  // ---- 4. the chip's last word -----------------------------------------------------------------

  /** The effect completeCard. */
  async completeCard(id: string, result: keyof typeof RESPONSE_CODE_FOR_CARD): Promise<void> {
    const completion = await this.deps.reader
      .completeCard({ result, authorizationResponseCode: RESPONSE_CODE_FOR_CARD[result] })
      .catch((error: unknown): CardCompletion => {
        // A card that cannot confirm did not approve: the safe reading is a decline.
        this.deps.logger.warn({ sale: id, err: error }, 'card completion failed')
        return { decision: 'declined' }
      })
    // Only a sale still waiting for the card takes its decision (a declined sale was told, not asked).
    if (this.deps.journal.stateOf(id) !== 'completingCard') return
    const { event, input } = this.keepCompletion(id, completion)
    await this.step(id, event, input)
  }

  /**
   * The card's final cryptogram goes where the sale needs it before the decision is journaled: into
   * the held card, so that the payment stored in the same commit is forwarded with the TC and the
   * final response code, not the read's ARQC (docs/card-reader.md §2.5); sealed again in that
   * commit; and into the event, as evidence a support person can read in the sale's history.
   */
  private keepCompletion(id: string, completion: CardCompletion): { event: CardCompleted; input: StepInput } {
    const { decision, icCardData } = completion
    if (icCardData === undefined) return { event: { type: 'cardCompleted', decision }, input: {} }
    try {
      const card = this.deps.vault.completeChip(id, icCardData)
      const evidence = card.icCardData === undefined ? undefined : cryptogramEvidence(card.icCardData)
      return { event: { type: 'cardCompleted', decision, ...(evidence ? { evidence } : {}) }, input: { card } }
    } catch (error) {
      // A decision without the cryptogram that proves it cannot be forwarded: the safe reading is a decline.
      this.deps.logger.error({ sale: id, err: error }, 'the card completion could not be kept')
      return { event: { type: 'cardCompleted', decision: 'declined' }, input: {} }
    }
  }

  // ---- at the counter, while the sale runs -------------------------------------------------------

  /** Stops a sale still at the card-read step, or refuses a possible duplicate. */
  async cancel(id: string, by?: string): Promise<void> {
    const sale = this.deps.writeAhead.sale(id)
    // A card read at the counter is stopped at the reader: its flow then steps as for no card.
    if (READING_CARD.has(sale.state)) return this.deps.reader.cancel()
    if (sale.state === 'awaitingConfirmation') return this.step(id, { type: 'duplicateRefused' }, { by })
    throw new PosError('CANNOT_CANCEL', 'This sale can no longer be stopped at the counter.')
  }

  async confirmDuplicate(id: string, charge: boolean, by?: string): Promise<void> {
    await this.step(id, { type: charge ? 'duplicateConfirmed' : 'duplicateRefused' }, { by })
  }

  private step(id: string, event: TxnEvent, input: StepInput = {}): Promise<void> {
    return this.deps.engine.step(id, event, input)
  }
}

type CardCompleted = Extract<TxnEvent, { type: 'cardCompleted' }>

function offlinePolicyOf(sale: SaleRecord): OfflinePolicy {
  return parseSaleOptions(sale.options).offlinePolicy
}
