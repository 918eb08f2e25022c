/**
 * The sales whose prompts the customer display speaks because the cashier or the POS asked for it
 * (startSale `speech`: a customer who asked). Every sale view the service hands out (an operation's
 * result, a live event, a stream's snapshot) carries `speech: true` for them, so the display reads
 * it from the sale itself.
 *
 * Kept in memory for the sales of this run: speech matters while the customer is at the counter,
 * and no sale stays at the counter across a restart (recovery ends it). It holds no card data and
 * changes nothing about money, so it is not journaled.
 */
import type { SaleView } from '../../src-shared/contract'

/** How many sales are remembered: far more than a counter rings up while one customer listens. */
const REMEMBERED = 500

export class SpokenSales {
  private readonly ids = new Set<string>()
  private starting = false

  /**
   * Starts a sale with `begin` (the engine starts a sale synchronously and announces it before it
   * returns): when `speech` is asked, the sale it starts is marked before its first event leaves, so
   * the display speaks from the first prompt.
   */
  start(speech: boolean, begin: () => SaleView): SaleView {
    if (!speech) return this.view(begin())
    this.starting = true
    try {
      const view = begin()
      this.mark(view.id)
      return this.view(view)
    } finally {
      this.starting = false
    }
  }

  /** `view` as the doors see it: with `speech: true` for a sale whose prompts are spoken. */
  view(view: SaleView): SaleView {
    if (this.starting) this.mark(view.id)
    return this.ids.has(view.id) ? { ...view, speech: true } : view
  }

  private mark(id: string): void {
    this.ids.add(id)
    if (this.ids.size > REMEMBERED) this.ids.delete(this.ids.values().next().value!)
  }
}
