/**
 * A terminal's link to its store server: the queue's copies (replica-sync.ts), its fence, its
 * heartbeat, its enrolment and its events. Built by the composition root when the configuration has
 * a `store` section; the engine sees only the `QueueReplica` port and the alarms.
 *
 * Nothing the store server holds may stop the terminal: a fence that does not read still fences (the
 * safe side) and says which record it is; nothing read from the store throws out of `alarms()`, the
 * heartbeat or the start.
 */
import type { Logger } from 'pino'
import { classifyDurability, copyPanelWords, durableRequiredWords, type DurabilityReading } from './durability'
import { fencedWords, parseFence, type FenceRecord } from './fence'
import type { Heartbeat } from './fleet'
import { recoveryPublicJwk, type X25519PrivateJwk } from './recovery-key'
import { ReplicaSync, type OwedQueue, type ReplicaState } from './replica-sync'
import { CopySealer } from './sealed-copy'
import { StoreConnection, type StoreConnectionSettings } from './store-connection'
import { eventSubject } from './store-names'
import { agreeing, counted } from '../../src-shared/counted'

/** How long a lane's events wait to go out together (the fleet reads them; nothing waits for them). */
const EVENT_DELAY_MS = 50
/** How often a lane reads again how safe its store copy is (and at every reconnect). */
const DURABILITY_REFRESH_MS = 60_000
/** How long a closing terminal waits for a heartbeat or copy pass in flight before cutting it short. */
const CLOSE_GRACE_MS = 500

export interface StoreLinkSettings extends Omit<StoreConnectionSettings, 'name' | 'terminalId'> {
  terminalId: string
  recoveryPublicKey: string
  /**
   * This terminal's copy key from the keychain (enrolment.ts); undefined when it is not enrolled: it
   * then publishes no copy, approves nothing offline and withdraws nothing at the store.
   */
  copyKey: X25519PrivateJwk | undefined
  /** Its enrolment certificate (the JSON of `store-enrolment.json`), put into the store's bucket at start. */
  enrolment: string | undefined
  requireReplica: boolean
  /**
   * Offline approvals need a `synced` copy (`store.requireDurable`, durability.ts): while the store's
   * copy is only `buffered`, or not known yet, they are refused.
   */
  requireDurable?: boolean | undefined
  /** The operator states the store server runs with `sync_interval: always` (`store.syncAlways`). */
  syncAlways?: boolean | undefined
  ackTimeoutMs: number
  heartbeatMs: number
  version: string
}

/** What the terminal says about itself in its heartbeat (never card data). */
export type TerminalStatus = Pick<
  Heartbeat,
  'queueDepth' | 'storedCount' | 'oldestStoredAgeSeconds' | 'attentionCount' | 'alarms' | 'reader' | 'bank'
>

export interface StoreAlarm {
  code: 'QUEUE_COPY_MISSING' | 'QUEUE_RESCUED' | 'STORE_NOT_ENROLLED' | 'STORE_COPY_BUFFERED'
  message: string
}

export const NOT_ENROLLED_WORDS =
  'This terminal is not enrolled with the store server, so its waiting payments have no copy there and it cannot approve offline: a manager runs `pos-agent store enrol` on it.'

export interface StoreLinkHooks {
  queue: OwedQueue
  status: () => TerminalStatus
  /** The fence appeared while the terminal runs: stop forwarding. */
  onFenced: (fence: FenceRecord) => void
}

export class StoreLink {
  readonly replica: ReplicaSync
  private readonly connection: StoreConnection
  private fence: FenceRecord | undefined
  private timer: NodeJS.Timeout | undefined
  private beating: Promise<void> | undefined
  private hooks: StoreLinkHooks | undefined
  private stopWatch: (() => void) | undefined
  /** The enrolment certificate is at the store (put once per start). */
  private enrolmentPut = false
  /** Events not yet handed to the client, and the timer that hands them over together. */
  private events: Array<{ subject: string; payload: string }> = []
  private eventTimer: NodeJS.Timeout | undefined
  private readonly now: () => number
  /** How safe the store's copy is, as last read from the store server (undefined before it answered). */
  private reading: DurabilityReading | undefined
  private readingNow: Promise<DurabilityReading> | undefined
  private readAt = 0
  private stopReconnects: (() => void) | undefined
  /** Told when the copy's class as the status panel shows it changes (its words or whether it is synced). */
  private readonly copyViewListeners = new Set<() => void>()

  constructor(
    private readonly settings: StoreLinkSettings,
    private readonly logger: Logger,
  ) {
    this.now = settings.now ?? Date.now
    this.connection = new StoreConnection({ ...settings, name: `pos-agent ${settings.terminalId}` })
    this.replica = new ReplicaSync({
      connection: this.connection,
      sealer: settings.copyKey ? new CopySealer(recoveryPublicJwk(settings.recoveryPublicKey), settings.copyKey) : undefined,
      storeId: settings.storeId,
      terminalId: settings.terminalId,
      required: settings.requireReplica,
      ackTimeoutMs: settings.ackTimeoutMs,
      logger,
      fenceAtStore: (ms) => this.readFence(ms),
      durableEnough: settings.requireDurable ? (ms) => this.synced(ms) : undefined,
      now: this.now,
    })
  }

