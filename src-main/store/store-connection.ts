/**
 * The connection to the store's NATS server (the `@nats-io/*` clients): one per process, kept open
 * and reconnected by the client itself. Every call is bounded by a time: a store server that does
 * not answer never holds a sale longer than `store.ackTimeoutMs`.
 */
import { connect, nkeyAuthenticator, usernamePasswordAuthenticator, type NatsConnection } from '@nats-io/transport-node'
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream'
import { Kvm, type KV } from '@nats-io/kv'
import { PosError } from '../../src-shared/pos-error'
import type { FLEET_BUCKET } from './store-names'
import { FENCE_BUCKET, queueStreamName, queueSubjects, terminalCopies } from './store-names'

/** How long a closing connection waits for the server to take what was published. */
const DRAIN_MS = 1_000

export interface StoreConnectionSettings {
  servers: string[]
  storeId: string
  /** The store server's JetStream domain, when it is reached through a chain's hub. */
  domain?: string | undefined
  user?: string | undefined
  password?: string | undefined
  /** An NKey seed (`SU...`), from the keychain. */
  nkeySeed?: string | undefined
  /**
   * The CA (PEM) that signed the store server's certificate (`store.caFile`). With it, or with
   * `tls://` servers, the connection is TLS or nothing: the client checks the server's certificate
   * against this CA (the public roots without it) and refuses a server that offers no TLS.
   */
  caPem?: string | undefined
  /** A name the server shows for this connection (`pos-agent T-0003`). */
  name: string
  /** How long a copy may live in the stream: the longest an item may stay owed, with a margin. */
  maxAgeMs: number
}

export class StoreConnection {
  private readonly connecting: Promise<NatsConnection>
  private connection: NatsConnection | undefined
  private streamReady: Promise<void> | undefined
  private jsm: Promise<JetStreamManager> | undefined
  private readonly buckets = new Map<string, Promise<KV>>()
  private closed = false

  constructor(private readonly settings: StoreConnectionSettings) {
    this.connecting = this.firstConnect()
    this.connecting.catch(() => undefined)
  }

