/**
 * The card reader as every flow asks it: for a sale, a void or a return, with the sale's amount; a
 * reader that throws instead of answering is a failed read in plain words (the detail goes to the log).
 */
import type { Logger } from 'pino'
import type { CardReader, ReadCardResult } from '../device'
import type { SaleRecord } from '../journal'
import type { CardPurpose } from './txn-types'

export class CounterReader {
  constructor(
    private readonly reader: CardReader,
    private readonly timeoutSeconds: number,
    private readonly logger: Logger,
  ) {}

  read(sale: Pick<SaleRecord, 'id' | 'amountMinor' | 'currency'>, purpose: CardPurpose): Promise<ReadCardResult> {
    const request = {
      amountMinor: sale.amountMinor,
      currency: sale.currency,
      // A credit needs no authorisation with the card: the reader reads it as it does for a void.
      purpose: purpose === 'return' ? ('void' as const) : purpose,
      timeoutSeconds: this.timeoutSeconds,
    }
    return this.reader.readCard(request).catch((error: unknown): ReadCardResult => {
      this.logger.warn({ sale: sale.id, err: error }, 'card reader threw')
      return { kind: 'failed', code: 'DEVICE_ERROR', message: 'the card reader had a problem' }
    })
  }

  /** Stops a card read in progress (a restart's recovery, a refused duplicate). */
  async cancel(id: string): Promise<void> {
    await this.reader.cancel().catch((error: unknown) => this.logger.warn({ sale: id, err: error }, 'could not cancel the reader'))
  }
}

/** Why no card came, in the cashier's words. */
export function readFailure(result: Exclude<ReadCardResult, { kind: 'card' }>): string {
  if (result.kind === 'cancelled') return 'cancelled at the counter'
  if (result.kind === 'timeout') return 'no card was presented in time'
  return result.message
}