  /** How safe the store's copy is, as last read (undefined until the store server answered once). */
  durability(): DurabilityReading | undefined {
    return this.reading
  }

  /**
   * The copy's class for the status panel: its words, and whether it is safe (synced) so the panel's
   * tone follows the class, not the words. Here so the wiring needs no value from the store module.
   */
  copyView(): { words: string; synced: boolean } {
    return { words: copyPanelWords(this.reading), synced: this.reading?.durability === 'synced' }
  }

  /**
   * Tells `listener` each time the copy's class as `copyView` shows it changes, so the status line
   * says where the copies are the moment it is read, not at the queue's next change.
   */
  onCopyViewChange(listener: () => void): () => void {
    this.copyViewListeners.add(listener)
    return () => this.copyViewListeners.delete(listener)
  }

  /**
   * Reads the store server's version and the stream's replicas, and classifies the copy
   * (durability.ts). Done with the first heartbeat, after every reconnect (the client may be on
   * another server now) and once a minute after (the store's admin may change the stream's replicas).
   */
  async readDurability(ms: number): Promise<DurabilityReading> {
    this.readingNow ??= this.connection
      .durabilityFacts(ms)
      .then((facts) => {
        const reading = classifyDurability({ ...facts, syncAlwaysStated: this.settings.syncAlways === true })
        if (reading.durability !== this.reading?.durability || reading.serverVersion !== this.reading?.serverVersion)
          this.logger.info(
            { durability: reading.durability, server: reading.serverVersion, replicas: reading.replicas },
            `store copy: ${reading.words}`,
          )
        const before = copyPanelWords(this.reading)
        const wasSynced = this.reading?.durability === 'synced'
        this.reading = reading
        this.readAt = this.now()
        if (copyPanelWords(reading) !== before || (reading.durability === 'synced') !== wasSynced)
          for (const listener of this.copyViewListeners) listener()
        return reading
      })
      .finally(() => (this.readingNow = undefined))
    return this.readingNow
  }

  /** With `store.requireDurable`: whether an offline approval may rest on the store's copy now. */
  private async synced(ms: number): Promise<boolean> {
    if (this.reading === undefined) await this.readDurability(ms).catch(() => undefined)
    return this.reading?.durability === 'synced'
  }

  /**
   * The fence as the store server has it now, read at start before anything is forwarded. A store
   * server that does not answer in time leaves it unknown; the watch tells it once the server answers.
   */
  async fenceAtStart(): Promise<FenceRecord | undefined> {
    try {
      await this.readFence(this.settings.ackTimeoutMs * 2)
    } catch (error) {
      this.logger.warn({ err: error }, 'the store server did not answer: this terminal learns of its fence once it does')
    }
    return this.fence
  }

  /** Reads this terminal's fence at the store (direct get): true when it is fenced. */
  private async readFence(ms: number): Promise<boolean> {
    const found = await this.connection.readFenceRaw(this.settings.terminalId, ms)
    if (found) this.fenceSeen(found.raw)
    return this.fence !== undefined
  }

  /**
   * A fence record seen at the store (by the watch or a read). The first one fences this terminal
   * for the rest of its run; a later one only updates what is known of it. A fence lifted meanwhile
   * is honoured at the next start (docs/store.md "Lifting a fence").
   */
  private fenceSeen(raw: Uint8Array | undefined): void {
    if (raw === undefined) return
    const { storeId, terminalId } = this.settings
    const fence = parseFence(raw, storeId, terminalId)
    const first = this.fence === undefined
    this.fence = fence
    if (!first) return
    this.replica.fence()
    if (fence.unreadable !== undefined)
      this.logger.error({ record: fence.unreadable }, 'a fence record at the store does not read: this terminal counts as fenced')
    else this.logger.error({ fence }, 'this terminal was fenced by a rescue: forwarding stops')
    try {
      this.hooks?.onFenced(fence)
    } catch (error) {
      this.logger.error({ err: error }, 'the fence could not be recorded')
    }
  }

  start(hooks: StoreLinkHooks): void {
    this.hooks = hooks
    if (!this.fence) this.replica.attach(hooks.queue)
    const read = () =>
      void this.readDurability(this.settings.ackTimeoutMs * 2).catch((error: unknown) =>
        this.logger.debug({ err: error }, 'the store copy is classified once the store server answers'),
      )
    // The first read comes with the first heartbeat (below); a reconnect may land on another server.
    this.stopReconnects = this.connection.onReconnect(read)
    // The fence key watched from now on: a rescue is known the moment it fences, not at the next heartbeat.
    this.stopWatch = this.connection.watchFence(
      this.settings.terminalId,
      (raw) => this.fenceSeen(raw),
      (error) => this.logger.debug({ err: error }, 'the fence watch is made again'),
    )
    this.tick()
  }

