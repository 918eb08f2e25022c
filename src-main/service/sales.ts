/**
 * A sale, from ringing it up to what may follow it: start, look up, cancel at the counter, the
 * duplicate question, the list; then a void, a tip, a manager's retry or acknowledgement of a stuck
 * one. Each handler calls the engine's flow itself (src-main/txn: sale-flow.ts, after-sale-flow.ts,
 * day-flow.ts for the list) and reads sales through sale-reads.ts.
 */
import { PosError } from '../../src-shared/errors'
import { saleOriginOf } from './caller'
import { saleOf, type Handlers, type ServiceParts } from './service-parts'

type SalesOperations =
  | 'startSale'
  | 'getSale'
  | 'getSaleByReference'
  | 'cancelSale'
  | 'confirmDuplicate'
  | 'listSales'
  | 'presentTestCard'
  | 'voidSale'
  | 'adjustTip'
  | 'retryAttention'
  | 'acknowledgeAttention'

export function salesHandlers(parts: ServiceParts): Handlers<SalesOperations> {
  const { sales, afterSale, day, reads } = parts.deps.engine.txn
  return {
    startSale: (r, { caller, actor }) =>
      parts.spoken.start(r.speech === true, () =>
        sales.start({
          startedBy: saleOriginOf(caller),
          operatorId: actor,
          amountMinor: r.amountMinor,
          currency: r.currency ?? parts.deps.info.currency,
          reference: r.reference,
          offlinePolicy: r.offlinePolicy,
          options: r.options,
          amountConfirmed: r.amountConfirmed,
        }),
      ),
    getSale: (r) => saleOf(parts, r.id),
    getSaleByReference: (r) => {
      const sale = reads.byReference(r.reference)
      if (!sale) throw new PosError('NO_SUCH_SALE', `no sale with reference "${r.reference}"`)
      return parts.spoken.view(sale)
    },
    cancelSale: async (r, { actor }) => {
      await sales.cancel(r.id, actor)
      return saleOf(parts, r.id)
    },
    confirmDuplicate: async (r, { actor }) => {
      await sales.confirmDuplicate(r.id, r.charge, actor)
      return saleOf(parts, r.id)
    },
    listSales: (r) => day.search(r).map((view) => parts.spoken.view(view)),
    presentTestCard: (r) => {
      if (!parts.deps.presentTestCard) throw new PosError('NOT_TRAINING', 'test cards exist only in training mode')
      parts.deps.presentTestCard(r.name)
      return { presented: r.name }
    },
    voidSale: (r, { actor }) => afterSale.voidSale(r.id, actor),
    adjustTip: (r, { actor }) => afterSale.adjustTip(r.id, r.tipMinor, r.managerOverride ?? false, actor),
    retryAttention: (r, { actor }) => afterSale.managerRetry(r.id, actor),
    acknowledgeAttention: (r, { actor }) => afterSale.acknowledge(r.id, actor),
  }
}
