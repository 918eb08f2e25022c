/**
 * Training: the simulated customer presents the default card by itself only for a sale a POS
 * started (nobody may be at the counter); for the counter's own sales and returns the card read is
 * the trainee's pick, however long it takes. Decided by the sale that holds the counter, as it takes
 * it: its change is told before the reader is asked (write-ahead), only one sale holds the counter at
 * a time, and a refused or replayed request holds nothing, so it changes nothing. A void reads the
 * card for the sale it voids and follows that sale's origin.
 */
import { COUNTER_BUSY, type SaleState } from '../../src-shared/sale'

interface SaleUpdates {
  on(event: 'update', listener: (update: { type: string; sale?: { state: SaleState; startedBy?: string } }) => void): unknown
}

export function followCounterSale(txn: SaleUpdates, autoPresent: (on: boolean) => void): void {
  txn.on('update', (update) => {
    if (update.type !== 'sale' || update.sale === undefined || !COUNTER_BUSY.has(update.sale.state)) return
    autoPresent(update.sale.startedBy === 'pos')
  })
}
