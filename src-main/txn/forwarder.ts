/**
 * The store-and-forward loop: drains the journal's queue through the same gateway client, in the
 * background, until the host acknowledges each item. Several items are at the host at once (items of
 * one sale in order); answers go back into the sale's state machine and are journaled in groups (one
 * disk sync per group, every acknowledgement durable before the item counts as done; send-window.ts). A stored payment or a reversal is resent with the same body until answered:
 * the host de-duplicates by merchantTransID (docs/gateway.md §D3, §7), so resending is always safe.
 *
 * While the bank cannot be reached, the queue does not try it again for every new item (each try
 * costs two disk syncs beside the counter's sales): an outage is probed with one item at a time, on
 * the retry policy's backoff, and ends at once when the probe, a sale of the counter, or a manager's
 * "forward now" reaches the bank; then every waiting item goes (docs/transactions.md, "Store-and-forward").
 */
import { EventEmitter } from 'node:events'
import type { Logger } from 'pino'
import { answerOf, NOT_ANSWERED_WORDS, GATEWAY_OPERATIONS, type GatewayOutcome, type HostClient } from '../gateway'
import type { ClaimedItem, JournalStore, OutboxItem, QueueTotals, SaleChange } from '../journal'
import { PosError } from '../../src-shared/pos-error'
import { afterFailedAttempt, maxAgeHoursOf, nextDelayMs, type RetryPolicy } from './retry-policy'
import { QUEUE_OPERATIONS, type QueueFailure, type SaleState } from '../../src-shared/sale'
import type { TxnEvent } from './txn-types'
import { runSendWindow, type Answered } from './send-window'
import { HostReach, reachedBank } from './host-reach'

/**
 * A drain tells the queue's totals at most this often: they are counted over the whole queue (a
 * 10,000-item backlog made that count 15% of a drain's time when told every four windows), and a
 * screen or a scrape needs no more than one a second.
 */
const STATUS_EVERY_MS = 1_000

/** The queue failure a message that did not go through records (screens and the API read the kind). */
const FAILURE_OF: Readonly<Record<'notDelivered' | 'unknown', QueueFailure>> = {
  notDelivered: 'bankUnreachable',
  unknown: 'noAnswer',
}

/** A queued message that needs a manager: why, and the technical detail for the log. */
export interface QueueAttention {
  failure: QueueFailure
  detail: string
}

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
  /** The sale's state after the answer, or undefined when the sale refused it. */
  applyQueueEvent(saleId: string, event: QueueEvent, settle: QueueSettlement): SaleState | undefined
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
  /** Items at the host at once (the window; 16 when unset). */
  concurrency?: number
  /** Longest sleep when nothing is due, so new items and clock changes are noticed. */
  idleMs?: number
  /**
   * Why this terminal must no longer forward its queue (a rescue took it, docs/store.md), in plain
   * words; undefined while it may. Read at every claim: while it is set, only reversals and cancels go out.
   */
  halted?: () => string | undefined
  /** Whether the bank answered last, shared with the sales' own calls (its own when unset). */
  reach?: HostReach
}

export class Forwarder extends EventEmitter<{ status: [QueueStatus]; forwarded: [ClaimedItem]; attention: [ClaimedItem, QueueAttention] }> {
  private running = false
  /** Claimed items whose release failed (the journal refused the write): released at the next drain. */
  private stranded: number[] = []
  /** When a drain last told the queue's totals (performance.now()). */
  private statusToldAt = -Infinity
  private wakeUp: (() => void) | undefined
  private loop: Promise<void> | undefined
  private readonly reach: HostReach
  private lastAttemptAt: number | undefined
  /** The bank could not be reached: when it is probed next, and how many probes failed in a row. */
  private outage: { probeAt: number; failedProbes: number } | undefined
  private readonly now: () => number
  private readonly random: () => number

  constructor(private readonly deps: ForwarderDeps) {
    super()
    this.now = deps.now ?? Date.now
    this.random = deps.random ?? Math.random
    this.reach = deps.reach ?? new HostReach()
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.loop = this.run()
  }

  async stop(): Promise<void> {
    this.running = false
    this.interrupt()
    await this.loop
  }

