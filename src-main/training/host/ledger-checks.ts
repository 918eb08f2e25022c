/**
 * What a trainer, a test or the chaos checker asks of the host's ledger about money: did the host
 * ever credit more for a payment than it holds for it? The host itself does not link a credit to a
 * payment (host-contract §3, the terminal keeps that rule); the link is the `originalMerchantTransID`
 * the terminal names in the credit's metadata, which the ledger keeps (credit-operation.ts).
 * Amounts are summed in minor units as safe integers, checked.
 */
import { parseAmount } from '../../../src-shared/money'
import type { Amount } from './host-state'
import type { LedgerSnapshot, PaymentView } from './ledger'

export interface OverCredit {
  merchantTransID: string
  /** What the host holds for the payment: authorised or captured amount plus tip; nothing once cancelled or reversed. */
  heldMinor: number
  creditedMinor: number
}

/** What the host holds for a payment now. */
export function heldMinor(payment: PaymentView): number {
  if (payment.status !== 'Authorised' && payment.status !== 'Captured') return 0
  return checkedSum([minorOf(payment.transAmount), payment.tipAmount ? minorOf(payment.tipAmount) : 0])
}

/** What the host credited (successfully, once per merchantTransID) against each payment the credits name. */
export function creditedByPayment(ledger: LedgerSnapshot): Map<string, number> {
  const seen = new Set<string>()
  const credited = new Map<string, number>()
  for (const entry of ledger.entries) {
    if (entry.operation !== 'merchandiseCredit' || entry.status !== 'Success' || entry.replayed === true) continue
    if (entry.originalMerchantTransID === undefined || entry.amount === undefined || seen.has(entry.merchantTransID)) continue
    seen.add(entry.merchantTransID)
    credited.set(entry.originalMerchantTransID, checkedSum([credited.get(entry.originalMerchantTransID) ?? 0, minorOf(entry.amount)]))
  }
  return credited
}

/** Every payment the host credited more for than it holds: empty when the money rule held. */
export function overCredited(ledger: LedgerSnapshot): OverCredit[] {
  const credited = creditedByPayment(ledger)
  const found: OverCredit[] = []
  for (const [merchantTransID, creditedMinor] of credited) {
    const payment = ledger.payments.find((p) => p.merchantTransID === merchantTransID)
    const held = payment ? heldMinor(payment) : 0
    if (creditedMinor > held) found.push({ merchantTransID, heldMinor: held, creditedMinor })
  }
  return found
}

function minorOf(amount: Amount): number {
  return parseAmount(amount.value, amount.currency)
}

/** A sum of minor units that refuses to lose precision (past 2^53 a double no longer counts cents). */
function checkedSum(values: number[]): number {
  let total = 0
  for (const value of values) {
    total += value
    if (!Number.isSafeInteger(total)) throw new RangeError(`a sum of minor units passed ${Number.MAX_SAFE_INTEGER}`)
  }
  return total
}
