/**
 * A return, top to bottom, as a flow of the machine beside the sale: a manager approved it (the
 * service checks that), the terminal checks what may be credited, journals the return and its first
 * event in one commit, reads the card through the effect map (readCard{purpose:'return'}), checks it
 * is the card the sale was paid with, and the commit of `returnCardRead` checks again what is left to
 * return (txn-machine.ts reads it in that same commit: a tip lowered, another return or a void since
 * the start all count) before it journals the credit with its queued message. The store-and-forward
 * queue sends the credit (svc.e-commerce.merchandiseCredit) with the same merchantTransID until the
 * bank answers: a credit is never reversed, and the host answers a repeat with its first answer.
 *
 *   startReturn ──► returnRequested ──► returnReadingCard ──► returnCardRead ──► creditPending ──(queue)──► credited | declined
 *                                            │ no card, another card             │ no longer fits: abandoned
 *                                            ▼                                    ▼ past its limits: needsAttention
 *                                         abandoned                               (a manager's retry sends it again)
 *
 * A return is a record of the sale table of kind 'return' (schema.ts, version 8), so the journal's
 * write-ahead, sealing (under its own purpose, 'return'), purge and queue keep its money safe exactly
 * as they keep a sale's.
 */
import type { Logger } from 'pino'
import { formatDateTime } from '../gateway'
import type { JournalStore } from '../journal'
import { PosError } from '../../src-shared/pos-error'
import type { SaleOrigin } from '../../src-shared/sale'
import { businessDay } from './business-day'
import type { CounterLock } from './counter-lock'
import { readFailure, type CounterReader } from './counter-reader'
import { creditsOfTheDay, hashReturn, returnRefusal } from './return-rules'
import type { TxnSettings } from './sale-request'
import { toSaleView, type SaleView } from './sale-view'
import type { StepEngine } from './step-engine'
import type { WriteAhead } from './write-ahead'

export interface ReturnRequest {
  /** The sale credited; absent for a return without a sale on this terminal (a manager's, within its limits). */
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
  settings: TxnSettings
  logger: Logger
  now: () => Date
  lock: CounterLock
  writeAhead: WriteAhead
  engine: StepEngine
  counterReader: CounterReader
}

export class ReturnFlow {
  constructor(private readonly deps: ReturnFlowDeps) {}

  // ---- 1. a manager starts the return --------------------------------------------------------

  /** Journals the return and asks for the card in one commit; returns once the reader is asked. */
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
    const at = this.deps.now()
    const original = request.originalId === undefined ? undefined : writeAhead.sale(request.originalId)
    const day = businessDay(at)
    const today = creditsOfTheDay(journal.unreferencedCredits(day, undefined), settings.currency)
    const refusal = returnRefusal(request, original, settings, today)
    if (refusal) throw refusal
    // Journaled and handed to the reader in one commit: a restart finds it and ends it (recovery).
    const { id, io } = journal.batch(() => {
      const created = journal.createSale(settings.merchant.terminalId, {
        state: 'created',
        kind: 'return',
        originalId: original?.id,
        businessDay: day,
        transTime: formatDateTime(at),
        amountMinor: request.amountMinor,
        currency: request.currency,
        autoCapture: true,
        reference: request.reference,
        requestHash,
        startedBy: request.startedBy ?? 'counter',
        operatorId: request.operatorId,
      })
      const committed = writeAhead.commit(created.id, { type: 'returnRequested' })
      return { id: created.id, io: committed.ok ? committed.io : [] }
    })
    lock.take(id)
    this.deps.engine.continueInBackground(id, io)
    return toSaleView(writeAhead.sale(id))
  }

  // ---- 2. the card to credit -----------------------------------------------------------------

  /**
   * The effect readCard{purpose:'return'}. A referenced return takes only the card the sale was paid
   * with, compared by the keyed fingerprint the journal keeps (never the number itself); another card
   * ends the return before anything of it is kept. What may be credited is checked by the machine in
   * the commit of `returnCardRead` (write-ahead.ts reads it there).
   */
  async readCard(id: string): Promise<void> {
    const { writeAhead, journal, engine } = this.deps
    const sale = writeAhead.sale(id)
    const result = await this.deps.counterReader.read(sale, 'return')
    if (result.kind !== 'card') return engine.step(id, { type: 'returnCardNotRead', reason: readFailure(result) })
    const original = sale.originalId === undefined ? undefined : writeAhead.sale(sale.originalId)
    if (original !== undefined && original.cardFingerprint !== journal.fingerprint(result.card.pan))
      return engine.step(id, { type: 'returnCardNotRead', reason: 'this is not the card the sale was paid with' })
    await engine.step(id, { type: 'returnCardRead' }, { card: result.card })
  }
}
