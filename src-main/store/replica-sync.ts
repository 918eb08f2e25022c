/**
 * The queue's copies at the store, kept from the journal (the truth). After every change of the
 * queue, and every half minute, one pass compares what the terminal still owes with the copies the
 * stream holds: a missing copy is sealed and published, a copy whose item the bank answered (or that
 * was withdrawn) is erased. A pass that fails is tried again with a growing pause, and while items
 * are owed without a copy, an alarm says so. Offline approvals do not wait for a pass: they publish
 * their own copy and wait for its acknowledgement (`confirm`).
 *
 * Once the terminal is fenced (a rescue took its queue) nothing more is published: the fence is
 * watched, and read again at the store before every pass that would publish, and before the first
 * copy after the connection came back (a lane cut off while the rescue ran learns of it then). A
 * void's withdrawal reads it after its tombstone is in: acknowledged with no fence at that moment,
 * the tombstone is at the store before any rescue can read the stream.
 */
import type { Logger } from 'pino'
import type { CopyKey, CopyRecord, QueueCopy, QueueReplica, QueueTombstone } from './queue-replica'
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
  /** Seals with this terminal's enrolled copy key; undefined when it is not enrolled (nothing is published). */
  sealer: CopySealer | undefined
  storeId: string
  terminalId: string
  required: boolean
  ackTimeoutMs: number
  logger: Logger
  /**
   * Reads this terminal's fence at the store now (a direct get of its key): true when it is fenced.
   * Without it, only `fence()` fences.
   */
  fenceAtStore?: ((ms: number) => Promise<boolean>) | undefined
  /**
   * With `store.requireDurable`: whether the store's copy is `synced` now (durability.ts), read
   * within `ms` when it is not known yet. An offline approval whose copy would only be buffered is
   * refused before anything is published. Without it, any acknowledged copy will do.
   */
  durableEnough?: ((ms: number) => Promise<boolean>) | undefined
  /** A full pass even when nothing changed, to catch copies the stream aged out. */
  periodMs?: number
  /** The clock (ms since the epoch). */
  now?: () => number
}

export interface ReplicaState {
  /** Items owed whose copy is not (known to be) at the store. */
  uncopied: number
  /** When the last pass failed, and why; undefined after a pass that succeeded. */
  failingSince: number | undefined
  lastError: string | undefined
  fenced: boolean
  /** This terminal has no enrolled copy key: it publishes no copy. */
  enrolled: boolean
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
  /** Items whose tombstone was published: a pass never publishes their copy over it. */
  private readonly withdrawing = new Map<string, number>()
  /**
   * Subjects whose record at the store is a tombstone, not a copy: an item the journal still owes
   * there (its void was refused after the store took the withdrawal) gets its copy published again.
   */
  private readonly tombstoned = new Set<string>()
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
  /**
   * The fence was read at the store since the connection was last (re)made and showed none. Until
   * it is, a copy reads it first: the watch may not have caught up with what happened meanwhile.
   */
  private fenceRead = false
  private readonly state: ReplicaState
  private readonly now: () => number
  private readonly stopListening: () => void

  constructor(private readonly options: ReplicaSyncOptions) {
    this.required = options.required
    this.now = options.now ?? Date.now
    this.state = { uncopied: 0, failingSince: undefined, lastError: undefined, fenced: false, enrolled: options.sealer !== undefined }
    this.stopListening = options.connection.onReconnect(() => (this.fenceRead = false))
  }

  /** Starts keeping copies of `queue` (the engine's journal). */
  attach(queue: OwedQueue): void {
    this.queue = queue
    // The first offline approval finds its copy's sealing ready.
    if (this.options.required) this.options.sealer?.prepareAhead()
    this.schedule(0)
  }

  /** This terminal's queue was rescued: no more copies, no more confirmations, no more withdrawals. */
  fence(): void {
    this.fenced = true
    this.state.fenced = true
    clearTimeout(this.timer)
    this.timer = undefined
  }

  status(): ReplicaState {
    return { ...this.state }
  }

  /**
   * Whether the terminal is fenced, read at the store when `always` or when it was not read since the
   * connection was last made. A fence found fences this sync at once.
   */
  private async fencedNow(ms: number, always: boolean): Promise<boolean> {
    if (this.fenced) return true
    const read = this.options.fenceAtStore
    if (!read || (!always && this.fenceRead)) return false
    // Cleared by a reconnect while the read was under way: that read does not count.
    let current = true
    const stopListening = this.options.connection.onReconnect(() => (current = false))
    try {
      if (await read(Math.max(1, ms))) {
        this.fence()
        return true
      }
      if (current) this.fenceRead = true
      return this.fenced
    } finally {
      stopListening()
    }
  }

