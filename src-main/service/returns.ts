/** Returns: part or all of a sale credited to its card, or a return without a sale (a manager's, within its limit). */
import { saleOriginOf } from './caller'
import type { Handlers, ServiceParts } from './service-parts'

export function returnsHandlers(parts: ServiceParts): Handlers<'startReturn'> {
  const { returns } = parts.deps.engine.txn
  return {
    startReturn: (r, { caller, actor }) =>
      returns.start({
        originalId: r.originalId,
        amountMinor: r.amountMinor,
        currency: r.currency ?? parts.deps.info.currency,
        reference: r.reference,
        // access.ts let it through only with a manager's approval once the terminal has a manager (a
        // terminal without any has nobody who could approve a return without a sale), or from a nexo
        // POS whose token has the refund scope, or a ZVT register with the refund scope and its password:
        // the POS's own staff rules approve it.
        managerApproved: caller.door === 'nexo' || caller.door === 'zvt' || parts.operators.hasManager(),
        startedBy: saleOriginOf(caller),
        operatorId: actor,
      }),
  }
}
