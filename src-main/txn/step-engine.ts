/**
 * The engine every flow runs on. A step commits one transition of the machine (txn-machine.ts)
 * through the write-ahead (write-ahead.ts: the state, its event, sealed card data and queue items in
 * one SQLite transaction) and only then runs the reader and host effects that transition asked for,
 * through the effect map. The sale (sale-flow.ts), the return (return-flow.ts) and what happens after
 * a sale (after-sale.ts) are peers over it: each brings the handlers of the effects it owns, and
 * txn-service.ts puts them in one map, so a flow never calls another flow's steps.
 *
 *   flow ──event──► step ──► writeAhead.commit (machine + journal, one commit) ──► effect map ──► flow
 */
import type { Logger } from 'pino'
import type { CounterLock } from './counter-lock'
import type { CardPurpose, IoEffect, TxnEvent } from './txn-types'
import type { Committed, StepInput, WriteAhead } from './write-ahead'

/** One handler per reader or host effect: a new effect in txn-types.ts without one does not compile. */
export type IoEffectHandlers = { readonly [K in IoEffect['type']]: (id: string, effect: Extract<IoEffect, { type: K }>) => Promise<void> }

/** One card read per purpose, each owned by its flow: a new purpose without one does not compile. */
export type CardReadHandlers = { readonly [P in CardPurpose]: (id: string) => Promise<void> }

export interface StepEngineDeps {
  writeAhead: WriteAhead
  lock: CounterLock
  logger: Logger
}

export class StepEngine {
  private effects: IoEffectHandlers | undefined

  constructor(private readonly deps: StepEngineDeps) {}

  /** The effect map, given once the flows that own the effects exist (txn-service.ts). */
  serve(effects: IoEffectHandlers): void {
    this.effects = effects
  }

  /** Journal the event's transition, then run the reader and host effects it asked for. */
  async step(id: string, event: TxnEvent, input: StepInput = {}): Promise<void> {
    const { writeAhead } = this.deps
    const committed = writeAhead.copiesFirst ? await this.commitAfterCopy(id, event, input) : writeAhead.commit(id, event, input)
    if (!committed.ok) throw committed.refusal
    await this.run(id, committed.io)
  }

  /**
   * With a store that must copy the queue first (docs/store.md), an offline approval waits for the
   * copy's acknowledgement; without it in time, nothing was written, and the machine decides what that
   * means for the sale (txn-machine.ts `storeCopyMissing`: not stored, so it needs the bank now).
   */
  private async commitAfterCopy(id: string, event: TxnEvent, input: StepInput): Promise<Committed> {
    const { writeAhead, logger } = this.deps
    const committed = await writeAhead.commitAfterCopy(id, event, input)
    if (committed.ok || !('copyMissing' in committed)) return committed
    logger.warn({ sale: id, event: event.type }, 'offline approval refused: the store server did not acknowledge the copy in time')
    return writeAhead.commit(id, { type: 'storeCopyMissing' }, input)
  }

  /** Runs effects after their commit, off the caller's path; a flow that fails gives the counter back. */
  continueInBackground(id: string, io: IoEffect[]): void {
    void this.run(id, io).catch((error: unknown) => {
      this.deps.logger.error({ sale: id, err: error }, 'flow failed')
      this.deps.lock.release(id)
    })
  }

  private async run(id: string, io: IoEffect[]): Promise<void> {
    for (const effect of io) await this.dispatch(id, effect)
  }

  private dispatch<E extends IoEffect>(id: string, effect: E): Promise<void> {
    if (!this.effects) throw new Error('the step engine has no effect map')
    return (this.effects[effect.type] as (id: string, effect: E) => Promise<void>)(id, effect)
  }
}
