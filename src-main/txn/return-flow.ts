/**
 * A return, top to bottom: a manager approved it (the local API checks that), the terminal checks
 * what may be credited, journals the return, asks for the card, checks it is the card the sale was
 * paid with, and journals the credit with its queued message in one commit. The store-and-forward
 * queue sends the credit (svc.e-commerce.merchandiseCredit) with the same merchantTransID until the
 * bank answers: a credit is never reversed, and the host answers a repeat with its first answer.
 *
 *   startReturn ──► returnReadingCard ──► creditPending ──(queue)──► credited | declined
 *                        │ no card, another card                       │ past its limits: needsAttention
 *                        ▼                                              ▼ (a manager's retry sends it again)
 *                     abandoned
 *
 * A return is a record of the sale table of kind 'return' (schema.ts, version 8), so the journal's
 * write-ahead, sealing, purge and queue keep its money safe exactly as they keep a sale's.
 */
import type { Logger } from 'pino'
import type { CardReader, ReadCardResult } from '../device'
import { formatDateTime } from '../gateway'
import type { JournalStore, SaleRecord } from '../journal'
import { PosError } from '../../src-shared/pos-error'
import type { SaleOrigin } from '../../src-shared/sale'
import { businessDay } from './business-day'
import type { CounterLock } from './counter-lock'
import { hashReturn, returnRefusal } from './return-rules'
import type { SaleFlow } from './sale-flow'
import type { TxnSettings } from './sale-request'
import { toSaleView, type SaleView } from './sale-view'
import type { WriteAhead } from './write-ahead'

export interface ReturnRequest {
  /** The sale credited; absent for a return without a sale on this terminal (a manager's, within its own limit). */
  originalId?: string | undefined
  amountMinor: number
  currency: string
  /** A manager approved this return (signed in at the counter, or their number and PIN in the request). */
  managerApproved: boolean
  /** The integrator's own key: a repeat returns the same return, never a second credit. */
  reference?: string | undefined
  startedBy?: SaleOrigin | undefined
  operatorId?: string | undefined
}

export interface ReturnFlowDeps {
  journal: JournalStore
  reader: CardReader
  settings: TxnSettings
  logger: Logger
  now: () => Date
  lock: CounterLock
  writeAhead: WriteAhead
  flow: SaleFlow
}

export class ReturnFlow {
  constructor(private readonly deps: ReturnFlowDeps) {}

  /** Journals the return and asks for the card; returns once the reader is asked. */
  start(request: ReturnRequest): SaleView {
    const { journal, settings, lock, writeAhead } = this.deps
    const requestHash = hashReturn(request)
    if (request.reference !== undefined) {
      const existing = journal.byReference(request.reference)
      if (existing) {
        if (existing.kind !== 'return' || existing.requestHash !== requestHash)
          throw new PosError('REFERENCE_REUSED', `reference "${request.reference}" was already used (${existing.id}); nothing was credited`)
        return toSaleView(existing)
      }
    }
    lock.assertFree('a return')
    const original = request.originalId === undefined ? undefined : writeAhead.sale(request.originalId)
    const refusal = returnRefusal(request, original, settings.limits.unreferencedReturnMaxMinor)
    if (refusal) throw refusal
    const at = this.deps.now()
    // Journaled waiting for the card before the reader is asked: a restart finds it and ends it (recovery).
    const created = journal.createSale(settings.merchant.terminalId, {
      state: 'returnReadingCard',
      kind: 'return',
      originalId: original?.id,
      businessDay: businessDay(at),
      transTime: formatDateTime(at),
      amountMinor: request.amountMinor,
      currency: request.currency,
      autoCapture: true,
      reference: request.reference,
      requestHash,
      startedBy: request.startedBy ?? 'counter',
      operatorId: request.operatorId,
    })
    lock.take(created.id)
    void this.readCard(created.id, original).catch((error: unknown) => {
      this.deps.logger.error({ sale: created.id, err: error }, 'return flow failed')
      lock.release(created.id)
    })
    return toSaleView(created)
  }

  /**
   * The card, presented again. The reader reads it as for a void (no authorisation with the card: a
   * credit needs none). A referenced return takes only the card the sale was paid with, compared by
   * the keyed fingerprint the journal keeps (never the number itself); another card ends the return
   * before anything of it is kept.
   */
  private async readCard(id: string, original: SaleRecord | undefined): Promise<void> {
    const sale = this.deps.writeAhead.sale(id)
    const result = await this.deps.reader
      .readCard({
        amountMinor: sale.amountMinor,
        currency: sale.currency,
        purpose: 'void',
        timeoutSeconds: this.deps.settings.cardReadTimeoutSeconds,
      })
      .catch((error: unknown): ReadCardResult => {
        this.deps.logger.warn({ sale: id, err: error }, 'card reader threw')
        return { kind: 'failed', code: 'DEVICE_ERROR', message: 'the card reader had a problem' }
      })
    if (result.kind !== 'card') return this.deps.flow.step(id, { type: 'returnCardNotRead', reason: readFailure(result) })
    if (original !== undefined && original.cardFingerprint !== this.deps.journal.fingerprint(result.card.pan)) {
      return this.deps.flow.step(id, { type: 'returnCardNotRead', reason: 'this is not the card the sale was paid with' })
    }
    await this.deps.flow.step(id, { type: 'returnCardRead' }, { card: result.card })
  }
}

function readFailure(result: Exclude<ReadCardResult, { kind: 'card' }>): string {
  if (result.kind === 'cancelled') return 'cancelled at the counter'
  if (result.kind === 'timeout') return 'no card was presented in time'
  return result.message
}
