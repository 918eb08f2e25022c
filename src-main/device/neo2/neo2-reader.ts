/**
 * `CardReader` over a NEO 2 on a serial port: transport (`ReaderLink` over a `ReaderTransport`) →
 * framing (`Neo2Framer`) → commands (`Neo2Channel` and the sale flows). docs/device-protocol.md §7.
 *
 * Never hang the counter: when the link drops mid-sale, outstanding commands fail at once, so
 * readCard resolves `failed` and completeCard rejects; on reconnect the reader is told 05-01 (cancel
 * whatever it was doing) and the engine hears `interrupted` for the sale it must reconcile.
 */
import type {
  CardCompletion,
  CardReader,
  DeviceEvent,
  DeviceStatus,
  HostAnswerForCard,
  ReadCardRequest,
  ReadCardResult,
  ReadExtension,
} from '../card-reader'
import { CARD_READ_EXTENSION } from '../card-reader'
import { completeContact } from './neo2-emv-flow'
import { readCardFlow } from './neo2-read-flow'
import { cancelPinRequest, cancelRequest } from './neo2-requests'
import type { FlowContext, SaleSession } from './neo2-session'
import { newSession } from './neo2-session'
import { Neo2Connection } from './neo2-connection'
import type { Neo2ReaderOptions } from './neo2-reader-options'
import { ReaderError } from '../reader-error'
import { describeReaderFailure } from './reader-failure'

export type { Neo2ReaderOptions } from './neo2-reader-options'

export class Neo2CardReader implements CardReader {
  private readonly connection: Neo2Connection
  private readonly ctx: FlowContext
  private session: SaleSession | undefined
  private closed = false

  constructor(options: Neo2ReaderOptions) {
    this.connection = new Neo2Connection(options, {
      activeSale: () => (this.session && !this.session.lost ? this.session : undefined),
      onSaleLost: (session, error) => {
        session.lost = error
      },
    })
    this.ctx = this.connection.flowContext
  }

  /** Creates the reader and makes the first connection attempt; it keeps trying in the background. */
  static async open(options: Neo2ReaderOptions): Promise<Neo2CardReader> {
    const reader = new Neo2CardReader(options)
    await reader.start()
    return reader
  }

  /** First connection attempt (events from it reach listeners added before). Resolves whatever its outcome. */
  async start(): Promise<void> {
    await this.connection.start()
  }

  /** Resolves once connected (and the reconnect cancel is done); rejects after `timeoutMs`. */
  whenConnected(timeoutMs = 10_000): Promise<void> {
    return this.connection.whenReady(timeoutMs)
  }

  async readCard(request: ReadCardRequest): Promise<ReadCardResult> {
    if (this.closed) return this.failed(new ReaderError('closed'))
    const previous = this.session
    // A chip sale the engine never completed (or one the link lost) is over once a new read starts.
    if (previous && (previous.phase === 'awaitingHost' || previous.lost)) await this.abandon(previous)
    if (this.session) return this.failed(new ReaderError('deviceBusy'))
    if (!this.connection.ready) return this.failed(new ReaderError('deviceDisconnected'))
    const session = newSession(request.purpose)
    this.session = session
    let result: ReadCardResult | undefined
    let thrown: unknown
    try {
      result = await readCardFlow(this.ctx, session, request)
    } catch (error) {
      thrown = error
    }
    // A lost link wins (a swipe read in full before the loss still counts); then the cashier's cancel.
    if (session.lost && (result?.kind !== 'card' || session.emvOpen)) result = this.failed(session.lost)
    else if (session.cancelRequested && (result === undefined || result.kind === 'card')) result = { kind: 'cancelled' }
    else if (result === undefined) result = this.failed(thrown)
    // A void read only identifies the card: no second dialogue follows, so its chip transaction closes now (D7.26).
    if (result.kind === 'card' && session.emvOpen && request.purpose === 'purchase') this.awaitHost(session)
    else this.end(session, result.kind !== 'card' ? result.kind !== 'timeout' : session.emvOpen)
    return result
  }

