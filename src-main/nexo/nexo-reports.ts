/**
 * nexo's GetTotals and Diagnosis answers, from the agent's own reports: the open batch's totals per
 * currency and brand (amount plus tips, `Debit`), and the reader, the bank and the queue as they stand,
 * with the POS logged in (kept in the journal, so the list survives a restart).
 */
import type { DayReportView, DeviceStatusView, QueueStatusView } from '../../src-shared/contract'
import { success } from './nexo-messages'
import { majorAmount } from './nexo-payment'

export function totalsBody(report: DayReportView, terminalId: string): Record<string, unknown> {
  const byCurrency = new Map<string, Array<{ brand: string; count: number; amountMinor: number; tipMinor: number }>>()
  for (const total of report.totals) byCurrency.set(total.currency, [...(byCurrency.get(total.currency) ?? []), total])
  return {
    Response: success({ declined: report.counts.declined }),
    POIReconciliationID: String(report.batch.number),
    TransactionTotals: [...byCurrency].flatMap(([currency, brands]) =>
      brands.map((total) => ({
        PaymentInstrumentType: 'Card',
        PaymentCurrency: currency,
        CardBrand: total.brand,
        POIID: terminalId,
        PaymentTotals: [
          {
            TransactionType: 'Debit',
            TransactionCount: total.count,
            TransactionAmount: majorAmount(total.amountMinor + total.tipMinor, currency),
          },
        ],
      })),
    ),
  }
}

export function diagnosisBody(device: DeviceStatusView, queue: QueueStatusView, loggedIn: string[]): Record<string, unknown> {
  const hostReachable = queue.hostReachable ?? true
  return {
    Response: success({ storedCount: queue.storedCount, attentionCount: queue.attentionCount, queued: queue.count }),
    POIStatus: {
      GlobalStatus: !device.connected ? 'Unreachable' : device.busy ? 'Busy' : 'OK',
      PEDOKFlag: device.connected,
      CardReaderOKFlag: device.connected,
      CommunicationOKFlag: hostReachable,
    },
    HostStatus: [{ AcquirerID: 'gateway', IsReachableFlag: hostReachable }],
    LoggedSaleID: loggedIn,
  }
}
