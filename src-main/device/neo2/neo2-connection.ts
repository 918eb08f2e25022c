/**
 * The NEO 2 driver's plumbing: link (open, reconnect with backoff) → one framer per connection →
 * command channel, plus the device events, the idle heartbeat and what happens around a reconnect
 * (docs/device-protocol.md §7 D7.16, D7.17, D7.22; docs/card-reader.md §6 "Disconnect"):
 * - link lost: the sale in progress is marked lost, outstanding commands fail at once, then
 *   `connection: disconnected` and `reconnecting`;
 * - link back: 05-01 first (the reader may still run the old transaction), then `connected`, then
 *   `interrupted` for the lost sale;
 * - 14-01 boot notification during a sale: the reader forgot it, so the sale is lost and `interrupted`;
 * - idle: 18-01 Ping every `heartbeatMs`; no answer → the link is declared dead and reconnected,
 *   because `close` may never fire on an unplug (serialport issue #2351).
 */
import type { DeviceEvent } from '../card-reader'
import { Neo2Channel } from './neo2-channel'
import { Neo2Framer } from './neo2-framer'
import { uiEventOf } from './neo2-responses'
import { cancelRequest, DEFAULT_NEO2_TIMEOUTS, pingRequest } from './neo2-requests'
import type { FlowContext, SaleSession } from './neo2-session'
import { flowContextFor } from './neo2-reader-options'
import type { Neo2ReaderOptions } from './neo2-reader-options'
import { ReaderError } from '../reader-error'
import { describeReaderFailure } from './reader-failure'
import { ReaderLink } from './reader-link'
import type { LinkState } from './reader-link'
import type { ReaderLog } from './reader-log'
import { silentReaderLog } from './reader-log'

export interface SaleHooks {
  activeSale(): SaleSession | undefined
  onSaleLost(session: SaleSession, error: ReaderError): void
}

