/**
 * Each ZVT sale has the terminal's next number, kept as its reference (`zvt:<n>`) so the journal
 * knows it after a restart: its trace and turnover numbers, and its receipt number (1–9999, the
 * number the register prints and reverses by, counting round; zvt-status.ts `receiptOf`).
 */
import type { OperationName, OperationRequest, OperationResults, SaleView } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import type { Caller } from '../service'
import { receiptOf } from './zvt-status'

const REFERENCE = /^zvt:(\d+)$/

/** Of `sales`, the ZVT ones with their numbers (a sale of another door has no `zvt:` reference). */
export function numberedSales(sales: readonly SaleView[]): { sale: SaleView; number: number }[] {
  return sales.flatMap((sale) => {
    const match = REFERENCE.exec(sale.reference ?? '')
    return match ? [{ sale, number: Number(match[1]) }] : []
  })
}

interface Calls {
  call<K extends OperationName>(caller: Caller, operation: K, request: OperationRequest<K>): Promise<OperationResults[K]>
}

export class ZvtNumbers {
  private last: number | undefined

  constructor(private readonly service: Calls) {}

  /** The ZVT sales of the open batch with their numbers. */
  async openBatch(caller: Caller): Promise<{ sale: SaleView; number: number }[]> {
    return numberedSales(await this.service.call(caller, 'listSales', { batch: 'open' }))
  }

  /**
   * The next free number. Known after the first payment of a run; at the first, the highest number in
   * the journal is found by its references (numbers are used in order, so a binary search of a few
   * lookups finds it whatever the journal's size). A number another terminal of the same agent took
   * meanwhile is stepped over.
   */
  async next(caller: Caller): Promise<number> {
    this.last ??= await this.highest(caller)
    let next = this.last + 1
    while (await this.used(caller, next)) next++
    this.last = next
    return next
  }

  /** The payment of the open batch with this receipt number (the newest, once the numbers came round). */
  async saleOfReceipt(caller: Caller, receipt: number): Promise<{ sale: SaleView; number: number } | undefined> {
    return (await this.openBatch(caller))
      .filter((s) => receiptOf(s.number) === receipt && s.sale.kind !== 'return')
      .sort((a, b) => b.number - a.number)[0]
  }

  private async highest(caller: Caller): Promise<number> {
    if (!(await this.used(caller, 1))) return 0
    let low = 1
    let high = 2
    while (await this.used(caller, high)) {
      low = high
      high *= 2
    }
    // Used at low, free at high.
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2)
      if (await this.used(caller, middle)) low = middle
      else high = middle
    }
    return low
  }

  private async used(caller: Caller, number: number): Promise<boolean> {
    try {
      await this.service.call(caller, 'getSaleByReference', { reference: `zvt:${number}` })
      return true
    } catch (error) {
      if (error instanceof PosError && error.code === 'NO_SUCH_SALE') return false
      throw error
    }
  }
}
