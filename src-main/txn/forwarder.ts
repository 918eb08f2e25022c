/**
 * The store-and-forward loop: drains the journal's queue through the same gateway client, in the
 * background, until the host acknowledges each item. Answers go back into the sale's state machine
 * and are journaled in batches (one disk sync per batch, every acknowledgement durable before the
 * item counts as done). A stored payment or a reversal is resent with the same body until answered:
 * the host de-duplicates by merchantTransID (docs/gateway.md §D3, §7), so resending is always safe.
 */
import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import type { HostClient } from '../gateway/gateway-client'
import type { GatewayOutcome } from '../gateway/outcome'
import type { OperationKind } from '../gateway/operations'
import type { ClaimedItem, JournalStore, QueueTotals, SaleChange } from '../journal'
import { afterFailedAttempt, type RetryPolicy } from './retry-policy'
import type { ForwardAnswer, QueuedOperation, TxnEvent } from './txn-types'

export interface QueueStatus extends QueueTotals {
  hostReachable: boolean | undefined
  lastAttemptAt: number | undefined
}

/**
 * Where a forwarded item's answer goes: the sale's state machine, journaled inside the forwarder's
 * batch transaction together with the queue item's settlement. False when the sale refuses the event
 * (it moved on meanwhile); the forwarder then settles the item itself.
 */
export interface QueueAnswerSink {
  applyQueueEvent(saleId: string, event: QueueEvent, settle: QueueSettlement): boolean
}

export type QueueEvent = Extract<TxnEvent, { type: 'forwardAnswered' | 'forwardGaveUp' }>
export type QueueSettlement = NonNullable<SaleChange['settleOutbox']>

export interface ForwarderDeps {
  journal: JournalStore
  host: HostClient
  sales: QueueAnswerSink
  retry: RetryPolicy
  logger: Logger
  now?: () => number
  random?: () => number
  /** Items sent at once. */
  concurrency?: number
  /** Longest sleep when nothing is due, so new items and clock changes are noticed. */
  idleMs?: number
}

type Settled = { item: ClaimedItem; outcome: GatewayOutcome }

export class Forwarder extends EventEmitter<{ status: [QueueStatus]; forwarded: [ClaimedItem]; attention: [ClaimedItem, string] }> {
  private running = false
  private wakeUp: (() => void) | undefined
  private loop: Promise<void> | undefined
  private hostReachable: boolean | undefined
  private lastAttemptAt: number | undefined
  private readonly now: () => number
  private readonly random: () => number

  constructor(private readonly deps: ForwarderDeps) {
    super()
    this.now = deps.now ?? Date.now
    this.random = deps.random ?? Math.random
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.loop = this.run()
  }

  async stop(): Promise<void> {
    this.running = false
    this.wake()
    await this.loop
  }

  /** Something was enqueued, or a manager pressed "forward now". */
  wake(): void {
    const wake = this.wakeUp
    this.wakeUp = undefined
    wake?.()
  }

  status(): QueueStatus {
    return { ...this.deps.journal.outbox.totals(), hostReachable: this.hostReachable, lastAttemptAt: this.lastAttemptAt }
  }

  /**
   * Drains what is due now; resolves when nothing due is left (tests, "forward now", benchmarks).
   * Items are claimed in batches, sent `concurrency` at a time, and the batch's answers are journaled
   * in one transaction: one disk sync per batch, each answer durable before its item counts as done.
   */
  async drainOnce(): Promise<number> {
    const concurrency = this.deps.concurrency ?? 16
    let total = 0
    for (;;) {
      const items = this.deps.journal.outbox.claimDue(concurrency * 4)
      if (items.length === 0) return total
      total += items.length
      const settled: Settled[] = []
      let next = 0
      await Promise.all(
        Array.from({ length: Math.min(concurrency, items.length) }, async () => {
          while (next < items.length) {
            const item = items[next++]!
            settled.push({ item, outcome: await this.send(item) })
          }
        }),
      )
      this.deps.journal.batch(() => settled.forEach((s) => this.settle(s)))
      this.emit('status', this.status())
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const sent = await this.drainOnce()
        if (sent > 0) continue
      } catch (error) {
        this.deps.logger.error({ err: error }, 'store-and-forward loop failed; retrying shortly')
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.idleMs ?? 1_000)
        this.wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }

  private async send(item: ClaimedItem): Promise<GatewayOutcome> {
    this.lastAttemptAt = this.now()
    const originalId = item.operation === 'payment' ? undefined : item.saleId
    return this.deps.host.sendUnchecked(item.operation as OperationKind, item.body, originalId)
  }

  /** One answer → the sale's machine and the queue, inside the caller's batch transaction. */
  private settle({ item, outcome }: Settled): void {
    const operation = item.operation as QueuedOperation
    if (outcome.kind === 'notDelivered' || outcome.kind === 'unknown') {
      this.hostReachable = outcome.kind === 'notDelivered' ? false : this.hostReachable
      const verdict = afterFailedAttempt(this.deps.retry, operation, item.attempts, item.createdAt, this.now(), this.random())
      if (verdict.retry) {
        this.deps.journal.outbox.retryLater(item.seq, verdict.at, `${outcome.kind}: ${outcome.reason}`)
        return
      }
      const reason = `${verdict.reason} (last: ${outcome.reason})`
      if (
        !this.deps.sales.applyQueueEvent(
          item.saleId,
          { type: 'forwardGaveUp', operation, reason },
          { seq: item.seq, result: 'attention', reason },
        )
      ) {
        this.deps.journal.outbox.toAttention(item.seq, reason)
      }
      this.emit('attention', item, reason)
      return
    }
    this.hostReachable = true
    const answer: ForwardAnswer =
      outcome.kind === 'approved'
        ? { kind: 'approved', authCode: outcome.authorizationCode }
        : outcome.kind === 'declined'
          ? { kind: 'declined', reason: outcome.reason }
          : { kind: 'rejected', code: outcome.code, message: outcome.message }
    const settle =
      answer.kind === 'rejected'
        ? ({ seq: item.seq, result: 'attention', reason: `${answer.code}: ${answer.message}` } as const)
        : ({ seq: item.seq, result: 'done' } as const)
    if (!this.deps.sales.applyQueueEvent(item.saleId, { type: 'forwardAnswered', operation, answer }, settle)) {
      // The sale moved on meanwhile (e.g. a newer tip replaced this one): the item is still answered.
      if (settle.result === 'done') this.deps.journal.outbox.complete(item.seq)
      else this.deps.journal.outbox.toAttention(item.seq, settle.reason)
    }
    if (settle.result === 'done') this.emit('forwarded', item)
    else this.emit('attention', item, settle.reason)
  }
}