export class Neo2Connection {
  readonly channel: Neo2Channel
  readonly flowContext: FlowContext
  readonly log: ReaderLog
  private readonly link: ReaderLink
  private readonly listeners = new Set<(event: DeviceEvent) => void>()
  private readonly readyWaiters = new Set<() => void>()
  private framer: Neo2Framer | undefined
  private interrupted: 'purchase' | 'void' | undefined
  private isReady = false
  private closed = false
  private heartbeat: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly options: Neo2ReaderOptions,
    private readonly sale: SaleHooks,
  ) {
    this.log = options.log ?? silentReaderLog
    const timeouts = { ...DEFAULT_NEO2_TIMEOUTS, ...options.timeouts }
    this.link = new ReaderLink(options.transport, { ...(options.backoff ? { backoff: options.backoff } : {}), log: this.log })
    this.channel = new Neo2Channel({
      write: (bytes) => this.write(bytes),
      onUiEvent: (data) => {
        const event = uiEventOf(data)
        if (event) this.emit(event)
      },
      onBoot: () => this.rebooted(),
      log: this.log,
      abortGraceMs: timeouts.abortGraceMs,
    })
    this.flowContext = flowContextFor(options, timeouts, this.channel, (event) => this.emit(event))
    this.link.onData((chunk) => this.framer?.write(chunk))
    this.link.onState((state) => void this.linkState(state))
  }

  /** Connected, and the reconnect cancel is done: commands may go out. */
  get ready(): boolean {
    return this.isReady
  }

  get port(): string | undefined {
    return this.link.path
  }

  async start(): Promise<void> {
    await this.link.start()
  }

  whenReady(timeoutMs: number): Promise<void> {
    if (this.isReady) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readyWaiters.delete(done)
        reject(new ReaderError('deviceDisconnected', `not connected within ${timeoutMs} ms`))
      }, timeoutMs)
      const done = (): void => {
        clearTimeout(timer)
        resolve()
      }
      this.readyWaiters.add(done)
    })
  }

  onEvent(listener: (event: DeviceEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit(event: DeviceEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (error) {
        this.log.warn({ event: event.type, error: error instanceof Error ? error.message : String(error) }, 'device event listener failed')
      }
    }
  }

  cancelInBackground(reason: string): void {
    if (!this.isReady) return
    this.channel
      .send(cancelRequest(this.flowContext.timeouts))
      .catch((error: unknown) => this.log.warn({ reason, error: describeReaderFailure(error).code }, 'card reader cancel failed'))
  }

  async close(): Promise<void> {
    this.closed = true
    this.isReady = false
    if (this.heartbeat) clearTimeout(this.heartbeat)
    this.channel.failAll(new ReaderError('closed'))
    await this.link.close()
    this.framer?.destroy()
    this.framer = undefined
  }

  private async linkState(state: LinkState): Promise<void> {
    if (this.closed) return
    const port = this.link.path
    const connection = (value: 'connected' | 'disconnected' | 'reconnecting'): DeviceEvent => ({
      type: 'connection',
      state: value,
      ...(port ? { port } : {}),
    })
    if (state === 'reconnecting') return this.emit(connection('reconnecting'))
    if (state === 'disconnected') {
      this.isReady = false
      this.framer?.destroy()
      this.framer = undefined
      this.loseSale(new ReaderError('deviceDisconnected'))
      return this.emit(connection('disconnected'))
    }
    this.framer = this.newFramer()
    try {
      await this.channel.send(cancelRequest(this.flowContext.timeouts))
    } catch (error) {
      this.log.warn({ error: describeReaderFailure(error).code }, 'cancel after connecting failed')
    }
    if (!this.link.connected || this.closed) return
    this.isReady = true
    this.emit(connection('connected'))
    const purpose = this.interrupted
    this.interrupted = undefined
    if (purpose) this.emit({ type: 'interrupted', purpose })
    for (const done of this.readyWaiters) done()
    this.readyWaiters.clear()
    this.scheduleHeartbeat()
  }

  /**
   * A write can fail (EIO) before the port reports its close: that is the same cable pull, so the sale
   * is lost now, before its flow sees the error, and the link is dropped to start reconnecting.
   */
  private async write(bytes: Buffer): Promise<void> {
    try {
      await this.link.write(bytes)
    } catch (error) {
      if (error instanceof ReaderError && error.code === 'deviceDisconnected' && this.link.connected) {
        this.loseSale(error)
        void this.link.markDead('write failed')
      }
      throw error
    }
  }

  private loseSale(error: ReaderError): 'purchase' | 'void' | undefined {
    const session = this.sale.activeSale()
    if (session) {
      this.sale.onSaleLost(session, error)
      this.interrupted = session.purpose
    }
    this.channel.failAll(error)
    return session?.purpose
  }

  private rebooted(): void {
    this.log.info({ port: this.link.path }, 'card reader boot notification')
    if (!this.sale.activeSale()) return
    const purpose = this.loseSale(new ReaderError('deviceRestarted'))
    this.interrupted = undefined
    if (purpose) this.emit({ type: 'interrupted', purpose })
  }

  private newFramer(): Neo2Framer {
    this.framer?.destroy()
    const framer = new Neo2Framer({ reads: 'response', ...this.options.framer })
    framer.on('data', (frame) => this.channel.receive(frame))
    framer.onBadFrame((bad) => this.channel.badFrame(bad))
    framer.on('error', (error) => this.log.warn({ error: error.message }, 'card reader framer error'))
    return framer
  }

  private scheduleHeartbeat(): void {
    const every = this.options.heartbeatMs ?? 5_000
    if (every <= 0 || this.closed) return
    if (this.heartbeat) clearTimeout(this.heartbeat)
    this.heartbeat = setTimeout(() => void this.beat(), every)
    this.heartbeat.unref?.()
  }

  private async beat(): Promise<void> {
    if (this.closed || !this.isReady) return
    if (!this.sale.activeSale() && this.channel.outstanding === undefined) {
      try {
        await this.channel.send(pingRequest(this.flowContext.timeouts))
      } catch (error) {
        if (error instanceof ReaderError && error.code === 'deviceNotResponding')
          return this.link.markDead('no answer to the heartbeat ping')
      }
    }
    this.scheduleHeartbeat()
  }
}