  extendRead(): ReadExtension | undefined {
    const wait = this.session?.cardWait
    if (!wait || !wait.waiting || this.session?.cancelRequested || wait.extensions >= CARD_READ_EXTENSION.times) return undefined
    wait.extensions += 1
    wait.expiresAt += CARD_READ_EXTENSION.seconds * 1000
    // The reader keeps listening until its own timeout; the read flow then listens again until the new end.
    const extensionsLeft = CARD_READ_EXTENSION.times - wait.extensions
    this.connection.emit({ type: 'waitingForCard', prompt: wait.prompt, expiresAt: wait.expiresAt, extensionsLeft })
    return { expiresAt: wait.expiresAt, extensionsLeft }
  }

  async completeCard(answer: HostAnswerForCard): Promise<CardCompletion> {
    const session = this.session
    if (!session) return { decision: 'none' }
    if (session.lost) {
      this.session = undefined
      throw session.lost
    }
    if (session.phase !== 'awaitingHost') throw new ReaderError('deviceBusy', 'completeCard during a read')
    session.phase = 'completing'
    try {
      return await completeContact(this.ctx, session, answer)
    } catch (error) {
      throw session.lost ?? error
    } finally {
      this.end(session, session.emvOpen)
    }
  }

  async cancel(): Promise<void> {
    const session = this.session
    if (!session) return
    if (session.lost) {
      this.session = undefined
      return
    }
    session.cancelRequested = true
    if (!this.connection.ready) return
    const t = this.ctx.timeouts
    const outstanding = this.connection.channel.outstanding
    try {
      if (outstanding === '62-01') await this.connection.channel.interrupt(cancelPinRequest(t))
      else if (outstanding !== undefined && outstanding !== '05-01') {
        session.cancelSent = true
        await this.connection.channel.interrupt(cancelRequest(t))
      } else if (session.phase === 'awaitingHost') {
        session.cancelSent = true
        this.session = undefined
        await this.connection.channel.send(cancelRequest(t))
      }
    } catch (error) {
      this.connection.log.warn({ error: describeReaderFailure(error).code }, 'card reader cancel failed')
    }
  }

  onEvent(listener: (event: DeviceEvent) => void): () => void {
    return this.connection.onEvent(listener)
  }

  status(): DeviceStatus {
    const status: DeviceStatus = { connected: this.connection.ready, busy: this.session !== undefined && !this.session.lost }
    const port = this.connection.port
    if (port !== undefined) status.port = port
    return status
  }

  async close(): Promise<void> {
    if (this.closed) return
    if (this.session && !this.session.lost) await this.cancel()
    this.closed = true
    this.session = undefined
    await this.connection.close()
  }

  private failed(error: unknown): ReadCardResult {
    const failure = describeReaderFailure(error)
    // Error messages of the device domain never quote card data (../reader-error.ts), so the detail is loggable.
    this.connection.log.warn({ code: failure.code, detail: error instanceof Error ? error.message : String(error) }, 'card read failed')
    if (failure.code !== 'deviceDisconnected') this.connection.emit({ type: 'error', code: failure.code, message: failure.message })
    return { kind: 'failed', code: failure.code, message: failure.message }
  }

  /** Ends the sale on the device; a 05-01 clean-up unless one went out already or the link is gone. */
  private end(session: SaleSession, cleanUp: boolean): void {
    if (this.session === session) this.session = undefined
    if (cleanUp && !session.lost && !session.cancelSent) this.connection.cancelInBackground('clean-up')
  }

  /**
   * The chip card waits for completeCard. The reader gives up after the DFEF3C next-command timeout
   * (D7.2), so the driver does too: a sale the engine never completes must not keep the reader busy.
   */
  private awaitHost(session: SaleSession): void {
    session.phase = 'awaitingHost'
    const timer = setTimeout(() => {
      if (this.session === session && session.phase === 'awaitingHost') void this.abandon(session)
    }, this.ctx.nextCommandTimeoutSeconds * 1000)
    timer.unref?.()
  }

  private async abandon(session: SaleSession): Promise<void> {
    this.session = undefined
    if (!session.lost && session.emvOpen && this.connection.ready)
      await this.connection.channel.send(cancelRequest(this.ctx.timeouts)).catch(() => undefined)
  }
}
