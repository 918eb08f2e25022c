/**
 * What a sale looks like outside the main process (UI, local API, events): masked PAN and ids only,
 * never card data. One mapping, so nothing sensitive can leak through a second one.
 */
import type { SaleRecord } from '../journal'
import type { SaleView } from '../../src-shared/contract'
import { RETURNABLE } from '../../src-shared/sale'
import { returnableMinor } from './return-rules'
import { parseSaleOptions } from './sale-options'

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
    'cardSequence',
    'tvr',
    'tsi',
    'reference',
    'operatorId',
  ] as const
  for (const key of optional) {
    const value = record[key]
    if (value !== undefined) view[key] = value
  }
  if (record.kind === 'return') {
    view.kind = 'return'
    if (record.originalId !== undefined) view.originalId = record.originalId
  } else {
    if (RETURNABLE.has(record.state)) view.returnableMinor = returnableMinor(record)
    if ((record.returnedMinor ?? 0) > 0) view.returnedMinor = record.returnedMinor
  }
  if (record.cause !== undefined) view.cause = record.cause
  if (record.startedBy !== undefined) view.startedBy = record.startedBy
  if (record.cvm !== undefined) view.cvm = record.cvm
  const orderReference = orderReferenceOf(record.options)
  if (orderReference !== undefined) view.orderReference = orderReference
  return view
}

/** The merchant's order reference the sale was started with (startSale `options.merchantOrderReference`). */
function orderReferenceOf(options: string | undefined): string | undefined {
  try {
    return parseSaleOptions(options).payment.merchantOrderReference
  } catch {
    // Options are written by the agent from a validated request; one that does not parse names no order.
    return undefined
  }
}
