/**
 * What a return may credit (pure). A referenced return credits part or all of a payment that stands
 * at the bank, to the same card, in its currency, never more in total than was charged: the amount
 * plus the tip, less what its earlier returns credited or are crediting (the journal sums them with
 * the sale, SaleRecord.returnedMinor). A return without a sale on this terminal needs a manager and
 * stays within its own limit (config `limits.unreferencedReturnMax`; none configured: not allowed).
 */
import { createHash } from 'node:crypto'
import type { SaleRecord } from '../journal'
import { displayAmount } from '../../src-shared/money'
import { PosError } from '../../src-shared/pos-error'
import { RETURNABLE } from '../../src-shared/sale'

export interface ReturnAsked {
  originalId?: string | undefined
  amountMinor: number
  currency: string
  managerApproved: boolean
}

/** What is left to return of a sale: amount plus tip, less its crediting returns. */
export function returnableMinor(sale: Pick<SaleRecord, 'amountMinor' | 'tipMinor' | 'returnedMinor'>): number {
  return Math.max(0, sale.amountMinor + sale.tipMinor - (sale.returnedMinor ?? 0))
}

/** Why this return may not start, or undefined when it may. */
export function returnRefusal(
  request: ReturnAsked,
  original: SaleRecord | undefined,
  unreferencedMaxMinor: number | undefined,
): PosError | undefined {
  if (!Number.isSafeInteger(request.amountMinor) || request.amountMinor <= 0)
    return new PosError('INVALID_AMOUNT', 'a return credits a whole amount greater than zero')
  if (original === undefined) {
    if (!request.managerApproved) return new PosError('MANAGER_REQUIRED', 'a return without a sale on this terminal needs a manager')
    if (unreferencedMaxMinor === undefined || request.amountMinor > unreferencedMaxMinor)
      return new PosError(
        'RETURN_ABOVE_LIMIT',
        `a return without a sale may credit at most ${displayAmount(unreferencedMaxMinor ?? 0, request.currency)}`,
      )
    return undefined
  }
  if (original.kind === 'return' || !RETURNABLE.has(original.state))
    return new PosError('NOT_RETURNABLE', `sale ${original.id} is ${original.state}${original.kind === 'return' ? ' (a return)' : ''}`)
  if (original.cardFingerprint === undefined) return new PosError('NOT_RETURNABLE', `sale ${original.id} has no card to credit`)
  if (request.currency !== original.currency)
    return new PosError(
      'CURRENCY_NOT_ACCEPTED',
      `sale ${original.id} was paid in ${original.currency}, the return asks for ${request.currency}`,
    )
  const left = returnableMinor(original)
  if (request.amountMinor > left)
    return new PosError(
      'RETURN_TOO_LARGE',
      `sale ${original.id}: ${displayAmount(left, original.currency)} is left to return, ${displayAmount(request.amountMinor, request.currency)} was asked`,
    )
  return undefined
}

/** Two requests under one integrator reference are the same return only if these agree. */
export function hashReturn(request: Pick<ReturnAsked, 'originalId' | 'amountMinor' | 'currency'>): string {
  return createHash('sha256')
    .update(JSON.stringify(['return', request.originalId ?? null, request.amountMinor, request.currency]))
    .digest('hex')
}