  /**
   * A manager's "forward now": every waiting item is due at once, whatever its backoff said (after an
   * outage nobody should wait minutes for a timer), then the queue is drained. Items of one sale still
   * go in order. Resolves with how many items were sent.
   */
  async forwardNow(): Promise<number> {
    this.deps.journal.outbox.makeAllDue()
    this.outage = undefined
    const sent = await this.drainOnce()
    // A fenced terminal sent its reversals and cancels; the rest belongs to the rescue, and the manager is told why.
    const halted = this.deps.halted?.()
    if (halted !== undefined) throw new PosError('QUEUE_RESCUED', halted)
    return sent
  }

  /** Something was enqueued: sent now, or with the next probe while the bank cannot be reached. */
  wake(): void {
    if (this.untilProbeMs() === 0) this.interrupt()
  }

  /** The bank answered someone else (a sale of the counter): an outage is over, the queue goes now. */
  bankAnswered(): void {
    if (this.outage === undefined) return
    this.endOutage()
    this.interrupt()
  }

  /**
   * The bank is back: what waited out the outage on its own backoff goes now, as after a manager's
   * "forward now", rather than minutes later (their waits grew while the bank was away).
   */
  private endOutage(): void {
    this.outage = undefined
    try {
      this.deps.journal.outbox.makeAllDue()
    } catch (error) {
      this.deps.logger.error(
        { err: error },
        'waiting queue items could not be made due after the bank came back; they go on their own backoff',
      )
    }
  }

  private interrupt(): void {
    const wake = this.wakeUp
    this.wakeUp = undefined
    wake?.()
  }

  private untilProbeMs(): number {
    return this.outage === undefined ? 0 : Math.max(0, this.outage.probeAt - this.now())
  }

  status(): QueueStatus {
    return { ...this.deps.journal.outbox.totals(), hostReachable: this.reach.reachable, lastAttemptAt: this.lastAttemptAt }
  }

  /** What waits in the queue, in sending order (at most 500): the queue panel's list. */
  waiting(): OutboxItem[] {
    return this.deps.journal.outbox.waiting()
  }

  /** Queued items sealed under a data key the keychain no longer holds: they wait for that key to be restored. */
  lockedCount(): number {
    return this.deps.journal.outbox.lockedCount()
  }

  /**
   * Drains what is due now; resolves when nothing due is left and nothing is out (tests, "forward
   * now", benchmarks). Up to `concurrency` items are at the host at once, items of one sale one after
   * the other; the answers that come back together are journaled in one transaction with the claim of
   * the next items (send-window.ts): one disk sync per group, each answer durable before its item
   * counts as done, each attempt counted durably before it goes out.
   */
  async drainOnce(): Promise<number> {
    // During an outage one item goes first, alone: the rest follow once the bank has answered it.
    const probing = this.outage !== undefined
    const fencedAtStart = this.undoingOnly()
    const size = probing ? 1 : Math.max(1, this.deps.concurrency ?? 16)
    this.putBack([])
    let unannounced = 0
    let dispatched = 0
    const seen = { reached: false, unreachable: false }
    const { sent, unjournaled, unsent, failure } = await runSendWindow({
      size,
      ...(probing ? { claimAhead: 1 } : {}),
      send: async (item) => {
        dispatched++
        const outcome = await this.send(item)
        const reached = reachedBank(outcome)
        if (reached === false) seen.unreachable = true
        else if (reached === true) seen.reached = true
        return outcome
      },
      commit: (answers, room) => this.journalGroup(answers, room),
      // Once the bank could not be reached and nothing reached it, nothing more is sent: what is claimed goes back.
      // A fence that appears meanwhile ends the drain: what it claimed ahead goes back unsent, and the
      // next drain claims only what undoes.
      mayClaim: () => this.undoingOnly() === fencedAtStart && (probing ? dispatched === 0 : seen.reached || !seen.unreachable),
      journaled: (count) => {
        // The queue's totals are counted over the whole queue and read by every listener: told once
        // per few windows' worth and at most every STATUS_EVERY_MS during a drain, and at the end.
        // (The journal's checkpoints and the store's copies also hear of each settled answer through
        // its sale's update, compose.ts and store-wiring.ts.)
        unannounced += count
        if (unannounced < size * 4 || performance.now() - this.statusToldAt < STATUS_EVERY_MS) return
        unannounced = 0
        this.statusToldAt = performance.now()
        this.emit('status', this.status())
      },
    })
    // Answers that could not be journaled (a full disk, a client that threw) go back to waiting:
    // resending the same messages is safe, the host de-duplicates them by id.
    this.putBack(unjournaled, unsent)
    if (dispatched > 0) this.noteReachability(seen)
    if (failure !== undefined) throw failure.error
    if (unannounced > 0) this.emit('status', this.status())
    return sent
  }

