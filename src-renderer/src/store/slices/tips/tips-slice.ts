/** Tip adjustment at close: a draft per sale (typed text + manager override), sent with adjustTip. */
import { describeError } from '../../error-words'
import { upsertSale } from '../../sale-records'
import { canSubmitTips, tipRows } from '../../selectors/tip-selectors'
import type { Notice, SliceCreator } from '../../store-types'

export interface TipDraft {
  text: string
  override: boolean
}

export interface TipsSlice {
  tipDrafts: Readonly<Record<string, TipDraft>>
  /** The answer for each row after the last submit. */
  tipOutcomes: Readonly<Record<string, Notice>>
  tipsSubmitting: boolean
  setTipText(saleId: string, text: string): void
  setTipOverride(saleId: string, override: boolean): void
  /** Sends every changed, valid tip; rows that fail keep their draft. */
  submitTips(): Promise<void>
}

export const createTipsSlice: SliceCreator<TipsSlice> =
  ({ bridge }) =>
  (set, get) => ({
    tipDrafts: {},
    tipOutcomes: {},
    tipsSubmitting: false,

    setTipText(saleId, text) {
      set((s) => ({
        tipDrafts: { ...s.tipDrafts, [saleId]: { override: s.tipDrafts[saleId]?.override ?? false, text } },
        tipOutcomes: omit(s.tipOutcomes, saleId),
      }))
    },

    setTipOverride(saleId, override) {
      set((s) => {
        const sale = s.sales[saleId]
        const text = s.tipDrafts[saleId]?.text ?? tipRows(s).find((row) => row.sale.id === saleId)?.text ?? ''
        return sale ? { tipDrafts: { ...s.tipDrafts, [saleId]: { text, override } } } : {}
      })
    },

    async submitTips() {
      const s = get()
      if (!canSubmitTips(s)) return
      const changed = tipRows(s).filter((row) => row.changed && row.tipMinor !== null)
      set({ tipsSubmitting: true, tipOutcomes: {} })
      for (const row of changed) {
        const result = await bridge.call('adjustTip', {
          id: row.sale.id,
          tipMinor: row.tipMinor ?? 0,
          ...(row.override ? { managerOverride: true } : {}),
        })
        set((state) =>
          result.ok
            ? {
                sales: upsertSale(state.sales, result.value),
                tipDrafts: omit(state.tipDrafts, row.sale.id),
                tipOutcomes: { ...state.tipOutcomes, [row.sale.id]: { tone: 'ok', text: 'Tip saved' } },
              }
            : { tipOutcomes: { ...state.tipOutcomes, [row.sale.id]: { tone: 'error', text: describeError(result.error) } } },
        )
      }
      set({ tipsSubmitting: false })
    },
  })

function omit<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record
  return rest
}
