/**
 * Close of day, the terminal's day as a flow beside the sale: the open batch's running report, the
 * close that makes it a numbered batch (its totals frozen in the same commit), the closed batches,
 * and the search of a day's or a batch's sales. The arithmetic is pure, in close-of-day.ts; this file
 * reads the journal and takes the steps a close needs (a manager's override on each sale it passes
 * over, the restaurant's captures).
 */
import { BatchClosedMeanwhileError, type JournalStore, type SaleSearch } from '../journal'
import type { BatchSummaryView } from '../../src-shared/contract'
import { PosError } from '../../src-shared/pos-error'
import { STANDING_PAYMENT } from '../../src-shared/sale'
import type { AfterSaleFlow } from './after-sale-flow'
import { businessDay } from './business-day'
import { batchSummaryView, closedBatchReport, openBatchReport, summarise, type DayReport, type FrozenSummary } from './close-of-day'
import { toSaleView, type SaleView } from './sale-view'
import type { StepEngine } from './step-engine'
import type { WriteAhead } from './write-ahead'

export interface DayFlowDeps {
  journal: JournalStore
  engine: StepEngine
  writeAhead: WriteAhead
  /** A restaurant's close captures what is still only authorised (after-sale-flow.ts). */
  afterSale: Pick<AfterSaleFlow, 'capture'>
  now: () => Date
}

export class DayFlow {
  constructor(private readonly deps: DayFlowDeps) {}

  /** A batch's report (the open one by default); nothing changes. */
  report(batch?: number): DayReport {
    const { journal } = this.deps
    const open = journal.batches.openNumber()
    if (batch === undefined || batch === open) {
      const reported = { batch: { number: open }, businessDay: businessDay(this.deps.now()) }
      return openBatchReport(reported, journal.salesOfOpenBatch().map(toSaleView), journal.shifts.ofOpenBatch())
    }
    const closed = journal.batches.get(batch)
    if (!closed) throw new PosError('NO_SUCH_BATCH', `there is no batch ${batch} on this terminal (the open batch is ${open})`)
    const reported = {
      batch: {
        number: closed.number,
        closedAt: closed.closedAt,
        ...(closed.managerOverride ? { managerOverride: true } : {}),
        ...(closed.closedBy !== undefined ? { closedBy: closed.closedBy } : {}),
      },
      businessDay: closed.businessDay,
    }
    return closedBatchReport(reported, JSON.parse(closed.summary) as FrozenSummary, journal.salesOfBatch(batch).map(toSaleView))
  }

  /**
   * Close of day closes the open batch: refused while reversals are pending; in restaurant mode
   * every authorised payment of the batch is captured for base plus tip (docs/gateway.md §D3
   * "Capture"), queued like the rest; a stored one's capture waits in the queue behind the payment
   * and follows its forward. The batch then takes exactly the sales it counted, with its totals as
   * they stand, in one commit; a sale started meanwhile goes to the next batch.
   *
   * `batch` names the batch the caller means: a repeat of a close that already happened returns that
   * batch and closes nothing else.
   */
  async close(batch?: number, managerOverride = false, by?: string): Promise<DayReport> {
    const { journal, writeAhead } = this.deps
    const open = journal.batches.openNumber()
    if (batch !== undefined && batch < open) return this.report(batch)
    if (batch !== undefined && batch > open) {
      throw new PosError('NO_SUCH_BATCH', `batch ${batch} is not open yet (the open batch is ${open})`)
    }
    const before = this.report()
    if (!before.closable && !(managerOverride && before.overridable)) return before
    const members = before.sales.map((sale) => sale.id)
    // The override is recorded on each sale it passes over, in the sale's own history.
    for (const sale of before.sales)
      if (sale.state === 'needsAttention') await this.deps.engine.step(sale.id, { type: 'closeOverridden' }, { by })
    for (const id of members) {
      const sale = writeAhead.sale(id)
      if (!sale.autoCapture && STANDING_PAYMENT.has(sale.state)) await this.deps.afterSale.capture(id, by)
    }
    // Checked again on the sales as they are now: a void may have started while the captures were written.
    const at = this.deps.now()
    // The close ends the shift still open (journal/batch-store.ts): its totals are frozen as ended now.
    const shifts = journal.shifts
      .ofOpenBatch()
      .map((shift) => ({ ...shift, endedAt: shift.endedAt ?? Math.max(shift.startedAt, at.getTime()) }))
    const counted = openBatchReport(
      { batch: before.batch, businessDay: before.businessDay },
      members.map((id) => toSaleView(writeAhead.sale(id))),
      shifts,
    )
    if (!counted.closable && !(managerOverride && counted.overridable)) return counted
    try {
      const closed = journal.batches.close({
        saleIds: members,
        closedAt: at.getTime(),
        businessDay: businessDay(at),
        managerOverride: !counted.closable,
        summary: JSON.stringify(summarise(counted.sales, shifts)),
        closedBy: by,
      })
      return this.report(closed.number)
    } catch (error) {
      // Another close (the POS and the screen at once) took these sales first: that is the close asked for.
      if (error instanceof BatchClosedMeanwhileError) return this.report(open)
      throw error
    }
  }

  /** Closed batches, newest first. */
  batches(): BatchSummaryView[] {
    return this.deps.journal.batches.list().map(batchSummaryView)
  }

  /**
   * The sales a search finds, oldest first (docs/local-api.md "Finding sales"): without a day or a
   * batch, those of the open batch. A batch number is a closed batch, or the open batch's own number.
   */
  search(search: SaleSearch): SaleView[] {
    const { journal } = this.deps
    let batch = search.batch
    if (typeof batch === 'number') {
      const open = journal.batches.openNumber()
      if (batch === open) batch = 'open'
      else if (!journal.batches.get(batch))
        throw new PosError('NO_SUCH_BATCH', `there is no batch ${batch} on this terminal (the open batch is ${open})`)
    }
    if (batch === undefined && search.day === undefined) batch = 'open'
    return journal.searchSales({ ...search, batch }).map(toSaleView)
  }
}