  /**
   * After a drain that sent something: an outage ends when an item reached the bank; it begins when
   * one could not reach it and none did, and goes on (the next probe on the retry policy's backoff)
   * when none reached it. A drain with nothing due leaves it as it is: the next item, new or due
   * again, is the probe.
   */
  private noteReachability(seen: { reached: boolean; unreachable: boolean }): void {
    if (seen.reached) {
      if (this.outage !== undefined) this.endOutage()
      return
    }
    // Answers lost on the way (or refused before leaving) say nothing of the bank: no outage begins,
    // and one under way goes on, its next probe later.
    if (!seen.unreachable && this.outage === undefined) return
    const failedProbes = (this.outage?.failedProbes ?? 0) + 1
    this.outage = { failedProbes, probeAt: this.now() + nextDelayMs(this.deps.retry, failedProbes, this.random()) }
    this.giveUpAged()
  }

  /**
   * During an outage one item is tried per probe, so an item past its age limit could wait long for
   * the try that would send it to a manager. Each sale's first waiting item past its limit is given up
   * now, as a failed try would: the bank was just found unreachable again. Later items of its sale
   * wait behind it, as after any give-up, for a manager's retry.
   */
  private giveUpAged(): void {
    const { journal, retry } = this.deps
    const now = this.now()
    const limits = QUEUE_OPERATIONS.map((operation) => maxAgeHoursOf(retry, operation))
    try {
      const aged = journal.outbox
        .agedHeads(now - Math.min(...limits) * 3_600_000)
        .filter((item) => now - item.createdAt >= maxAgeHoursOf(retry, item.operation) * 3_600_000)
      if (aged.length === 0) return
      journal.batch(() => {
        for (const item of aged) {
          const verdict = afterFailedAttempt(retry, item.operation, item.attempts, item.createdAt, now, 0)
          if (!verdict.retry)
            this.giveUp({ ...item, body: undefined }, 'notDelivered', verdict.reason, 'the bank could not be reached during an outage')
        }
      })
    } catch (error) {
      this.deps.logger.error({ err: error }, 'queue items past their age limit could not be given up; the next probe tries again')
    }
  }

  /**
   * Once a rescue took this terminal's queue (docs/store.md), the rescue sends its payments, credits,
   * tips and captures, and this terminal only what undoes a payment: its reversals and its voids'
   * cancels. Either only ever undoes, the bank answers a repeat with its first answer (host contract
   * §3), and one decided after the store was last reached (a void while cut off from it, or just
   * before the terminal died) may be at the store nowhere for the rescue to send. Read at every
   * claim, so a fence that appears during a drain stops the rest at once.
   */
  private undoingOnly(): boolean {
    return this.deps.halted?.() !== undefined
  }

  /**
   * One group: its answers settled and the next items claimed, in one transaction. All or nothing:
   * an answer that cannot be journaled fails the group, whose items are then put back and sent
   * again, so the steps inside take no savepoints ('whole', database.ts).
   */
  private journalGroup(answers: Answered[], room: number): ClaimedItem[] {
    const { journal } = this.deps
    if (answers.length === 0) return journal.outbox.claimDue(room, this.undoingOnly())
    return journal.batch(
      () => {
        answers.forEach((answered) => this.settle(answered))
        return room > 0 ? journal.outbox.claimDue(room, this.undoingOnly()) : []
      },
      'durable',
      'whole',
    )
  }

