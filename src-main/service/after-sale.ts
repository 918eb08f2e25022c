/** What happens to a sale after it ended: a void, a tip, a manager's retry or acknowledgement of a stuck one. */
import type { Handlers, ServiceParts } from './service-parts'

export function afterSaleHandlers(parts: ServiceParts): Handlers<'voidSale' | 'adjustTip' | 'retryAttention' | 'acknowledgeAttention'> {
  const { txn } = parts.deps.engine
  return {
    voidSale: (r, { actor }) => txn.voidSale(r.id, actor),
    adjustTip: (r, { actor }) => txn.adjustTip(r.id, r.tipMinor, r.managerOverride ?? false, actor),
    retryAttention: (r, { actor }) => txn.managerRetry(r.id, actor),
    acknowledgeAttention: (r, { actor }) => txn.acknowledge(r.id, actor),
  }
}
