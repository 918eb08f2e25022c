/** The day's sales and report: list, void (the customer presents the card again), close of day, export. */
import type {
  BatchSummaryView,
  DayReportView,
  OperationRequest,
  OperationResults,
  OperatorView,
  PosErrorView,
  SaleView,
} from '../../../../../src-shared/contract'
import { describeError } from '../../error-words'
import { plainReason } from '../../reason-words'
import { salesFromList, upsertSale, type SalesById } from '../../sale-records'
import { canVoid } from '../../selectors/day-selectors'
import type { Notice, SliceCreator } from '../../store-types'

export type DayExport = OperationResults['exportDay']

/** Where the transactions screen looks: the open batch (since the last close), a local day, a closed batch. */
export type SalesScope = { kind: 'open' } | { kind: 'day'; day: string } | { kind: 'batch'; number: number }

/** What the transactions screen looks for; absent fields do not narrow the list. */
export interface SalesSearch {
  scope: SalesScope
  amountMinor?: number
  last4?: string
  reference?: string
  operatorId?: string
  /**
   * The receipt's transaction number: the whole of it (found in any batch), or its last digits (found
   * among the sales the rest of the search finds).
   */
  receipt?: string
}

/** The listSales request of a search (the receipt number is matched on what it answers). */
export function searchRequest(search: SalesSearch): OperationRequest<'listSales'> {
  const { scope, receipt: _receipt, ...filters } = search
  const where = scope.kind === 'day' ? { day: scope.day } : scope.kind === 'batch' ? { batch: scope.number } : {}
  return { ...where, ...filters }
}

/** Whether a search shows anything other than the open batch's whole list. */
export function searching(search: SalesSearch | null): search is SalesSearch {
  return (
    search !== null &&
    (search.scope.kind !== 'open' ||
      search.amountMinor !== undefined ||
      search.last4 !== undefined ||
      search.reference !== undefined ||
      search.operatorId !== undefined ||
      search.receipt !== undefined)
  )
}

/** Whether sale `id` is the one a receipt number names: the whole transaction number, or its last digits. */
export function receiptNames(id: string, receipt: string): boolean {
  if (id === receipt) return true
  const last = id.split('-').pop() ?? ''
  return /^\d+$/.test(receipt) && /^\d+$/.test(last) && Number(last) === Number(receipt)
}

export interface SalesSlice {
  sales: SalesById
  salesError: PosErrorView | null
  report: DayReportView | null
  /** The closed batch whose report is shown; null: the open batch. */
  reportBatch: number | null
  /** Closed batches, newest first (listBatches), for the report picker. */
  batches: BatchSummaryView[]
  reportLoading: boolean
  reportError: PosErrorView | null
  /** The sale being voided; stays set after the void ends so its outcome stays on screen until dismissed. */
  voidingSaleId: string | null
  /** The voidSale call is on its way (in the agent it lasts while the reader waits for the card). */
  voidBusy: boolean
  /** Stop the void is on its way. */
  voidStopping: boolean
  voidError: PosErrorView | null
  closing: boolean
  closeNotice: Notice | null
  exporting: 'csv' | 'json' | null
  /** The transactions screen's search; null: the open batch, everything in it. */
  salesSearch: SalesSearch | null
  /** What the search found (oldest first); null while no search is on. */
  foundSales: SaleView[] | null
  searchBusy: boolean
  searchError: PosErrorView | null
  /** The terminal's operators, for the search's operator picker (empty: a terminal without operators). */
  searchOperators: OperatorView[]
  /** Runs a search (null: back to the open batch's list), and again at every refresh of the list. */
  searchSales(search: SalesSearch | null): Promise<void>
  loadSearchOperators(): Promise<void>
  refreshSales(): Promise<void>
  /** One sale again (a return changed what is left to return on it, which no event of its own says). */
  refreshSale(saleId: string): Promise<void>
  refreshReport(): Promise<void>
  refreshBatches(): Promise<void>
  /** Show the report of closed batch `batch`, or of the open batch (null). */
  viewBatch(batch: number | null): Promise<void>
  voidSale(saleId: string): Promise<void>
  /** Stop waiting for the card during a void; the payment stands. */
  stopVoid(): Promise<void>
  dismissVoid(): void
  /** `managerOverride`: close a batch held only by sales that need a manager (a manager approves). */
  closeDay(managerOverride?: boolean): Promise<void>
  exportDay(format: 'csv' | 'json'): Promise<DayExport | null>
}

