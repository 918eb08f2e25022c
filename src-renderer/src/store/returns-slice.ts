/**
 * A return from the transactions list: the cashier picks a sale, the amount (what is left to return
 * by default), a manager approves (approving-bridge.ts asks), the customer presents the same card,
 * and the panel shows how it ended. The agent checks every rule; the screen only asks.
 */
import type { PosErrorView } from '../../../src-shared/contract'
import { COUNTER_WAITS, upsertSale } from './sale-records'
import type { SliceCreator } from './store-types'

export interface ReturnsSlice {
  /** The sale the return dialog is open for (the amount is being chosen, or the return runs). */
  returnOfId: string | null
  /** The return record once the agent started it; stays set until dismissed so its outcome stays on screen. */
  returnId: string | null
  /** The startReturn call is on its way (a manager may be approving it). */
  returnBusy: boolean
  returnError: PosErrorView | null
  openReturn(saleId: string): void
  startReturn(amountMinor: number): Promise<void>
  /** Stop waiting for the card: nothing is credited. */
  stopReturn(): Promise<void>
  dismissReturn(): void
}

export const createReturnsSlice: SliceCreator<ReturnsSlice> =
  ({ bridge }) =>
  (set, get) => ({
    returnOfId: null,
    returnId: null,
    returnBusy: false,
    returnError: null,

    openReturn(saleId) {
      if (get().returnBusy) return
      set({ returnOfId: saleId, returnId: null, returnError: null, prompt: null })
    },

    async startReturn(amountMinor) {
      const s = get()
      const sale = s.returnOfId ? s.sales[s.returnOfId] : undefined
      if (!sale || s.returnBusy || s.returnId) return
      set({ returnBusy: true, returnError: null, prompt: null })
      const result = await bridge.call('startReturn', { originalId: sale.id, amountMinor, currency: sale.currency })
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
      set({ returnOfId: null, returnId: null, returnError: null, prompt: null, testCardNotice: null })
    },
  })
