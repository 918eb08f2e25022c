/**
 * The queue's copies at the store, kept from the journal (the truth). After every change of the
 * queue, and every half minute, one pass compares what the terminal still owes with the copies the
 * stream holds: a missing copy is sealed and published, a copy whose item the bank answered (or that
 * was withdrawn) is erased. A pass that fails is tried again with a growing pause, and while items
 * are owed without a copy, an alarm says so. Offline approvals do not wait for a pass: they publish
 * their own copy and wait for its acknowledgement (`confirm`).
 */
import type { Logger } from 'pino'
import type { CopyKey, QueueCopy, QueueReplica } from './queue-replica'
import type { CopySealer } from './sealed-copy'
import type { StoreConnection } from './store-connection'
import { copyMessageId, copySubject } from './store-names'

/** An item the journal still owes the bank, as the sync needs it. */
export interface OwedItem extends CopyKey {
  seq: number
}

/** The journal's side: what is owed, and an item's full copy (its body opened) when it must be published. */
export interface OwedQueue {
  owed(): OwedItem[]
  copyOf(item: OwedItem): QueueCopy | undefined
}

export interface ReplicaSyncOptions {
  connection: StoreConnection
  sealer: CopySealer
  storeId: string
  terminalId: string
  required: boolean
  ackTimeoutMs: number
  logger: Logger
  /** A full pass even when nothing changed, to catch copies the stream aged out. */
  periodMs?: number
}

export interface ReplicaState {
  /** Items owed whose copy is not (known to be) at the store. */
  uncopied: number
  /** When the last pass failed, and why; undefined after a pass that succeeded. */
  failingSince: number | undefined
  lastError: string | undefined
  fenced: boolean
}

/**
 * No stream took the publish: the store server is new, or lost its store. nats.js says so as
 * "jetstream is not enabled" with "no responders" as its cause, or "stream not found".
 */
function isNoStream(error: unknown): boolean {
  for (let at: unknown = error; at instanceof Error; at = at.cause) {
    const code = (at as { code?: unknown }).code
    if (/no responders|jetstream is not enabled|503|stream not found/i.test(`${at.name} ${at.message} ${String(code ?? '')}`)) return true
  }
  return false
}

/** A copy confirmed for a sale still being journaled is not erased by a pass that runs meanwhile. */
const CONFIRM_GRACE_MS = 30_000
const MAX_BACKOFF_MS = 30_000
/**
 * A sale changes state several times in a second: one pass for all of them. An offline approval
 * does not wait for it (it confirms its own copy), so only a reversal's or a follow-up's copy, and an
 * erasure, come this much later.
 */
const CHANGE_DEBOUNCE_MS = 200
/** What the publish race gives when the client reconnected before the copy's answer came. */
const RECONNECTED = Symbol('reconnected')

export class ReplicaSync implements QueueReplica {
  readonly required: boolean
  private queue: OwedQueue | undefined
  private readonly confirming = new Map<string, number>()
  private readonly discarded = new Set<string>()
  /** Subjects known to hold a copy, as of the last listing, publication or erasure. */
  private readonly known = new Set<string>()
  private readonly subjects = new Map<string, string>()
  private listed = false
  private lastListing = 0
  private timer: NodeJS.Timeout | undefined
  private dueAt = 0
  private running: Promise<void> | undefined
  private again = false
  private failures = 0
  private stopped = false
  private fenced = false
  private readonly state: ReplicaState = { uncopied: 0, failingSince: undefined, lastError: undefined, fenced: false }

  constructor(private readonly options: ReplicaSyncOptions) {
    this.required = options.required
  }

  /** Starts keeping copies of `queue` (the engine's journal). */
  attach(queue: OwedQueue): void {
    this.queue = queue
    // The first offline approval finds its copy's sealing ready.
    if (this.options.required) this.options.sealer.prepareAhead()
    this.schedule(0)
  }

  /** This terminal's queue was rescued: no more copies, no more confirmations. */
  fence(): void {
    this.fenced = true
    this.state.fenced = true
  }

