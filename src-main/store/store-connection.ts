/**
 * The connection to the store's NATS server (the `@nats-io/*` clients): one per process, kept open
 * and reconnected by the client itself. Every call is bounded by a time: a store server that does
 * not answer never holds a sale longer than `store.ackTimeoutMs`.
 *
 * A lane's connection touches only what is its own (docs/store.md "What a lane may do"): its own
 * stream, its own keys of the buckets, replies on its own inbox prefix. Each call here is the one
 * JetStream API subject the store server lets that lane use, written out where the library's own
 * call would need a wider right (a bucket's info, the account's info, any key's value).
 */
import { randomBytes } from 'node:crypto'
import {
  connect,
  Empty,
  nkeyAuthenticator,
  usernamePasswordAuthenticator,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node'
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream'
import { Kvm, type KV } from '@nats-io/kv'
import { PosError } from '../../src-shared/pos-error'
import {
  bucketStream,
  bucketSubject,
  ENROL_BUCKET,
  FENCE_BUCKET,
  FLEET_BUCKET,
  fromSubjectToken,
  laneInboxPrefix,
  laneStreamName,
  legacyStreamName,
  terminalCopies,
  terminalKey,
  type BucketName,
} from './store-names'

/** How long a closing connection waits for the server to take what was published. */
const DRAIN_MS = 1_000
/** The server's idle heartbeat on a fence watch, and how long a watch may stay silent before it is made again. */
const WATCH_HEARTBEAT_MS = 5_000
const WATCH_SILENT_MS = 3 * WATCH_HEARTBEAT_MS
/** A watch whose lane went away is removed by the server after this long without interest. */
const WATCH_INACTIVE_MS = 30_000
/** JetStream's error codes (server `jetstream_errors_generated.go`). */
const STREAM_NAME_IN_USE = 10058
const STREAM_SUBJECT_OVERLAP = 10065
/** The header a key-value delete or purge marker carries. */
const KV_OPERATION = 'KV-Operation'

export interface StoreConnectionSettings {
  servers: string[]
  storeId: string
  /**
   * The lane this connection speaks for: its replies come on that lane's own inbox prefix (the only
   * one the store server lets it read), and it makes its own stream and buckets on first use.
   * Absent for the store's admin credential (`rescue`, `lift-fence`, `fleet` with `--store-admin`).
   */
  terminalId?: string | undefined
  /** The store server's JetStream domain, when it is reached through a chain's hub. */
  domain?: string | undefined
  user?: string | undefined
  password?: string | undefined
  /** An NKey seed (`SU...`), from the keychain or the admin's seed file. */
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
  /**
   * How many of the store's servers keep each stream and bucket this connection makes (`store.replicas`):
   * 3 on a three-server store, 1 (the default) on one server. One made already is taken as it is.
   */
  replicas?: 1 | 3 | undefined
  /**
   * How long a read or an erase asks again when no server answers it (the store's admin: a rescue).
   * On a three-server store, each stream is answered by its leader alone: when the server that led
   * it is lost, no server answers for that stream until the two left have elected a new leader
   * (seconds, more on a busy machine). 0 (the default, a lane's sales): one request, its time only.
   */
  electionMs?: number | undefined
  /** The clock (ms since the epoch). */
  now?: (() => number) | undefined
}

/** One message of a stream, copied out of the client's read buffer. */
export interface StoredRecord {
  subject: string
  seq: number
  data: Uint8Array
}

/** A key's latest value as the store server keeps it: its bytes, its revision, when the server took it. */
export interface KeyRecord {
  key: string
  raw: Uint8Array
  revision: number
  /** ms since the epoch, by the store server's clock. */
  at: number
}

export class StoreConnection {
  private readonly connecting: Promise<NatsConnection>
  private connection: NatsConnection | undefined
  private connected = false
  private readonly streamsReady = new Map<string, Promise<void>>()
  private readonly bucketsReady = new Map<BucketName, Promise<void>>()
  private jsm: Promise<JetStreamManager> | undefined
  private readonly buckets = new Map<string, Promise<KV>>()
  private closed = false
  private readonly now: () => number

  constructor(private readonly settings: StoreConnectionSettings) {
    this.now = settings.now ?? Date.now
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
          inboxPrefix: this.inboxPrefix,
          ...(authenticator ? { authenticator } : {}),
          ...tlsOption(settings),
        })
        if (this.closed) {
          await nc.close()
          continue
        }
        this.connection = nc
        this.connected = true
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
      if (status.type === 'disconnect') this.connected = false
      if (status.type === 'reconnect') {
        this.connected = true
        for (const listener of [...this.reconnectListeners]) listener()
      }
    }
  }

  /**
   * Whether the client holds a live connection now. While it is reconnecting the client keeps what
   * is published in a buffer and writes it once back: a copy must not reach the store that way, long
   * after its sale stopped waiting for it (and perhaps after a rescue fenced this terminal).
   */
  get isConnected(): boolean {
    return this.connected && !this.closed
  }

  /** True once the client is connected (now, or within `ms`); false when it is not by then. */
  async whenConnected(ms: number): Promise<boolean> {
    if (this.isConnected) return true
    if (this.closed) return false
    let timer: NodeJS.Timeout | undefined
    let stopListening: () => void = () => undefined
    try {
      return await Promise.race([
        new Promise<boolean>((resolve) => (stopListening = this.onReconnect(() => resolve(true)))),
        // The first connection is not a reconnect: the client is up once it is made.
        ...(this.connection ? [] : [this.connecting.then(() => true)]),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
      ])
    } finally {
      clearTimeout(timer)
      stopListening()
    }
  }

  /** Why the last attempt to connect failed, for the log and `doctor`. */
  lastError: string | undefined

  /** The reply subjects' prefix: the lane's own, or the client's default for the admin. */
  private get inboxPrefix(): string {
    return this.settings.terminalId === undefined ? '_INBOX' : laneInboxPrefix(this.settings.storeId, this.settings.terminalId)
  }

  /** The JetStream API's subject prefix, in the store server's domain when one is set. */
  private get api(): string {
    return this.settings.domain ? `$JS.${this.settings.domain}.API` : '$JS.API'
  }

  private get replicas(): number {
    return this.settings.replicas ?? 1
  }

  /**
   * What this lane's copy rests on (durability.ts): the server's version from its INFO at connect,
   * and its stream's replicas from the stream's info (made first when it is not there, as the copy
   * pass would make it). The account's info (`$JS.API.INFO`) is not read: it would list every lane's
   * figures, and a lane may not read it (docs/store.md "What a lane may do").
   */
  async durabilityFacts(ms: number): Promise<{ serverVersion: string | undefined; streamReplicas: number | undefined }> {
    const deadline = this.now() + ms
    const nc = await this.nats(ms)
    const left = () => Math.max(1, deadline - this.now())
    await this.ensureStream(left())
    const jsm = await this.manager(left())
    const read = () => withTimeout(jsm.streams.info(this.streamName), left(), NO_ANSWER)
    const info = await read().catch(async (error: unknown) => {
      // The stream was there and is gone (a store server that lost its store): made again.
      if (!isNotFound(error)) throw error
      await this.ensureStream(left(), true)
      return read()
    })
    // Read after the stream's info: the server that answered is the one the client is on now.
    return { serverVersion: nc.info?.version, streamReplicas: info.config.num_replicas }
  }

  /** The stream of a lane of this store. */
  laneStream(terminalId: string): string {
    return laneStreamName(this.settings.storeId, terminalId)
  }

  /** This lane's own stream (a lane's connection only). */
  get streamName(): string {
    return this.laneStream(this.ownTerminal())
  }

  private ownTerminal(): string {
    if (this.settings.terminalId === undefined) throw new Error('only a lane has a stream of its own')
    return this.settings.terminalId
  }

  private isOwn(terminalId: string): boolean {
    return this.settings.terminalId === terminalId
  }

  /** The connection once it is up, or a timeout error after `ms`. */
  async nats(ms: number): Promise<NatsConnection> {
    if (this.closed) throw new PosError('STORE_UNAVAILABLE', 'the store connection is closed')
    if (this.connection) return this.connection
    return withTimeout(this.connecting, ms, 'the store server did not answer')
  }

  async jetstream(ms: number): Promise<JetStreamClient> {
    return jetstream(await this.nats(ms), { timeout: ms, ...this.domainOption() })
  }

  async manager(ms: number): Promise<JetStreamManager> {
    const nc = await this.nats(ms)
    // No account check (`$JS.API.INFO`): a lane may not read the account's figures.
    this.jsm ??= jetstreamManager(nc, { timeout: Math.max(ms, 1_000), checkAPI: false, ...this.domainOption() })
    return this.jsm
  }

  /**
   * This lane's stream, made on first use: one message per item (a newer copy replaces an older).
   * Made, never updated: a lane may create its stream but not change it (the store's admin may, with
   * `nats stream edit`), so one made already, however configured, is taken as it is. `again`: asked
   * anew, after a publish found no stream (a store server whose store was lost).
   */
  async ensureStream(ms: number, again = false): Promise<void> {
    const terminalId = this.ownTerminal()
    const name = this.laneStream(terminalId)
    if (again) this.streamsReady.delete(name)
    let ready = this.streamsReady.get(name)
    if (!ready) {
      ready = this.create({
        name,
        subjects: [terminalCopies(this.settings.storeId, terminalId)],
        max_msgs_per_subject: 1,
        max_age: this.settings.maxAgeMs * 1_000_000,
        // Two minutes of de-duplication by Nats-Msg-Id (JetStream's default) covers any retry of a publish.
        duplicate_window: 120_000_000_000,
        num_replicas: this.replicas,
      })
      this.streamsReady.set(name, ready)
    }
    try {
      await withTimeout(ready, ms, 'the store server did not answer')
    } catch (error) {
      this.streamsReady.delete(name)
      throw error
    }
  }

  /** `STREAM.CREATE`, which answers as well for a stream that is there already (same or other settings). */
  private async create(config: Partial<StreamConfig> & { name: string }): Promise<void> {
    const jsm = await this.manager(1_000)
    try {
      await jsm.streams.add(config)
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (code === STREAM_NAME_IN_USE) return
      if (code === STREAM_SUBJECT_OVERLAP)
        throw new PosError(
          'STORE_UNAVAILABLE',
          `another stream on the store server already takes this terminal's subjects (${String(config.subjects)}): the store's old shared stream must be retired first (docs/store.md)`,
          { cause: error },
        )
      throw error
    }
  }

  /** Subjects holding a copy of one of `terminalId`'s items (a lane makes its own stream when it has none). */
  async copySubjects(terminalId: string, ms: number): Promise<string[]> {
    const own = this.isOwn(terminalId)
    if (own) await this.ensureStream(ms)
    const jsm = await this.manager(ms)
    const filter = { subjects_filter: terminalCopies(this.settings.storeId, terminalId) }
    try {
      return Object.keys((await this.answered(() => jsm.streams.info(this.laneStream(terminalId), filter), ms)).state.subjects ?? {})
    } catch (error) {
      if (!isNotFound(error)) throw error
      // The stream was there and is gone (a store server that lost its store): made again, empty.
      if (own) await this.ensureStream(ms, true)
      return []
    }
  }

  /**
   * Every copy of `terminalId`'s items, read in one pass over its stream (an ordered consumer, made
   * and gone with the read) rather than one request per copy: `expected` is how many the listing
   * found, the read ends when they are in or `ms` passed without the next.
   */
  async readCopies(terminalId: string, expected: number, ms: number): Promise<StoredRecord[]> {
    return (await this.readStream(this.laneStream(terminalId), terminalCopies(this.settings.storeId, terminalId), expected, ms)).map(
      ({ subject, seq, data }) => ({ subject, seq, data }),
    )
  }

  /**
   * Copies of `terminalId` left in the store's old shared stream (written before each lane had a
   * stream of its own). The store's admin only; none when that stream is gone. Read one by one, by
   * subject: once the old stream is retired (its subjects moved aside so that the lanes' own streams
   * may take theirs, docs/store.md) a consumer filtered to them is refused, but the messages keep their
   * subjects and are still found by them.
   */
  async readLegacyCopies(terminalId: string, ms: number): Promise<StoredRecord[]> {
    const jsm = await this.manager(ms)
    const stream = legacyStreamName(this.settings.storeId)
    let subjects: string[]
    try {
      subjects = Object.keys(
        (await this.answered(() => jsm.streams.info(stream, { subjects_filter: terminalCopies(this.settings.storeId, terminalId) }), ms))
          .state.subjects ?? {},
      )
    } catch (error) {
      if (isNotFound(error)) return []
      throw error
    }
    const out: StoredRecord[] = []
    for (const subject of subjects.sort()) {
      const found = await this.readCopy(subject, ms, 'legacy')
      if (found) out.push({ subject, ...found })
    }
    return out
  }

  private async readStream(
    stream: string,
    filter: string,
    expected: number,
    ms: number,
  ): Promise<Array<StoredRecord & { headers: MsgHdrs | undefined }>> {
    if (expected === 0) return []
    if (this.consumersUnanswered) return this.readBySequence(stream, filter, expected, ms)
    const js = await this.jetstream(ms)
    let consumer: Awaited<ReturnType<JetStreamClient['consumers']['get']>>
    try {
      consumer = await js.consumers.get(stream, { filter_subjects: filter })
    } catch (error) {
      if (!isTimeout(error)) throw error
      // On a three-server store that just lost a server, JetStream may place the read's consumer on
      // that server until it counts it as gone (the request is then never answered): the stream's
      // leader answers a read by sequence, so this connection reads that way from now on.
      this.consumersUnanswered = true
      return this.readBySequence(stream, filter, expected, ms)
    }
    const out: Array<StoredRecord & { headers: MsgHdrs | undefined }> = []
    while (out.length < expected) {
      const before = out.length
      const batch = await consumer.fetch({ max_messages: expected - out.length, expires: Math.max(1_000, ms) })
      // Copied: a message's data is a view of the client's read buffer.
      for await (const message of batch)
        out.push({ subject: message.subject, seq: message.seq, data: new Uint8Array(message.data), headers: message.headers })
      // Records erased or aged out since the listing: nothing more will come.
      if (out.length === before) break
    }
    return out
  }

  /**
   * The same read as `readStream`, one `STREAM.MSG.GET` per message (the first one matching `filter`
   * at or after a sequence), answered by the stream's leader alone.
   */
  private async readBySequence(
    stream: string,
    filter: string,
    expected: number,
    ms: number,
  ): Promise<Array<StoredRecord & { headers: MsgHdrs | undefined }>> {
    const jsm = await this.manager(ms)
    const out: Array<StoredRecord & { headers: MsgHdrs | undefined }> = []
    for (let seq = 1; out.length < expected;) {
      // `next_by_subj` is a request the server takes (nats-server 2.9+); the client's type lists only two.
      const query = { seq, next_by_subj: filter } as unknown as Parameters<JetStreamManager['streams']['getMessage']>[1]
      const message = await this.answered(() => jsm.streams.getMessage(stream, query), ms)
      if (!message) break
      out.push({ subject: message.subject, seq: message.seq, data: new Uint8Array(message.data), headers: message.header })
      seq = message.seq + 1
    }
    return out
  }

  /** A read through a consumer went unanswered once: this connection reads by sequence. */
  private consumersUnanswered = false

  /** The copy at `subject` (in its lane's stream, or the old shared stream), or undefined when there is none. */
  async readCopy(subject: string, ms: number, from: 'lane' | 'legacy' = 'lane'): Promise<{ seq: number; data: Uint8Array } | undefined> {
    const jsm = await this.manager(ms)
    const message = await this.answered(() => jsm.streams.getMessage(this.streamOf(subject, from), { last_by_subj: subject }), ms)
    return message ? { seq: message.seq, data: new Uint8Array(message.data) } : undefined
  }

  /** Secure erase (JetStream `STREAM.MSG.DELETE` without `no_erase`): the message is overwritten with random data. */
  async erase(subject: string, ms: number, seq?: number, from: 'lane' | 'legacy' = 'lane'): Promise<boolean> {
    const at = seq ?? (await this.readCopy(subject, ms, from))?.seq
    if (at === undefined) return false
    const jsm = await this.manager(ms)
    try {
      return await this.answered(() => jsm.streams.deleteMessage(this.streamOf(subject, from), at, true), ms)
    } catch (error) {
      // Already gone (erased by an earlier run, or aged out): nothing left to erase.
      if (isNotFound(error)) return false
      throw error
    }
  }

  /** The stream a copy's subject belongs to: `pos.queue.<store>.<terminal>.<operation>.<id>`. */
  private streamOf(subject: string, from: 'lane' | 'legacy'): string {
    if (from === 'legacy') return legacyStreamName(this.settings.storeId)
    const terminal = subject.split('.')[3]
    if (terminal === undefined) throw new Error(`not a queue copy subject: ${subject}`)
    return this.laneStream(fromSubjectToken(terminal))
  }

  /**
   * A bucket, made on first use with JetStream's key-value layout (the client's own, so that either
   * side may make it first): `STREAM.CREATE` only, which a lane may do; never its info or an update.
   */
  async ensureBucket(bucket: BucketName, ms: number, again = false): Promise<void> {
    if (again) this.bucketsReady.delete(bucket)
    let ready = this.bucketsReady.get(bucket)
    if (!ready) {
      ready = this.create({
        name: bucketStream(bucket),
        subjects: [`$KV.${bucket}.>`],
        // The fence and the enrolments keep their history (who rescued, when; the keys a terminal had).
        max_msgs_per_subject: bucket === FLEET_BUCKET ? 1 : 10,
        retention: 'limits',
        storage: 'file',
        discard: 'new',
        max_msg_size: -1,
        num_replicas: this.replicas,
        allow_direct: true,
        allow_rollup_hdrs: true,
        deny_delete: true,
      })
      this.bucketsReady.set(bucket, ready)
    }
    try {
      await withTimeout(ready, ms, NO_ANSWER)
    } catch (error) {
      this.bucketsReady.delete(bucket)
      throw error
    }
  }

  /**
   * A bucket through the key-value client, for the store's admin (fences: create, read, lift). A
   * lane uses the calls below, each on its own key.
   */
  async bucket(name: typeof FENCE_BUCKET | typeof FLEET_BUCKET, ms: number): Promise<KV> {
    const nc = await this.nats(ms)
    let bucket = this.buckets.get(name)
    if (!bucket) {
      const kvm = new Kvm(jetstream(nc, { timeout: Math.max(ms, 1_000), ...this.domainOption() }))
      // The fence keeps its history (who rescued, when); a heartbeat only its latest word.
      const options = { history: name === FENCE_BUCKET ? 10 : 1, replicas: this.replicas }
      // A lane may make the bucket's stream (ensureBucket) between the client's look for it and its
      // own making: the stream is then there, and opening it again finds it.
      bucket = kvm.create(name, options).catch((error: unknown) => {
        if ((error as { code?: unknown }).code === STREAM_NAME_IN_USE) return kvm.create(name, options)
        throw error
      })
      this.buckets.set(name, bucket)
      bucket.catch(() => this.buckets.delete(name))
    }
    return withTimeout(bucket, ms, NO_ANSWER)
  }

  /**
   * The terminal's fence as the store server has it now: a direct get of its key, the one read a
   * lane may make in the fence bucket. Undefined when there is none (or it was lifted).
   */
  async readFenceRaw(terminalId: string, ms: number): Promise<{ raw: Uint8Array; revision: number } | undefined> {
    const subject = `${this.api}.DIRECT.GET.${bucketStream(FENCE_BUCKET)}.${bucketSubject(FENCE_BUCKET, terminalKey(this.settings.storeId, terminalId))}`
    const deadline = this.now() + ms
    // A direct get of a stream that is not there gets no answer at all (JetStream takes the request
    // and nothing serves it): the bucket is made first, once.
    await this.ensureBucket(FENCE_BUCKET, ms)
    const get = () => this.request(subject, deadline)
    let answer: Msg
    try {
      answer = await get()
    } catch (error) {
      // No one answers for a bucket that was lost since (a store server whose store was lost): made again.
      if (!isNoResponders(error)) throw error
      await this.ensureBucket(FENCE_BUCKET, Math.max(1, deadline - this.now()), true)
      answer = await get()
    }
    const code = answer.headers?.code ?? 0
    if (code === 404) return undefined
    if (code !== 0)
      throw new PosError('STORE_UNAVAILABLE', `the store server could not read the fence (${answer.headers?.description ?? code})`)
    if (isDeleted(answer.headers)) return undefined
    return { raw: new Uint8Array(answer.data), revision: Number(answer.headers?.get('Nats-Sequence') ?? 0) }
  }

  /**
   * A request answered before `deadline`. Sent again when the client comes back (a request written
   * to a server going away never gets its answer) and after a third of the time without one; never
   * handed to a client that is reconnecting.
   */
  private async request(subject: string, deadline: number): Promise<Msg> {
    const attemptMs = Math.max(200, Math.floor((deadline - this.now()) / 3))
    for (;;) {
      const left = deadline - this.now()
      if (left <= 0 || this.closed) throw new PosError('STORE_UNAVAILABLE', NO_ANSWER)
      if (!this.isConnected) {
        await this.whenConnected(Math.min(left, attemptMs))
        continue
      }
      const nc = await this.nats(left)
      let resend: () => void = () => undefined
      const reconnected = new Promise<undefined>((resolve) => (resend = () => resolve(undefined)))
      const stopListening = this.onReconnect(resend)
      try {
        const asked = nc.request(subject, Empty, { timeout: Math.min(left, attemptMs) })
        asked.catch(() => undefined)
        const answer = await Promise.race([asked, reconnected])
        if (answer) return answer
      } catch (error) {
        if (!isTimeout(error)) throw error
      } finally {
        stopListening()
      }
    }
  }

  /**
   * Watches the terminal's fence key: `onChange` is told its value when the watch starts, and each
   * time it changes (undefined: lifted). A push consumer filtered to that one key, delivered on this
   * connection's own inbox, with the server's idle heartbeat: a watch that falls silent, or a
   * connection that comes back, makes a new one (which tells the current value again). Returns the
   * function that ends it.
   */
  watchFence(terminalId: string, onChange: (raw: Uint8Array | undefined) => void, onTrouble?: (error: unknown) => void): () => void {
    const stream = bucketStream(FENCE_BUCKET)
    const filter = bucketSubject(FENCE_BUCKET, terminalKey(this.settings.storeId, terminalId))
    let stopped = false
    let generation = 0
    let subscription: Subscription | undefined
    let heardAt = this.now()
    let delivered = 0
    let retry: NodeJS.Timeout | undefined
    let failures = 0
    const tell = (raw: Uint8Array | undefined) => {
      try {
        onChange(raw)
      } catch (error) {
        onTrouble?.(error)
      }
    }
    const start = async (): Promise<void> => {
      const mine = ++generation
      clearTimeout(retry)
      subscription?.unsubscribe()
      subscription = undefined
      if (stopped || this.closed) return
      try {
        const nc = await this.nats(WATCH_HEARTBEAT_MS)
        if (mine !== generation || stopped) return
        const name = `fence_${randomBytes(8).toString('hex')}`
        const deliver = `${this.inboxPrefix}.${name}`
        delivered = 0
        heardAt = this.now()
        subscription = nc.subscribe(deliver, {
          callback: (error, msg) => {
            if (mine !== generation) return
            if (error) {
              onTrouble?.(error)
              return
            }
            heardAt = this.now()
            const code = msg.headers?.code ?? 0
            if (code === 100) {
              // An idle heartbeat names the last message the server delivered: one that did not arrive means the watch is remade.
              if (Number(msg.headers?.get('Nats-Last-Consumer') ?? 0) > delivered) void start()
              return
            }
            if (code !== 0) return void start()
            delivered++
            tell(isDeleted(msg.headers) ? undefined : new Uint8Array(msg.data))
          },
        })
        const config = {
          name,
          deliver_subject: deliver,
          deliver_policy: 'last_per_subject',
          ack_policy: 'none',
          filter_subject: filter,
          idle_heartbeat: WATCH_HEARTBEAT_MS * 1_000_000,
          inactive_threshold: WATCH_INACTIVE_MS * 1_000_000,
          mem_storage: true,
          num_replicas: 1,
        }
        // The create request that names its filter: the one a lane may send, for its own key only.
        const answer = await nc.request(
          `${this.api}.CONSUMER.CREATE.${stream}.${name}.${filter}`,
          JSON.stringify({ stream_name: stream, config }),
          {
            timeout: WATCH_HEARTBEAT_MS,
          },
        )
        const created = JSON.parse(answer.string()) as { error?: { code: number; err_code: number; description: string } }
        if (created.error) {
          if (created.error.err_code === 10059) await this.ensureBucket(FENCE_BUCKET, WATCH_HEARTBEAT_MS, true)
          throw new PosError('STORE_UNAVAILABLE', `the fence watch was refused: ${created.error.description}`)
        }
        failures = 0
      } catch (error) {
        if (mine !== generation || stopped || this.closed) return
        onTrouble?.(error)
        failures++
        retry = setTimeout(() => void start(), Math.min(WATCH_HEARTBEAT_MS, 250 * 2 ** Math.min(failures, 5)))
        retry.unref?.()
      }
    }
    const silence = setInterval(() => {
      if (this.closed) return stop()
      if (subscription && this.now() - heardAt > WATCH_SILENT_MS) void start()
    }, WATCH_HEARTBEAT_MS)
    silence.unref?.()
    const stopListening = this.onReconnect(() => void start())
    const stop = () => {
      stopped = true
      generation++
      clearInterval(silence)
      clearTimeout(retry)
      stopListening()
      subscription?.unsubscribe()
      subscription = undefined
    }
    void start()
    return stop
  }

  /** Puts this lane's heartbeat (its own key of the fleet bucket). */
  putHeartbeat(terminalId: string, json: string, ms: number): Promise<number> {
    return this.putKey(FLEET_BUCKET, terminalId, json, ms)
  }

  /** Puts this lane's enrolment certificate (its own key of the enrolment bucket). */
  putEnrolment(terminalId: string, json: string, ms: number): Promise<number> {
    return this.putKey(ENROL_BUCKET, terminalId, json, ms)
  }

  /** A put as the key-value client does it (a publish to the key's subject), on a bucket made if it was not there. */
  private async putKey(bucket: BucketName, terminalId: string, json: string, ms: number): Promise<number> {
    const deadline = this.now() + ms
    await this.ensureBucket(bucket, ms)
    const js = await this.jetstream(ms)
    const subject = bucketSubject(bucket, terminalKey(this.settings.storeId, terminalId))
    const put = () =>
      js.publish(subject, json, { timeout: Math.max(1, deadline - this.now()), expect: { streamName: bucketStream(bucket) } })
    try {
      return (await put()).seq
    } catch (error) {
      if (!isNoResponders(error)) throw error
      await this.ensureBucket(bucket, Math.max(1, deadline - this.now()), true)
      return (await put()).seq
    }
  }

  /** A lane's last heartbeat, with when the store server took it (the store's admin). */
  async readHeartbeatRaw(terminalId: string, ms: number): Promise<KeyRecord | undefined> {
    return this.readKey(FLEET_BUCKET, terminalKey(this.settings.storeId, terminalId), ms)
  }

  /** Every lane's last heartbeat (the store's admin: `fleet`). */
  listHeartbeatsRaw(ms: number): Promise<KeyRecord[]> {
    return this.listKeys(FLEET_BUCKET, ms)
  }

  /** Every fence in the store's bucket (the store's admin: `fleet`). */
  listFencesRaw(ms: number): Promise<KeyRecord[]> {
    return this.listKeys(FENCE_BUCKET, ms)
  }

  /** The enrolment certificates a terminal put, newest first (the store's admin: the rescue). */
  async readEnrolmentHistory(terminalId: string, ms: number): Promise<Uint8Array[]> {
    const stream = bucketStream(ENROL_BUCKET)
    const subject = bucketSubject(ENROL_BUCKET, terminalKey(this.settings.storeId, terminalId))
    const jsm = await this.manager(ms)
    let count: number
    try {
      count = (await this.answered(() => jsm.streams.info(stream, { subjects_filter: subject }), ms)).state.subjects?.[subject] ?? 0
    } catch (error) {
      // No bucket yet: no terminal of this store ever enrolled.
      if (isNotFound(error)) return []
      throw error
    }
    const records = await this.readStream(stream, subject, count, ms)
    return records
      .filter((record) => !isDeleted(record.headers) && record.data.length > 0)
      .map((record) => record.data)
      .reverse()
  }

  private async readKey(bucket: BucketName, key: string, ms: number): Promise<KeyRecord | undefined> {
    const jsm = await this.manager(ms)
    try {
      const message = await this.answered(
        () => jsm.streams.getMessage(bucketStream(bucket), { last_by_subj: bucketSubject(bucket, key) }),
        ms,
      )
      if (!message || isDeleted(message.header)) return undefined
      return { key, raw: new Uint8Array(message.data), revision: message.seq, at: message.time.getTime() }
    } catch (error) {
      if (isNotFound(error)) return undefined
      throw error
    }
  }

  private async listKeys(bucket: BucketName, ms: number): Promise<KeyRecord[]> {
    const jsm = await this.manager(ms)
    const prefix = `$KV.${bucket}.`
    let subjects: string[]
    try {
      subjects = Object.keys(
        (await this.answered(() => jsm.streams.info(bucketStream(bucket), { subjects_filter: `${prefix}>` }), ms)).state.subjects ?? {},
      )
    } catch (error) {
      if (isNotFound(error)) return []
      throw error
    }
    const out: KeyRecord[] = []
    for (const subject of subjects.sort()) {
      const found = await this.readKey(bucket, subject.slice(prefix.length), ms)
      if (found) out.push(found)
    }
    return out
  }

  /**
   * A JetStream API call answered within `ms`, asked again while no server answers it, for at most
   * `electionMs` more (settings.electionMs): the two servers left of a three-server store elect a
   * new leader for a stream whose leader was lost, and until then nobody answers for that stream
   * (JetStream lets the leader alone answer). A call that fails otherwise (not found, refused) is not
   * asked again. Past that time, the words say what a manager can check.
   */
  async answered<T>(call: () => Promise<T>, ms: number): Promise<T> {
    const electionMs = this.settings.electionMs ?? 0
    const until = this.now() + electionMs
    for (;;) {
      try {
        return await withTimeout(call(), ms, NO_ANSWER)
      } catch (error) {
        if (this.closed || !isUnanswered(error)) throw error
        if (electionMs <= 0) throw error
        if (this.now() >= until)
          throw new PosError(
            'STORE_UNAVAILABLE',
            `the store servers did not answer for ${Math.round((electionMs + ms) / 1000)} seconds. When one server of a three-server store is lost, the two left first choose which of them answers for each stream, which takes seconds; this took longer, so a second server is down or out of reach. Check the store's servers (docs/store.md), then try again: nothing was lost`,
            { cause: error },
          )
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
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

const NO_ANSWER = 'the store server did not answer'

/** A key-value delete or purge marker: the key has no value. */
function isDeleted(headers: MsgHdrs | undefined): boolean {
  const operation = headers?.get(KV_OPERATION)
  return operation === 'DEL' || operation === 'PURGE'
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && /timeout/i.test(`${error.name} ${error.message}`)
}

/** JetStream's "JetStream system temporarily unavailable" (JSClusterNotAvailErr): a group without a leader yet. */
const CLUSTER_NOT_AVAILABLE = 10008

/**
 * No server answered in time, none listens yet, or the one that answered has no leader for the
 * stream yet: what an election of a stream's leader looks like.
 */
function isUnanswered(error: unknown): boolean {
  if (isTimeout(error) || isNoResponders(error)) return true
  if (error instanceof PosError) return error.code === 'STORE_UNAVAILABLE'
  const api = error as { code?: unknown; status?: unknown; message?: unknown }
  return api.code === CLUSTER_NOT_AVAILABLE || (api.status === 503 && /temporarily unavailable/i.test(String(api.message)))
}

function isNoResponders(error: unknown): boolean {
  for (let at: unknown = error; at instanceof Error; at = at.cause)
    if (/no responders|503/i.test(`${at.name} ${at.message}`) || (at as { code?: unknown }).code === '503') return true
  return false
}

/**
 * The settings of the store's admin credential (`--store-admin <seed file>`): the lane's store
 * server and store, with the admin's NKey instead of the lane's credentials and no lane of its own.
 */
export function adminConnectionSettings<T extends Omit<StoreConnectionSettings, 'name'>>(settings: T, adminSeed: string): T {
  const seed = adminSeed.trim()
  if (!/^SU[A-Z2-7]{56}$/.test(seed))
    throw new PosError('CONFIG_INVALID', "the store admin's seed file does not hold a user NKey seed (a line starting with SU)")
  return { ...settings, nkeySeed: seed, user: undefined, password: undefined, terminalId: undefined }
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