  /**
   * Claimed items back to waiting; those never sent get their counted attempt back. What the journal
   * cannot take back now is retried at the next drain (then as sent: an attempt too many, never too few).
   */
  private putBack(seqs: number[], notSent: number[] = []): void {
    const all = [...this.stranded, ...seqs]
    if (all.length === 0 && notSent.length === 0) return
    try {
      this.deps.journal.outbox.release(all, notSent)
      this.stranded = []
    } catch (error) {
      this.stranded = [...all, ...notSent]
      this.deps.logger.error(
        { err: error, items: this.stranded.length },
        'queue items could not be put back to waiting; retrying at the next drain',
      )
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      const untilProbe = this.untilProbeMs()
      if (untilProbe === 0) {
        try {
          const sent = await this.drainOnce()
          if (sent > 0 && this.outage === undefined) continue
        } catch (error) {
          this.deps.logger.error({ err: error }, 'store-and-forward loop failed; retrying shortly')
        }
      }
      // The probe's time come and nothing due to send, the loop idles like any other: a new item wakes it.
      const idleMs = this.deps.idleMs ?? 1_000
      const untilNextProbe = this.untilProbeMs()
      const sleepMs = untilNextProbe > 0 ? Math.min(untilNextProbe, idleMs) : idleMs
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, sleepMs)
        this.wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  }

  private async send(item: ClaimedItem): Promise<GatewayOutcome> {
    this.lastAttemptAt = this.now()
    // A follow-up names its sale in the path; a payment or a return's credit carries its own id only.
    const originalId = GATEWAY_OPERATIONS[item.operation].takesOriginalId ? item.saleId : undefined
    return this.deps.host.sendUnchecked(item.operation, item.body, originalId)
  }

  /** An item the queue stops trying: to the sale's machine and a manager, with why in their words. */
  private giveUp(item: ClaimedItem, last: 'notDelivered' | 'unknown', why: string, lastReason: string): void {
    // The sale says why in a manager's words; the queue item keeps the technical cause for the log.
    const saleReason = `${why}: ${NOT_ANSWERED_WORDS[last]}`
    const technical = `${why} (last: ${last}: ${lastReason})`
    if (
      this.deps.sales.applyQueueEvent(
        item.saleId,
        { type: 'forwardGaveUp', operation: item.operation, reason: saleReason },
        { seq: item.seq, result: 'attention', failure: FAILURE_OF[last], reason: technical },
      ) === undefined
    ) {
      this.deps.journal.outbox.toAttention(item.seq, FAILURE_OF[last], technical)
    }
    this.deps.journal.afterCommit(() => this.emit('attention', item, { failure: FAILURE_OF[last], detail: technical }))
  }

  /** One answer → the sale's machine and the queue, inside the caller's batch transaction. */
  private settle({ item, outcome }: Answered): void {
    const operation = item.operation
    this.reach.note(outcome)
    const answer = answerOf(outcome)
    if (answer.kind === 'notDelivered' || answer.kind === 'unknown') {
      const verdict = afterFailedAttempt(this.deps.retry, operation, item.attempts, item.createdAt, this.now(), this.random())
      if (verdict.retry) {
        this.deps.journal.outbox.retryLater(item.seq, verdict.at, FAILURE_OF[answer.kind], `${answer.kind}: ${answer.reason}`)
        return
      }
      this.giveUp(item, answer.kind, verdict.reason, answer.reason)
      return
    }
    const settle =
      answer.kind === 'rejected'
        ? ({ seq: item.seq, result: 'attention', failure: 'refused', reason: `${answer.code}: ${answer.message}` } as const)
        : answer.kind === 'declined'
          ? // should the sale keep it for a manager (a stored payment declined), this is why
            ({ seq: item.seq, result: 'done', failure: 'declined' } as const)
          : ({ seq: item.seq, result: 'done' } as const)
    const state = this.deps.sales.applyQueueEvent(item.saleId, { type: 'forwardAnswered', operation, answer }, settle)
    if (state === undefined) {
      // The sale moved on meanwhile (e.g. a newer tip replaced this one): the item is still answered.
      if (settle.result === 'done') this.deps.journal.outbox.complete(item.seq)
      else this.deps.journal.outbox.toAttention(item.seq, settle.failure, settle.reason)
    }
    // An answer the host gave but the sale cannot live with (a stored payment, a reversal or a capture
    // declined) needs a manager: it raises the same alarm (a refused reversal or capture is also parked
    // by the sale, for a retry).
    // Announced once the batch this answer is journaled in commits (never for one that rolls back).
    this.deps.journal.afterCommit(() => {
      if (settle.result === 'attention') this.emit('attention', item, { failure: settle.failure, detail: settle.reason })
      else if (state === 'needsAttention')
        this.emit('attention', item, {
          failure: settle.failure ?? 'refused',
          detail: answer.kind === 'declined' ? `declined by the bank: ${answer.reason}` : 'needs a manager',
        })
      else this.emit('forwarded', item)
    })
  }
}
