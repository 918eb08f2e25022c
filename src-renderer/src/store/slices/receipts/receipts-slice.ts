/**
 * Receipts leaving the terminal from the receipt dialog: printed on the receipt printer (again as
 * often as asked) or emailed to the customer, with the printer's state shown before the cashier
 * presses Print. Without a receipt printer the dialog prints through the browser instead.
 */
import type { PrinterStatusView } from '../../../../../src-shared/contract'
import { PRINTER_STATE_WORDS } from '../../../../../src-shared/receipt'
import { describeError } from '../../error-words'
import type { Notice, SliceCreator } from '../../store-types'

export interface ReceiptsSlice {
  printer: PrinterStatusView | null
  receiptBusy: boolean
  receiptNotice: Notice | null
  /** Asks the receipt printer how it is now. */
  refreshPrinter(): Promise<void>
  printReceipt(saleId: string): Promise<void>
  emailReceipt(saleId: string, to: string): Promise<boolean>
  clearReceiptNotice(): void
  /** What came of printing the day report (the close-of-day screen's own line). */
  reportPrintNotice: Notice | null
  /** The day report on the receipt printer: a closed batch's Z-report, or the open batch's X-report. */
  printDayReport(batch: number | undefined): Promise<void>
}

export const createReceiptsSlice: SliceCreator<ReceiptsSlice> =
  ({ bridge }) =>
  (set, get) => ({
    printer: null,
    receiptBusy: false,
    receiptNotice: null,

    async refreshPrinter() {
      const result = await bridge.call('printerStatus', {})
      if (result.ok) set({ printer: result.value })
    },

    async printReceipt(saleId) {
      if (get().receiptBusy) return
      set({ receiptBusy: true, receiptNotice: null })
      const result = await bridge.call('printReceipt', { id: saleId })
      if (result.ok) {
        const low = result.value.state === 'paperLow' ? ` ${PRINTER_STATE_WORDS.paperLow}: change the roll soon.` : ''
        set({ receiptBusy: false, printer: result.value, receiptNotice: { tone: 'ok', text: `Receipt printed.${low}` } })
      } else {
        set({ receiptBusy: false, receiptNotice: { tone: 'error', text: `Not printed: ${describeError(result.error)}` } })
        await get().refreshPrinter()
      }
    },

    async emailReceipt(saleId, to) {
      if (get().receiptBusy) return false
      set({ receiptBusy: true, receiptNotice: null })
      const result = await bridge.call('emailReceipt', { id: saleId, to })
      set({
        receiptBusy: false,
        receiptNotice: result.ok
          ? { tone: 'ok', text: `Receipt sent to ${result.value.to}.` }
          : { tone: 'error', text: `Not sent: ${describeError(result.error)}` },
      })
      return result.ok
    },

    clearReceiptNotice() {
      set({ receiptNotice: null })
    },

    reportPrintNotice: null,
    async printDayReport(batch) {
      if (get().receiptBusy) return
      set({ receiptBusy: true, reportPrintNotice: null })
      const result = await bridge.call('printDayReport', batch === undefined ? {} : { batch })
      set({
        receiptBusy: false,
        reportPrintNotice: result.ok
          ? { tone: 'ok', text: 'Report printed.' }
          : { tone: 'error', text: `Not printed: ${describeError(result.error)}` },
      })
    },
  })
