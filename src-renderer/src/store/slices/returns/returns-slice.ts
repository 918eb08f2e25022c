/**
 * A return from the transactions list: the cashier picks a sale, the amount (what is left to return
 * by default), a manager approves (approving-bridge.ts asks), the customer presents the same card,
 * and the panel shows how it ended. The agent checks every rule; the screen only asks.
 */
import type { PosErrorView } from '../../../../../src-shared/contract'
import { COUNTER_WAITS, upsertSale } from '../../sale-records'
import type { SliceCreator } from '../../store-types'

export interface ReturnsSlice {
  /** The sale the return dialog is open for (the amount is being chosen, or the return runs). */
  returnOfId: string | null
  /** The dialog is open for a return without a sale (a manager's, within the terminal's limits). */
  returnWithoutSale: boolean
  /** The return record once the agent started it; stays set until dismissed so its outcome stays on screen. */
  returnId: string | null
  /** The startReturn call is on its way (a manager may be approving it). */
  returnBusy: boolean
  returnError: PosErrorView | null
  openReturn(saleId: string): void
  openReturnWithoutSale(): void
  startReturn(amountMinor: number): Promise<void>
  /** Stop waiting for the card: nothing is credited. */
  stopReturn(): Promise<void>
  dismissReturn(): void
}

export const createReturnsSlice: SliceCreator<ReturnsSlice> =
  ({ bridge }) =>
  (set, get) => ({
    returnOfId: null,
    returnWithoutSale: false,
    returnId: null,
    returnBusy: false,
    returnError: null,

    openReturn(saleId) {
      const s = get()
      if (s.returnBusy) return
      // A sale of an earlier batch is known from the search only: it joins the sales the dialog reads.
      const found = s.sales[saleId] ? undefined : s.foundSales?.find((sale) => sale.id === saleId)
      set({
        returnOfId: saleId,
        returnWithoutSale: false,
        returnId: null,
        returnError: null,
        prompt: null,
        ...(found ? { sales: upsertSale(s.sales, found) } : {}),
      })
    },

    openReturnWithoutSale() {
      if (get().returnBusy) return
      set({ returnOfId: null, returnWithoutSale: true, returnId: null, returnError: null, prompt: null })
    },

    async startReturn(amountMinor) {
      const s = get()
      const sale = s.returnOfId ? s.sales[s.returnOfId] : undefined
      if ((!sale && !s.returnWithoutSale) || s.returnBusy || s.returnId) return
      set({ returnBusy: true, returnError: null, prompt: null })
      const currency = sale?.currency ?? s.appInfo?.currency
      const result = await bridge.call(
        'startReturn',
        sale ? { originalId: sale.id, amountMinor, currency: sale.currency } : { amountMinor, ...(currency ? { currency } : {}) },
      )
      set((state) =>
        result.ok
          ? { returnBusy: false, returnId: result.value.id, sales: upsertSale(state.sales, result.value) }
          : { returnBusy: false, returnError: result.error },
      )
    },

    async stopReturn() {
      const s = get()
      const credit = s.returnId ? s.sales[s.returnId] : undefined
      if (!credit || !COUNTER_WAITS.has(credit.state)) return
      const result = await bridge.call('cancelSale', { id: credit.id })
      set((state) => (result.ok ? { sales: upsertSale(state.sales, result.value) } : { returnError: result.error }))
    },

    dismissReturn() {
      const s = get()
      const credit = s.returnId ? s.sales[s.returnId] : undefined
      if (s.returnBusy || (credit && COUNTER_WAITS.has(credit.state))) return
      set({ returnOfId: null, returnWithoutSale: false, returnId: null, returnError: null, prompt: null, testCardNotice: null })
    },
  })
