/**
 * Keeps a `ReaderTransport` open: the first open, and after every loss a reopen with exponential
 * backoff until it works (docs/card-reader.md §6 "Disconnect": serialport has no auto-reconnect, issue #648;
 * poll with backoff, then reopen). A loss is the port closing on its own, or `markDead()` when the
 * heartbeat finds the reader silent: `close` may never fire on a Windows unplug (issue #2351).
 *
 * States as the cashier sees them: `connected`, `disconnected` (once per loss), `reconnecting`
 * (while attempts run). What to do on reconnect (cancel, tell the engine) is the reader's job.
 */
import type { ReaderLog } from './reader-log'
import { silentReaderLog } from './reader-log'
import { ReaderError } from '../reader-error'
import type { ReaderTransport } from './serial-transport'

export type LinkState = 'connected' | 'disconnected' | 'reconnecting'

export interface BackoffOptions {
  initialMs: number
  maxMs: number
  factor: number
}

/** D7.17: first retry after 250 ms, doubling, at most every 5 s. */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 5_000, factor: 2 }

export function backoffDelay(attempt: number, backoff: BackoffOptions): number {
  return Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** Math.max(0, attempt))
}

export interface ReaderLinkOptions {
  backoff?: Partial<BackoffOptions>
  log?: ReaderLog
}

export class ReaderLink {
  private phase: 'idle' | 'connecting' | LinkState | 'closed' = 'idle'
  private attempts = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly backoff: BackoffOptions
  private readonly log: ReaderLog
  private readonly listeners = new Set<(state: LinkState) => void>()

  constructor(
    private readonly transport: ReaderTransport,
    options: ReaderLinkOptions = {},
  ) {
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff }
    this.log = options.log ?? silentReaderLog
    transport.onClose((event) => {
      if (this.phase !== 'connected') return
      this.log.warn({ port: transport.path, reason: event.reason, disconnected: event.disconnected }, 'card reader link lost')
      this.lost()
    })
  }

  get connected(): boolean {
    return this.phase === 'connected'
  }

  get path(): string | undefined {
    return this.transport.path
  }

  onState(listener: (state: LinkState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  onData(listener: (chunk: Buffer) => void): () => void {
    return this.transport.onData(listener)
  }

  /** First open attempt; on failure the reconnect loop takes over. Resolves true when connected. */
  async start(): Promise<boolean> {
    if (this.phase !== 'idle') return this.connected
    await this.attempt()
    return this.connected
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (!this.connected) throw new ReaderError('deviceDisconnected', 'link down')
    await this.transport.write(bytes)
  }

  /** The reader stopped answering on an open port: drop the port and reconnect as after an unplug. */
  async markDead(reason: string): Promise<void> {
    if (this.phase !== 'connected') return
    this.log.warn({ port: this.transport.path, reason }, 'card reader declared dead')
    // The transport reports the close, and its listener above runs the same path as an unplug.
    await this.transport.close().catch(() => undefined)
    if (this.phase === 'connected') this.lost()
  }

  async close(): Promise<void> {
    this.phase = 'closed'
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    await this.transport.close().catch(() => undefined)
  }

  private lost(): void {
    this.set('disconnected')
    this.attempts = 0
    this.set('reconnecting')
    this.schedule()
  }

  private schedule(): void {
    if (this.phase === 'closed') return
    const delay = backoffDelay(this.attempts, this.backoff)
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.attempt()
    }, delay)
    this.timer.unref?.()
  }

  private async attempt(): Promise<void> {
    if (this.phase === 'closed') return
    const before = this.phase
    this.phase = 'connecting'
    try {
      await this.transport.open()
    } catch (error) {
      if (this.isClosed()) return
      this.attempts++
      this.log.debug(
        { attempt: this.attempts, error: error instanceof Error ? error.message : String(error) },
        'card reader port not available',
      )
      if (before !== 'reconnecting') this.set('reconnecting')
      else this.phase = 'reconnecting'
      this.schedule()
      return
    }
    if (this.isClosed()) {
      await this.transport.close().catch(() => undefined)
      return
    }
    this.attempts = 0
    this.log.info({ port: this.transport.path }, 'card reader connected')
    this.set('connected')
  }

  /** A method, not an inline test: `phase` changes across the awaits above, which narrowing cannot see. */
  private isClosed(): boolean {
    return this.phase === 'closed'
  }

  private set(state: LinkState): void {
    this.phase = state
    for (const listener of this.listeners) listener(state)
  }
}
