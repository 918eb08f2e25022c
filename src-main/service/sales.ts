/** Ringing up a sale and following it: start, look up, cancel at the counter, the duplicate question, the list. */
import { PosError } from '../../src-shared/errors'
import { saleOriginOf } from './caller'
import { saleOf, type Handlers, type ServiceParts } from './service-parts'

type SalesOperations = 'startSale' | 'getSale' | 'getSaleByReference' | 'cancelSale' | 'confirmDuplicate' | 'listSales' | 'presentTestCard'

export function salesHandlers(parts: ServiceParts): Handlers<SalesOperations> {
  const { txn, journal } = parts.deps.engine
  return {
    startSale: (r, { caller, actor }) =>
      parts.spoken.start(r.speech === true, () =>
        txn.startSale({
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
      const record = journal.byReference(r.reference)
      if (!record) throw new PosError('NO_SUCH_SALE', `no sale with reference "${r.reference}"`)
      return saleOf(parts, record.id)
    },
    cancelSale: async (r, { actor }) => {
      await txn.cancelSale(r.id, actor)
      return saleOf(parts, r.id)
    },
    confirmDuplicate: async (r, { actor }) => {
      await txn.confirmDuplicate(r.id, r.charge, actor)
      return saleOf(parts, r.id)
    },
    listSales: (r) => txn.searchSales(r).map((view) => parts.spoken.view(view)),
    presentTestCard: (r) => {
      if (!parts.deps.presentTestCard) throw new PosError('NOT_TRAINING', 'test cards exist only in training mode')
      parts.deps.presentTestCard(r.name)
      return { presented: r.name }
    },
  }
}
