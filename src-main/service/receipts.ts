/** Receipts: printed (again, as often as asked) or mailed; the printer's state; the day report on paper. */
import { withAuditHead } from './day'
import { saleOf, type Handlers, type ServiceParts } from './service-parts'

export function receiptsHandlers(parts: ServiceParts): Handlers<'printReceipt' | 'emailReceipt' | 'printerStatus' | 'printDayReport'> {
  const { receipts } = parts
  return {
    // A receipt leaves the terminal as often as asked; reprinting changes nothing of the sale.
    printReceipt: async (r) => {
      await receipts.print(saleOf(parts, r.id), r.copies, r.kind)
      return receipts.printerStatus(false)
    },
    emailReceipt: async (r) => {
      await receipts.email(saleOf(parts, r.id), r.to, r.kind)
      return { to: r.to }
    },
    printerStatus: () => receipts.printerStatus(true),
    printDayReport: async (r) => {
      await receipts.printDayReport(withAuditHead(parts, parts.deps.engine.txn.day.report(r.batch)))
      return receipts.printerStatus(false)
    },
  }
}