  async confirm(copies: QueueCopy[]): Promise<boolean> {
    if (this.fenced || this.stopped || !this.options.sealer) return false
    const { ackTimeoutMs } = this.options
    const deadline = this.now() + ackTimeoutMs
    const subjects = copies.map((copy) => this.subjectOf(copy))
    subjects.forEach((subject) => this.confirming.set(subject, this.now() + CONFIRM_GRACE_MS))
    try {
      const durable = this.options.durableEnough
      if (durable && !(await durable(Math.max(1, deadline - this.now())))) {
        subjects.forEach((subject) => this.confirming.delete(subject))
        this.options.logger.warn(
          'an offline approval was refused: this store requires a synced copy (store.requireDurable), and its copy is not',
        )
        return false
      }
      if (await this.fencedNow(deadline - this.now(), false)) {
        subjects.forEach((subject) => this.confirming.delete(subject))
        return false
      }
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

  /**
   * Tombstones for items the terminal withdraws (a void of a stored payment that never left it),
   * each on its item's subject, where it replaces the copy. True only when every one is acknowledged
   * and, read after that, no fence is at the store: a rescue fences before it reads the stream, so it
   * then finds the tombstones, not the copies. False when fenced, not enrolled, or not acknowledged in
   * time: the item must then go to the bank as a reversal.
   */
  async withdraw(tombstones: QueueTombstone[]): Promise<boolean> {
    if (this.fenced || this.stopped || !this.options.sealer) return false
    if (tombstones.length === 0) return true
    const deadline = this.now() + this.options.ackTimeoutMs
    const subjects = tombstones.map((tombstone) => this.subjectOf(tombstone))
    subjects.forEach((subject) => this.withdrawing.set(subject, this.now() + CONFIRM_GRACE_MS))
    try {
      await Promise.all(tombstones.map((tombstone, i) => this.publish(tombstone, subjects[i]!, deadline)))
      subjects.forEach((subject) => {
        this.known.add(subject)
        this.tombstoned.add(subject)
      })
      return !(await this.fencedNow(deadline - this.now(), true))
    } catch (error) {
      this.options.logger.warn({ err: error, items: tombstones.length }, 'the store server did not acknowledge a withdrawal in time')
      return false
    } finally {
      this.options.sealer.prepareAhead()
    }
  }

  /**
   * The void that asked for these withdrawals is journaled, or was refused: the tombstones no longer
   * stand in for what the journal says, and the next pass brings the store to it (a copy again for an
   * item still owed, an erasure for one withdrawn).
   */
  withdrawalSettled(keys: CopyKey[]): void {
    for (const key of keys) this.withdrawing.delete(this.subjectOf(key))
    this.queueChanged()
  }

  /** The confirmed copies' items are in the journal now: the next pass keeps them as owed. */
  journaled(keys: CopyKey[]): void {
    for (const key of keys) this.confirming.delete(this.subjectOf(key))
  }

  /**
   * Publishes until the stream acknowledges or the deadline passes. A publish sent while the client
   * reconnects can lose its answer; sending it again is safe, the stream keeps one record per item
   * (Nats-Msg-Id within the duplicate window, one message per subject beyond it). Nothing is handed
   * to a client that is reconnecting: it would keep it and write it long after this wait ended.
   */
  private async publish(record: CopyRecord, subject: string, deadline: number): Promise<void> {
    const { connection, sealer, ackTimeoutMs } = this.options
    if (!sealer) throw new Error('this terminal is not enrolled with the store server')
    const sealed = await sealer.seal(record, subject)
    const attemptMs = Math.max(200, Math.floor(ackTimeoutMs / 3))
    // A tombstone is another record than the copy it replaces: its own id, or the stream would drop it as a repeat.
    const msgID = `${copyMessageId(record.terminalId, record.operation, record.messageId)}${record.kind === 'withdrawn' ? ':withdrawn' : ''}`
    for (;;) {
      const left = deadline - this.now()
      if (left <= 0 || connection.isClosed) throw new Error('the store server did not acknowledge the copy in time')
      let resend: () => void = () => undefined
      const reconnected = new Promise<typeof RECONNECTED>((resolve) => (resend = () => resolve(RECONNECTED)))
      const stopListening = connection.onReconnect(resend)
      try {
        if (!connection.isConnected) {
          // Back before the deadline: sent then (after the fence is read again, for a copy).
          await connection.whenConnected(Math.min(left, attemptMs))
          continue
        }
        if (record.kind === 'copy' && !this.fenceRead && this.options.fenceAtStore && (await this.fencedNow(left, false)))
          throw new Error('this terminal was fenced by a rescue')
        const js = await connection.jetstream(left)
        const published = js.publish(subject, sealed, {
          msgID,
          timeout: Math.min(left, attemptMs),
          expect: { streamName: connection.streamName },
        })
        // Its answer is lost if the server went away under it: sent again as soon as the client is back.
        if ((await Promise.race([published, reconnected])) !== RECONNECTED) return
        published.catch(() => undefined)
        this.options.logger.debug({ subject }, 'the store server came back under a copy: sending it again')
      } catch (error) {
        // A closed connection (the terminal quits) sends nothing more: the pass ends now, not at its deadline.
        if (deadline - this.now() <= 0 || connection.isClosed || this.fenced) throw error
        this.options.logger.debug({ err: error, subject }, 'a copy was not acknowledged: sending it again')
        // No stream answered: made on first use (the store server may be new, or its store lost).
        if (isNoStream(error))
          await connection
            .ensureStream(Math.max(1, deadline - this.now()), true)
            .catch((failed: unknown) => this.options.logger.debug({ err: failed }, 'the queue stream could not be made yet'))
        else await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(0, deadline - this.now()))))
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
    this.stopListening()
    clearTimeout(this.timer)
    this.timer = undefined
    await this.running
  }

  private schedule(ms: number): void {
    if (this.stopped || this.fenced || !this.queue) return
    if (this.running) {
      this.again = true
      return
    }
    // A pass already due sooner stays as it is: a busy counter never postpones its copies.
    if (this.timer !== undefined && this.dueAt <= this.now() + ms) return
    clearTimeout(this.timer)
    this.dueAt = this.now() + ms
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
      const full = this.listed === false || this.now() - this.lastListing >= (this.options.periodMs ?? 30_000)
      if (full) {
        const listed = await connection.copySubjects(terminalId, ackTimeoutMs * 2)
        this.known.clear()
        listed.forEach((subject) => this.known.add(subject))
        this.listed = true
        this.lastListing = this.now()
      }
      const present = new Set(this.known)
      // Read after the listing: a copy confirmed meanwhile is either journaled by now (owed) or still confirming.
      wanted = new Map(queue.owed().map((item) => [this.subjectOf(item), item]))
      const now = this.now()
      for (const [subject, until] of this.withdrawing) if (until < now) this.withdrawing.delete(subject)
      // A withdrawn item's tombstone stands for it until the journal no longer owes it.
      const missing = [...wanted].filter(
        ([subject]) => (!present.has(subject) || this.tombstoned.has(subject)) && !this.withdrawing.has(subject),
      )
      for (const subject of wanted.keys()) this.confirming.delete(subject)
      this.state.uncopied = missing.length
      // A pass that would publish asks the store first whether a rescue fenced this terminal meanwhile.
      if (missing.length > 0 && this.options.sealer && (await this.fencedNow(ackTimeoutMs * 2, true))) {
        logger.warn({ uncopied: missing.length }, 'this terminal was fenced by a rescue: no copy is published')
        return
      }
      for (const [subject, item] of this.options.sealer ? missing : []) {
        const copy = queue.copyOf(item)
        if (!copy) continue
        await this.publish(copy, subject, this.now() + ackTimeoutMs * 2)
        this.known.add(subject)
        this.tombstoned.delete(subject)
        this.state.uncopied--
      }
      for (const [subject, until] of this.confirming) if (until < this.now()) this.confirming.delete(subject)
      for (const subject of present) {
        if (wanted.has(subject) || (this.confirming.has(subject) && !this.discarded.has(subject))) continue
        await connection.erase(subject, ackTimeoutMs * 2)
        this.known.delete(subject)
        this.tombstoned.delete(subject)
        this.discarded.delete(subject)
      }
      // Subjects are remembered for what is still owed or confirming only.
      if (this.subjects.size > 2 * wanted.size + this.confirming.size + this.withdrawing.size + 64) this.subjects.clear()
      this.failures = 0
      this.state.failingSince = undefined
      this.state.lastError = undefined
    } catch (error) {
      this.listed = false
      this.failures++
      this.state.failingSince ??= this.now()
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