export const createSalesSlice: SliceCreator<SalesSlice> =
  ({ bridge }) =>
  (set, get) => ({
    sales: {},
    salesError: null,
    report: null,
    reportBatch: null,
    batches: [],
    reportLoading: false,
    reportError: null,
    voidingSaleId: null,
    voidBusy: false,
    voidStopping: false,
    voidError: null,
    closing: false,
    closeNotice: null,
    exporting: null,
    salesSearch: null,
    foundSales: null,
    searchBusy: false,
    searchError: null,
    searchOperators: [],

    async searchSales(search) {
      if (!searching(search)) {
        set({ salesSearch: null, foundSales: null, searchError: null, searchBusy: false })
        return
      }
      set({ salesSearch: search, searchBusy: true })
      // A whole transaction number finds its sale whatever batch it is in.
      const whole =
        search.receipt !== undefined && !/^\d+$/.test(search.receipt) ? await bridge.call('getSale', { id: search.receipt }) : null
      const result = whole?.ok ? { ok: true as const, value: [whole.value] } : await bridge.call('listSales', searchRequest(search))
      // An answer to a search the cashier has since changed is not shown.
      if (get().salesSearch !== search) return
      const receipt = search.receipt
      set(
        result.ok
          ? {
              searchBusy: false,
              searchError: null,
              foundSales: receipt === undefined ? result.value : result.value.filter((sale) => receiptNames(sale.id, receipt)),
            }
          : { searchBusy: false, searchError: result.error },
      )
    },

    async loadSearchOperators() {
      const result = await bridge.call('listOperators', {})
      set({ searchOperators: result.ok ? result.value : [] })
    },

    async refreshSales() {
      const search = get().salesSearch
      if (search) void get().searchSales(search)
      const result = await bridge.call('listSales', {})
      set((s) =>
        result.ok
          ? { salesError: null, sales: salesFromList(result.value, s.sales, [s.currentSaleId, s.voidingSaleId]) }
          : { salesError: result.error },
      )
    },

    async refreshSale(saleId) {
      const result = await bridge.call('getSale', { id: saleId })
      if (!result.ok) return
      set((s) => ({
        sales: upsertSale(s.sales, result.value),
        ...(s.foundSales ? { foundSales: s.foundSales.map((found) => (found.id === saleId ? result.value : found)) } : {}),
      }))
    },

    async refreshReport() {
      set({ reportLoading: true })
      const batch = get().reportBatch
      const result = await bridge.call('dayReport', batch === null ? {} : { batch })
      set((s) =>
        result.ok
          ? {
              reportLoading: false,
              reportError: null,
              report: result.value,
              sales: salesFromList(result.value.sales, s.sales, [s.currentSaleId, s.voidingSaleId]),
            }
          : { reportLoading: false, reportError: result.error },
      )
    },

    async refreshBatches() {
      const result = await bridge.call('listBatches', {})
      if (result.ok) set({ batches: result.value })
    },

    async viewBatch(batch) {
      if (batch === get().reportBatch) return
      set({ reportBatch: batch, closeNotice: null })
      await get().refreshReport()
    },

    async voidSale(saleId) {
      const s = get()
      const sale = s.sales[saleId]
      if (!sale || !canVoid(s, sale) || s.voidBusy) return
      set({ voidingSaleId: saleId, voidBusy: true, voidError: null, prompt: null })
      const result = await bridge.call('voidSale', { id: saleId })
      set((state) =>
        result.ok ? { voidBusy: false, sales: upsertSale(state.sales, result.value) } : { voidBusy: false, voidError: result.error },
      )
    },

    async stopVoid() {
      const s = get()
      const sale = s.voidingSaleId ? s.sales[s.voidingSaleId] : undefined
      // Not held back by the void's own call: that call lasts as long as the reader waits for the card.
      if (!sale || sale.state !== 'voidReadingCard' || s.voidStopping) return
      set({ voidStopping: true })
      const result = await bridge.call('cancelSale', { id: sale.id })
      set((state) =>
        result.ok
          ? { voidStopping: false, sales: upsertSale(state.sales, result.value) }
          : { voidStopping: false, voidError: result.error },
      )
    },

    dismissVoid() {
      const s = get()
      const sale = s.voidingSaleId ? s.sales[s.voidingSaleId] : undefined
      if (s.voidBusy || sale?.state === 'voidReadingCard') return
      // The card the "customer" held out was for this void: its notice goes with it.
      set({ voidingSaleId: null, voidError: null, prompt: null, testCardNotice: null })
    },

    async closeDay(managerOverride = false) {
      const s = get()
      if (s.closing || !s.report || !(managerOverride ? s.report.overridable : s.report.closable)) return
      set({ closing: true, closeNotice: null })
      // Names the batch on screen: a repeat after it closed returns it and closes nothing else.
      const result = await bridge.call('closeDay', { batch: s.report.batch.number, ...(managerOverride ? { managerOverride } : {}) })
      set((state) =>
        result.ok
          ? {
              closing: false,
              report: result.value,
              // The report shown is the batch just closed: the picker names it, and a refresh keeps it.
              ...(result.value.batch.closedAt !== undefined ? { reportBatch: result.value.batch.number } : {}),
              sales: salesFromList(result.value.sales, state.sales, [state.currentSaleId, state.voidingSaleId]),
              closeNotice:
                result.value.batch.closedAt !== undefined
                  ? { tone: 'ok', text: `Batch ${result.value.batch.number} closed.` }
                  : {
                      tone: 'error',
                      text: `The day was not closed: ${plainReason(result.value.blockedReason ?? 'it cannot be closed yet')}.`,
                    },
            }
          : { closing: false, closeNotice: { tone: 'error', text: `The day was not closed: ${describeError(result.error)}` } },
      )
    },

    async exportDay(format) {
      if (get().exporting) return null
      set({ exporting: format, closeNotice: null })
      const batch = get().report?.batch.number
      const result = await bridge.call('exportDay', { format, ...(batch !== undefined ? { batch } : {}) })
      if (result.ok) {
        set({ exporting: null, closeNotice: { tone: 'ok', text: `Exported ${result.value.filename}.` } })
        return result.value
      }
      set({ exporting: null, closeNotice: { tone: 'error', text: `Export failed: ${describeError(result.error)}` } })
      return null
    },
  })