  /**
   * Tries until the server answers or the connection is closed: a terminal starts whether or not the
   * store server is up. Once connected, the client reconnects by itself, forever.
   */
  private async firstConnect(): Promise<NatsConnection> {
    const { settings } = this
    const authenticator = settings.nkeySeed
      ? nkeyAuthenticator(new TextEncoder().encode(settings.nkeySeed))
      : settings.user
        ? usernamePasswordAuthenticator(settings.user, settings.password)
        : undefined
    for (;;) {
      if (this.closed) throw new PosError('STORE_UNAVAILABLE', 'the store connection is closed')
      try {
        const nc = await connect({
          servers: settings.servers,
          name: settings.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          timeout: 2_000,
          // No stack captured for every request in case it fails (an Error per publish and per erase,
          // a measurable part of the CPU a copy or a rescued item costs): the log says which call failed.
          noAsyncTraces: true,
          ...(authenticator ? { authenticator } : {}),
          ...tlsOption(settings),
        })
        if (this.closed) {
          await nc.close()
          continue
        }
        this.connection = nc
        void this.watchReconnects(nc)
        return nc
      } catch (error) {
        // Wrong credentials will not get better by retrying sooner; the log says which.
        this.lastError = error instanceof Error ? error.message : String(error)
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }
  }

  private readonly reconnectListeners = new Set<() => void>()

  /**
   * Calls `listener` each time the client is connected again after losing the server, until the
   * returned function is called. A request written to a server that was going away never gets its
   * answer: whoever waits on one resends at once on this signal instead of waiting out its timeout.
   * (A listener set, not one promise shared by every waiter: each publish would otherwise leave a
   * reaction on it until the next reconnect, which may be weeks away.)
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener)
    return () => this.reconnectListeners.delete(listener)
  }

  private async watchReconnects(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'reconnect') for (const listener of [...this.reconnectListeners]) listener()
    }
  }

  /** Why the last attempt to connect failed, for the log and `doctor`. */
  lastError: string | undefined

  get streamName(): string {
    return queueStreamName(this.settings.storeId)
  }

  /** The connection once it is up, or a timeout error after `ms`. */
  async nats(ms: number): Promise<NatsConnection> {
    if (this.closed) throw new PosError('STORE_UNAVAILABLE', 'the store connection is closed')
    if (this.connection) return this.connection
    return withTimeout(this.connecting, ms, 'the store server did not answer')
  }

  async jetstream(ms: number): Promise<JetStreamClient> {
    return jetstream(await this.nats(ms), { timeout: ms, ...(this.settings.domain ? { domain: this.settings.domain } : {}) })
  }

  async manager(ms: number): Promise<JetStreamManager> {
    const nc = await this.nats(ms)
    this.jsm ??= jetstreamManager(nc, { timeout: Math.max(ms, 1_000), checkAPI: false, ...this.domainOption() })
    return this.jsm
  }

  /**
   * The store's queue stream, made on first use: one message per item (a newer copy replaces an
   * older). `again`: asked anew, after a publish found no stream (a store server whose store was lost).
   */
  async ensureStream(ms: number, again = false): Promise<void> {
    if (again) this.streamReady = undefined
    this.streamReady ??= (async () => {
      const jsm = await this.manager(ms)
      const config = {
        name: this.streamName,
        subjects: [queueSubjects(this.settings.storeId)],
        max_msgs_per_subject: 1,
        max_age: this.settings.maxAgeMs * 1_000_000,
        // Two minutes of de-duplication by Nats-Msg-Id (JetStream's default) covers any retry of a publish.
        duplicate_window: 120_000_000_000,
      }
      try {
        await jsm.streams.info(this.streamName)
        await jsm.streams.update(this.streamName, config)
      } catch (error) {
        if (!isNotFound(error)) throw error
        await jsm.streams.add(config)
      }
    })()
    try {
      await withTimeout(this.streamReady, ms, 'the store server did not answer')
    } catch (error) {
      this.streamReady = undefined
      throw error
    }
  }

  /** Subjects holding a copy of one of `terminalId`'s items. */
  async copySubjects(terminalId: string, ms: number): Promise<string[]> {
    await this.ensureStream(ms)
    const jsm = await this.manager(ms)
    const filter = { subjects_filter: terminalCopies(this.settings.storeId, terminalId) }
    try {
      return Object.keys((await jsm.streams.info(this.streamName, filter)).state.subjects ?? {})
    } catch (error) {
      if (!isNotFound(error)) throw error
      // The stream was there and is gone (a store server that lost its store): made again, empty.
      await this.ensureStream(ms, true)
      return []
    }
  }

  /**
   * Every copy of `terminalId`'s items, read in one pass over the stream (an ordered consumer, made
   * and gone with the read) rather than one request per copy: `expected` is how many the listing
   * found, the read ends when they are in or `ms` passed without the next.
   */
  async readCopies(terminalId: string, expected: number, ms: number): Promise<Array<{ subject: string; seq: number; data: Uint8Array }>> {
    if (expected === 0) return []
    const js = await this.jetstream(ms)
    const consumer = await js.consumers.get(this.streamName, { filter_subjects: terminalCopies(this.settings.storeId, terminalId) })
    const out: Array<{ subject: string; seq: number; data: Uint8Array }> = []
    while (out.length < expected) {
      const before = out.length
      const batch = await consumer.fetch({ max_messages: expected - out.length, expires: Math.max(1_000, ms) })
      // Copied: a message's data is a view of the client's read buffer.
      for await (const message of batch) out.push({ subject: message.subject, seq: message.seq, data: new Uint8Array(message.data) })
      // Copies erased or aged out since the listing: nothing more will come.
      if (out.length === before) break
    }
    return out
  }

  /** The copy at `subject`, or undefined when there is none. */
  async readCopy(subject: string, ms: number): Promise<{ seq: number; data: Uint8Array } | undefined> {
    const jsm = await this.manager(ms)
    const message = await jsm.streams.getMessage(this.streamName, { last_by_subj: subject })
    return message ? { seq: message.seq, data: message.data } : undefined
  }

  /** Secure erase (JetStream `STREAM.MSG.DELETE` without `no_erase`): the message is overwritten with random data. */
  async erase(subject: string, ms: number, seq?: number): Promise<boolean> {
    const at = seq ?? (await this.readCopy(subject, ms))?.seq
    if (at === undefined) return false
    const jsm = await this.manager(ms)
    try {
      return await jsm.streams.deleteMessage(this.streamName, at, true)
    } catch (error) {
      // Already gone (erased by an earlier run, or aged out): nothing left to erase.
      if (isNotFound(error)) return false
      throw error
    }
  }

  async bucket(name: typeof FENCE_BUCKET | typeof FLEET_BUCKET, ms: number): Promise<KV> {
    const nc = await this.nats(ms)
    let bucket = this.buckets.get(name)
    if (!bucket) {
      const kvm = new Kvm(jetstream(nc, { timeout: Math.max(ms, 1_000), ...this.domainOption() }))
      // The fence keeps its history (who rescued, when); a heartbeat only its latest word.
      bucket = kvm.create(name, name === FENCE_BUCKET ? { history: 10 } : { history: 1 })
      this.buckets.set(name, bucket)
      bucket.catch(() => this.buckets.delete(name))
    }
    return withTimeout(bucket, ms, 'the store server did not answer')
  }

  /** Closed by `close()`: nothing more is sent, and whoever retries stops. */
  get isClosed(): boolean {
    return this.closed
  }

  /**
   * Drains what was published (events, a last heartbeat) and closes. A server that is up but does
   * not answer (frozen, or cut off without a reset) would hold the drain until the client's stale
   * check, minutes later: past DRAIN_MS the socket is simply closed.
   */
  async close(): Promise<void> {
    this.closed = true
    const nc = this.connection
    if (nc) await withTimeout(nc.drain(), DRAIN_MS, 'the store server did not answer the drain').catch(() => nc.close())
  }

  private domainOption(): { domain?: string } {
    return this.settings.domain ? { domain: this.settings.domain } : {}
  }
}

/**
 * The client's TLS setting. nats.js reads no meaning into a `tls://` scheme (it upgrades only when
 * the server offers TLS), so a `tls://` server is held to it here: with `tls` set, a server without
 * TLS is refused ("server does not support 'tls'") and the certificate is checked (Node's
 * `tls.connect`, `rejectUnauthorized` left on).
 */
export function tlsOption(settings: Pick<StoreConnectionSettings, 'servers' | 'caPem'>): { tls?: { ca?: string } } {
  const wanted = settings.caPem !== undefined || settings.servers.some((server) => server.startsWith('tls://'))
  if (!wanted) return {}
  return { tls: settings.caPem !== undefined ? { ca: settings.caPem } : {} }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof Error && /not found/i.test(error.message)
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, words: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PosError('STORE_UNAVAILABLE', words)), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}
