/**
 * A terminal's link to its store server: the queue's copies (replica-sync.ts), its fence, its
 * heartbeat and its events. Built by the composition root when the configuration has a `store`
 * section; the engine sees only the `QueueReplica` port and the alarms.
 */
import type { Logger } from 'pino'
import { fencedWords, readFence, type FenceRecord } from './fence'
import type { Heartbeat } from './fleet'
import { makeCopyKeyPair } from './enrolment'
import { recoveryPublicJwk, type X25519PrivateJwk } from './recovery-key'
import { ReplicaSync, type OwedQueue, type ReplicaState } from './replica-sync'
import { CopySealer } from './sealed-copy'
import { StoreConnection, type StoreConnectionSettings } from './store-connection'
import { eventSubject, FLEET_BUCKET, terminalKey } from './store-names'
import { agreeing, counted } from '../../src-shared/counted'

/** How long a lane's events wait to go out together (the fleet reads them; nothing waits for them). */
const EVENT_DELAY_MS = 50
/** How long a closing terminal waits for a heartbeat or copy pass in flight before cutting it short. */
const CLOSE_GRACE_MS = 500

export interface StoreLinkSettings extends Omit<StoreConnectionSettings, 'name'> {
  terminalId: string
  recoveryPublicKey: string
  /** This terminal's copy key from the keychain (enrolment.ts); undefined when it is not enrolled. */
  copyKey?: X25519PrivateJwk | undefined
  requireReplica: boolean
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
  code: 'QUEUE_COPY_MISSING' | 'QUEUE_RESCUED'
  message: string
}

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
  /** Events not yet handed to the client, and the timer that hands them over together. */
  private events: Array<{ subject: string; payload: string }> = []
  private eventTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly settings: StoreLinkSettings,
    private readonly logger: Logger,
  ) {
    this.connection = new StoreConnection({ ...settings, name: `pos-agent ${settings.terminalId}` })
    this.replica = new ReplicaSync({
      connection: this.connection,
      // Not enrolled: a key of this run only, whose copies the rescue refuses (docs/store.md).
      sealer: new CopySealer(recoveryPublicJwk(settings.recoveryPublicKey), settings.copyKey ?? makeCopyKeyPair().privateJwk),
      storeId: settings.storeId,
      terminalId: settings.terminalId,
      required: settings.requireReplica,
      ackTimeoutMs: settings.ackTimeoutMs,
      logger,
    })
  }

  /**
   * The fence as the store server has it now, read at start before anything is forwarded. A store
   * server that does not answer in time leaves it unknown; the heartbeat reads it again.
   */
  async fenceAtStart(): Promise<FenceRecord | undefined> {
    try {
      this.fence = await readFence(this.connection, this.settings.storeId, this.settings.terminalId, this.settings.ackTimeoutMs * 2)
    } catch (error) {
      this.logger.warn({ err: error }, 'the store server did not answer: this terminal reads its fence again at its next heartbeat')
    }
    if (this.fence) this.replica.fence()
    return this.fence
  }

  start(hooks: StoreLinkHooks): void {
    this.hooks = hooks
    if (!this.fence) this.replica.attach(hooks.queue)
    this.tick()
  }

  alarms(): StoreAlarm[] {
    const out: StoreAlarm[] = []
    if (this.fence) out.push({ code: 'QUEUE_RESCUED', message: fencedWords(this.fence) })
    const state = this.replica.status()
    if (!this.fence && state.uncopied > 0 && state.failingSince !== undefined)
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

  /** One heartbeat: the fence read again, then this lane's word in the fleet bucket. */
  async heartbeat(): Promise<void> {
    const hooks = this.hooks
    if (!hooks) return
    const { storeId, terminalId, ackTimeoutMs } = this.settings
    try {
      if (!this.fence) {
        const fence = await readFence(this.connection, storeId, terminalId, ackTimeoutMs * 2)
        if (fence) {
          this.fence = fence
          this.replica.fence()
          this.logger.error({ fence }, 'this terminal was fenced by a rescue: forwarding stops')
          hooks.onFenced(fence)
        }
      }
      const beat: Heartbeat = {
        ...hooks.status(),
        storeId,
        terminalId,
        lastSeen: Date.now(),
        version: this.settings.version,
        fenced: this.fence !== undefined,
        uncopied: this.replica.status().uncopied,
        heartbeatSeconds: this.settings.heartbeatMs / 1000,
      }
      const kv = await this.connection.bucket(FLEET_BUCKET, ackTimeoutMs * 2)
      await kv.put(terminalKey(storeId, terminalId), JSON.stringify(beat))
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