  status(): ReplicaState {
    return { ...this.state }
  }

  async confirm(copies: QueueCopy[]): Promise<boolean> {
    if (this.fenced || this.stopped) return false
    const { ackTimeoutMs } = this.options
    const deadline = Date.now() + ackTimeoutMs
    const subjects = copies.map((copy) => this.subjectOf(copy))
    subjects.forEach((subject) => this.confirming.set(subject, Date.now() + CONFIRM_GRACE_MS))
    try {
      await Promise.all(copies.map((copy, i) => this.publish(copy, subjects[i]!, deadline)))
      subjects.forEach((subject) => this.known.add(subject))
      return true
    } catch (error) {
      this.options.logger.warn({ err: error, items: copies.length }, 'the store server did not acknowledge a copy in time')
      // It may have stored it all the same (an acknowledgement lost): the sale is not approved, so the copy goes.
      this.discard(copies)
      return false
    } finally {
      this.options.sealer.prepareAhead()
    }
  }

  /** The confirmed copies' items are in the journal now: the next pass keeps them as owed. */
  journaled(keys: CopyKey[]): void {
    for (const key of keys) this.confirming.delete(this.subjectOf(key))
  }

  /**
   * Publishes until the stream acknowledges or the deadline passes. A publish sent while the client
   * reconnects can lose its answer; sending it again is safe, the stream keeps one copy per item
   * (Nats-Msg-Id within the duplicate window, one message per subject beyond it).
   */
  private async publish(copy: QueueCopy, subject: string, deadline: number): Promise<void> {
    const { connection, sealer, ackTimeoutMs } = this.options
    const sealed = await sealer.seal(copy, subject)
    const attemptMs = Math.max(200, Math.floor(ackTimeoutMs / 3))
    for (;;) {
      const left = deadline - Date.now()
      if (left <= 0) throw new Error('the store server did not acknowledge the copy in time')
      let resend: () => void = () => undefined
      const reconnected = new Promise<typeof RECONNECTED>((resolve) => (resend = () => resolve(RECONNECTED)))
      const stopListening = connection.onReconnect(resend)
      try {
        const js = await connection.jetstream(left)
        const published = js.publish(subject, sealed, {
          msgID: copyMessageId(copy.terminalId, copy.operation, copy.messageId),
          timeout: Math.min(left, attemptMs),
          expect: { streamName: connection.streamName },
        })
        // Its answer is lost if the server went away under it: sent again as soon as the client is back.
        if ((await Promise.race([published, reconnected])) !== RECONNECTED) return
        published.catch(() => undefined)
        this.options.logger.debug({ subject }, 'the store server came back under a copy: sending it again')
      } catch (error) {
        // A closed connection (the terminal quits) sends nothing more: the pass ends now, not at its deadline.
        if (deadline - Date.now() <= 0 || connection.isClosed) throw error
        this.options.logger.debug({ err: error, subject }, 'a copy was not acknowledged: sending it again')
        // No stream answered: made on first use (the store server may be new, or its store lost).
        if (isNoStream(error))
          await connection
            .ensureStream(Math.max(1, deadline - Date.now()), true)
            .catch((failed: unknown) => this.options.logger.debug({ err: failed }, 'the queue stream could not be made yet'))
        else await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(0, deadline - Date.now()))))
      } finally {
        stopListening()
      }
    }
  }

  discard(keys: CopyKey[]): void {
    for (const key of keys) {
      const subject = this.subjectOf(key)
      this.confirming.delete(subject)
      this.discarded.add(subject)
    }
    this.queueChanged()
  }

  queueChanged(): void {
    this.schedule(CHANGE_DEBOUNCE_MS)
  }

  /** Runs one pass now and resolves when it ended (tests, `rescue` checks, shutdown). */
  async syncNow(): Promise<ReplicaState> {
    while (this.running) await this.running
    await this.pass()
    return this.status()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    this.timer = undefined
    await this.running
  }

  private schedule(ms: number): void {
    if (this.stopped || !this.queue) return
    if (this.running) {
      this.again = true
      return
    }
    // A pass already due sooner stays as it is: a busy counter never postpones its copies.
    if (this.timer !== undefined && this.dueAt <= Date.now() + ms) return
    clearTimeout(this.timer)
    this.dueAt = Date.now() + ms
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.running = this.pass().finally(() => {
        this.running = undefined
        const retry = this.failures > 0 ? Math.min(MAX_BACKOFF_MS, 500 * 2 ** (this.failures - 1)) : undefined
        if (this.again) {
          this.again = false
          this.schedule(retry ?? CHANGE_DEBOUNCE_MS)
        } else this.schedule(retry ?? this.options.periodMs ?? 30_000)
      })
    }, ms)
  }

  private async pass(): Promise<void> {
    const queue = this.queue
    if (!queue || this.stopped || this.fenced) return
    const { connection, terminalId, ackTimeoutMs, logger } = this.options
    let wanted = new Map<string, OwedItem>()
    try {
      // The store's own listing on the periodic pass and after a failure; in between, what this
      // terminal knows it published and erased (a listing grows with the queue, a change does not).
      const full = this.listed === false || Date.now() - this.lastListing >= (this.options.periodMs ?? 30_000)
      if (full) {
        const listed = await connection.copySubjects(terminalId, ackTimeoutMs * 2)
        this.known.clear()
        listed.forEach((subject) => this.known.add(subject))
        this.listed = true
        this.lastListing = Date.now()
      }
      const present = new Set(this.known)
      // Read after the listing: a copy confirmed meanwhile is either journaled by now (owed) or still confirming.
      wanted = new Map(queue.owed().map((item) => [this.subjectOf(item), item]))
      const missing = [...wanted].filter(([subject]) => !present.has(subject))
      for (const subject of wanted.keys()) this.confirming.delete(subject)
      this.state.uncopied = missing.length
      for (const [subject, item] of missing) {
        const copy = queue.copyOf(item)
        if (!copy) continue
        await this.publish(copy, subject, Date.now() + ackTimeoutMs * 2)
        this.known.add(subject)
        this.state.uncopied--
      }
      const now = Date.now()
      for (const [subject, until] of this.confirming) if (until < now) this.confirming.delete(subject)
      for (const subject of present) {
        if (wanted.has(subject) || (this.confirming.has(subject) && !this.discarded.has(subject))) continue
        await connection.erase(subject, ackTimeoutMs * 2)
        this.known.delete(subject)
        this.discarded.delete(subject)
      }
      // Subjects are remembered for what is still owed or confirming only.
      if (this.subjects.size > 2 * wanted.size + this.confirming.size + 64) this.subjects.clear()
      this.failures = 0
      this.state.failingSince = undefined
      this.state.lastError = undefined
    } catch (error) {
      this.listed = false
      this.failures++
      this.state.failingSince ??= Date.now()
      this.state.lastError = error instanceof Error ? error.message : String(error)
      // The queue itself may be what failed (a journal closing): the count then stays as it was.
      const owed = wanted.size > 0 ? wanted : this.owedOrUnknown(queue)
      if (owed) this.state.uncopied = [...owed.keys()].filter((subject) => !this.known.has(subject)).length
      wanted = owed ?? wanted
      logger.warn({ err: error, owed: wanted.size, uncopied: this.state.uncopied }, 'the queue copies could not be brought up to date')
    }
  }

  private owedOrUnknown(queue: OwedQueue): Map<string, OwedItem> | undefined {
    try {
      return new Map(queue.owed().map((item) => [this.subjectOf(item), item]))
    } catch {
      return undefined
    }
  }

  /**
   * An item's subject, remembered: every pass names every owed item (up to `offline.maxStoredCount`
   * and the reversals), and escaping each token again each time is most of a pass's work.
   */
  private subjectOf(key: CopyKey): string {
    const id = `${key.operation} ${key.messageId}`
    let subject = this.subjects.get(id)
    if (subject === undefined) {
      subject = copySubject(this.options.storeId, this.options.terminalId, key.operation, key.messageId)
      this.subjects.set(id, subject)
    }
    return subject
  }
}
