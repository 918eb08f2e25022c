/**
 * One sale at a time at the counter, owned here and nowhere else. A sale holds the counter from
 * its creation until it leaves the counter's states (COUNTER_BUSY in src-shared/sale) or its flow
 * fails; an operation that needs the counter for a moment (a void asks for the card again) holds it
 * through `during`, which gives it back on every refusal, error and exception.
 */
import { PosError } from '../../src-shared/pos-error'

export class CounterLock {
  private holder: string | undefined

  get heldBy(): string | undefined {
    return this.holder
  }

  /** Refuses while another sale holds the counter. */
  assertFree(doing: string): void {
    if (this.holder !== undefined) {
      throw new PosError(
        'SALE_IN_PROGRESS',
        `sale ${this.holder} is still running at the counter: finish or cancel it before ${doing}`,
        true,
      )
    }
  }

  /** Takes the counter for a sale (after `assertFree`, in the same synchronous step). */
  take(saleId: string): void {
    this.assertFree('another sale')
    this.holder = saleId
  }

  /** Gives the counter back, if this sale holds it. */
  release(saleId: string): void {
    if (this.holder === saleId) this.holder = undefined
  }

  /**
   * Runs `work` holding the counter for `saleId`; afterwards the counter is kept only while
   * `stillAtCounter()` says so, whether `work` succeeded, refused or threw.
   */
  async during<T>(saleId: string, doing: string, work: () => Promise<T>, stillAtCounter: () => boolean): Promise<T> {
    this.assertFree(doing)
    this.holder = saleId
    try {
      return await work()
    } finally {
      if (!keepsCounter(stillAtCounter)) this.release(saleId)
    }
  }
}

/** A check that throws (the sale does not exist) keeps nothing. */
function keepsCounter(stillAtCounter: () => boolean): boolean {
  try {
    return stillAtCounter()
  } catch {
    return false
  }
}
