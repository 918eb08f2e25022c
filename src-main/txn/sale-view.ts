/**
 * What a sale looks like outside the main process (UI, local API, events): masked PAN and ids only,
 * never card data. One mapping, so nothing sensitive can leak through a second one.
 */
import type { SaleRecord } from '../journal'
import type { SaleView } from '../../src-shared/contract'

export type { SaleView }

export function toSaleView(record: SaleRecord): SaleView {
  const view: SaleView = {
    id: record.id,
    state: record.state,
    amountMinor: record.amountMinor,
    currency: record.currency,
    tipMinor: record.tipMinor,
    tipState: record.tipState,
    autoCapture: record.autoCapture,
    offline: record.offline,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    businessDay: record.businessDay,
  }
  const optional = [
    'reason',
    'authCode',
    'svcTransID',
    'maskedPan',
    'brand',
    'readMethod',
    'applicationId',
    'applicationLabel',
    'reference',
  ] as const
  for (const key of optional) {
    const value = record[key]
    if (value !== undefined) view[key] = value
  }
  if (record.startedBy !== undefined) view.startedBy = record.startedBy
  return view
}