  alarms(): StoreAlarm[] {
    const out: StoreAlarm[] = []
    if (this.fence) out.push({ code: 'QUEUE_RESCUED', message: fencedWords(this.fence) })
    if (!this.settings.copyKey) out.push({ code: 'STORE_NOT_ENROLLED', message: NOT_ENROLLED_WORDS })
    if (this.settings.requireDurable && this.settings.requireReplica && this.reading?.durability !== 'synced')
      out.push({ code: 'STORE_COPY_BUFFERED', message: durableRequiredWords(this.reading) })
    const state = this.replica.status()
    if (!this.fence && this.settings.copyKey && state.uncopied > 0 && state.failingSince !== undefined)
      out.push({
        code: 'QUEUE_COPY_MISSING',
        message: `${counted(state.uncopied, 'waiting message')} for the bank ${agreeing(state.uncopied, 'has', 'have')} no copy at the store server yet: it is not answering. They are kept on this terminal and copied as soon as it answers.`,
      })
    return out
  }

  replicaState(): ReplicaState {
    return this.replica.status()
  }

  /**
   * A sale's outcome, an alarm or an audit record on the terminal's subject (never card data). A sale
   * changes state several times in a few milliseconds: its events go out together, in order, at most
   * EVENT_DELAY_MS later, in one write to the store server instead of one write (a system call, and a
   * wake-up of the store server) for each, while an approval may be waiting for that server.
   */
  publishEvent(kind: string, payload: unknown): void {
    this.events.push({ subject: eventSubject(this.settings.storeId, this.settings.terminalId, kind), payload: JSON.stringify(payload) })
    this.eventTimer ??= setTimeout(() => this.flushEvents(), EVENT_DELAY_MS).unref()
  }

  private flushEvents(): void {
    clearTimeout(this.eventTimer)
    this.eventTimer = undefined
    const events = this.events
    this.events = []
    if (events.length === 0) return
    void this.connection
      .nats(1)
      .then((nc) => events.forEach(({ subject, payload }) => nc.publish(subject, payload)))
      .catch(() => undefined)
  }

  /**
   * A heartbeat or a copy pass in flight may wait on an answer the store server lost (it restarted
   * under it) for its whole timeout. A closing terminal gives them a moment, then closes the
   * connection, which fails what is still waiting at once: a quit never hangs on the store.
   */
  async close(): Promise<void> {
    clearTimeout(this.timer)
    this.stopWatch?.()
    this.stopReconnects?.()
    this.flushEvents()
    this.hooks = undefined
    const inFlight = Promise.all([this.beating, this.replica.stop()])
    let grace: NodeJS.Timeout | undefined
    await Promise.race([inFlight, new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))])
    clearTimeout(grace)
    await this.connection.close()
    // The copy pass reads the journal: it has ended before the journal may close.
    await inFlight
  }

  /**
   * One heartbeat: this lane's word in the fleet bucket (its own key), and its enrolment certificate
   * until the store has it. The fence is not read here: it is watched.
   */
  async heartbeat(): Promise<void> {
    const hooks = this.hooks
    if (!hooks) return
    const { storeId, terminalId, ackTimeoutMs, enrolment } = this.settings
    try {
      if (enrolment !== undefined && !this.enrolmentPut) {
        await this.connection.putEnrolment(terminalId, enrolment, ackTimeoutMs * 2)
        this.enrolmentPut = true
      }
      // Read again once a minute, not with every beat: a request per heartbeat on a busy lane is
      // traffic the store server and the lane's event loop do not need for a setting that rarely changes.
      if (this.reading === undefined || this.now() - this.readAt >= DURABILITY_REFRESH_MS)
        await this.readDurability(ackTimeoutMs * 2).catch((error: unknown) =>
          this.logger.debug({ err: error }, 'the store copy could not be classified'),
        )
      const beat: Heartbeat = {
        ...hooks.status(),
        ...(this.reading ? { storeCopy: this.reading.durability, storeCopyLabel: this.reading.label } : {}),
        storeId,
        terminalId,
        lastSeen: this.now(),
        version: this.settings.version,
        fenced: this.fence !== undefined,
        uncopied: this.replica.status().uncopied,
        heartbeatSeconds: this.settings.heartbeatMs / 1000,
      }
      await this.connection.putHeartbeat(terminalId, JSON.stringify(beat), ackTimeoutMs * 2)
    } catch (error) {
      this.logger.debug({ err: error }, 'heartbeat not written: the store server did not answer')
    }
  }

  private tick(): void {
    this.beating = this.heartbeat().finally(() => {
      this.beating = undefined
      if (this.hooks) this.timer = setTimeout(() => this.tick(), this.settings.heartbeatMs)
    })
  }
}
