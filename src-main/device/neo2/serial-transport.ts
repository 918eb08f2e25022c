/**
 * Transport layer: bytes to and from the reader, nothing about frames. `ReaderTransport` is the role
 * (docs/architecture.md "role-named interface"); `SerialReaderTransport` the node-serialport adapter.
 *
 * - One port lifetime per `open()`; the path may be a function so each (re)open finds the reader
 *   again (`discoverReaderPort`): COM numbers and /dev/ttyUSBn names change on replug
 *   (docs/card-reader.md §6 "Disconnect").
 * - A port that closes on its own (serialport's DisconnectedError, or EIO on a pty whose other end
 *   died) is reported through `onClose` with `disconnected: true`. Reconnecting is the job of
 *   `ReaderLink`: serialport has none (issue #648).
 * - Settings default to the NEO 2's 115200 8N1, no flow control (IDG p.39); 7E1 pads exist
 *   (docs/card-reader.md §1.1), so all are configurable.
 * - The port factory is injected: production opens a real `SerialPort`, tests pass `SerialPortMock`.
 */
import { SerialPort } from 'serialport'
import { ReaderError } from '../reader-error'

export interface TransportClosed {
  /** True when the port went away on its own (unplugged, other end gone), false after `close()`. */
  disconnected: boolean
  reason?: string
}

export interface ReaderTransport {
  /** The path of the open port, or of the last one opened. */
  readonly path: string | undefined
  readonly isOpen: boolean
  open(): Promise<void>
  close(): Promise<void>
  write(bytes: Uint8Array): Promise<void>
  onData(listener: (chunk: Buffer) => void): () => void
  onClose(listener: (event: TransportClosed) => void): () => void
}

export interface SerialSettings {
  baudRate: number
  dataBits: 5 | 6 | 7 | 8
  parity: 'none' | 'even' | 'odd' | 'mark' | 'space'
  stopBits: 1 | 1.5 | 2
}

/** IDG p.39 §2.7.1: "115200 baud unless otherwise specified", 8N1. */
export const NEO2_SERIAL_SETTINGS: SerialSettings = { baudRate: 115200, dataBits: 8, parity: 'none', stopBits: 1 }

export interface PortOpenOptions extends SerialSettings {
  path: string
  autoOpen: false
}

/** The part of a serialport stream the transport uses; `SerialPort` and `SerialPortMock` both fit. */
export interface SerialPortLike {
  readonly isOpen: boolean
  open(callback: (error: Error | null) => void): void
  close(callback?: (error: Error | null) => void): void
  write(data: Buffer, callback?: (error: Error | null | undefined) => void): boolean
  drain(callback?: (error: Error | null) => void): void
  on(event: 'data', listener: (chunk: Buffer) => void): this
  on(event: 'close', listener: (error?: (Error & { disconnected?: boolean }) | null) => void): this
  on(event: 'error', listener: (error: Error) => void): this
}

export type PortFactory = (options: PortOpenOptions) => SerialPortLike

export const createSerialPort: PortFactory = (options) => new SerialPort(options)

export interface SerialReaderTransportOptions extends Partial<SerialSettings> {
  path: string | (() => Promise<string>)
  createPort?: PortFactory
}

type Listener<T> = (value: T) => void

export class SerialReaderTransport implements ReaderTransport {
  private port: SerialPortLike | undefined
  private lastPath: string | undefined
  private closing = false
  private readonly dataListeners = new Set<Listener<Buffer>>()
  private readonly closeListeners = new Set<Listener<TransportClosed>>()
  private readonly settings: SerialSettings

  constructor(private readonly options: SerialReaderTransportOptions) {
    this.settings = {
      baudRate: options.baudRate ?? NEO2_SERIAL_SETTINGS.baudRate,
      dataBits: options.dataBits ?? NEO2_SERIAL_SETTINGS.dataBits,
      parity: options.parity ?? NEO2_SERIAL_SETTINGS.parity,
      stopBits: options.stopBits ?? NEO2_SERIAL_SETTINGS.stopBits,
    }
  }

  get path(): string | undefined {
    return this.lastPath
  }

  get isOpen(): boolean {
    return this.port?.isOpen === true
  }

  async open(): Promise<void> {
    if (this.port) return
    const path = typeof this.options.path === 'function' ? await this.options.path() : this.options.path
    const port = (this.options.createPort ?? createSerialPort)({ path, ...this.settings, autoOpen: false })
    this.lastPath = path
    port.on('data', (chunk) => {
      for (const listener of this.dataListeners) listener(chunk)
    })
    // Without an 'error' listener a stream error would crash the process; the close that follows is what counts.
    port.on('error', () => undefined)
    port.on('close', (error) => {
      if (this.port !== port) return
      this.port = undefined
      const event: TransportClosed = { disconnected: error?.disconnected === true || !this.closing }
      if (error) event.reason = error.message
      this.closing = false
      for (const listener of this.closeListeners) listener(event)
    })
    this.port = port
    try {
      await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())))
    } catch (error) {
      this.port = undefined
      throw error
    }
  }

  async close(): Promise<void> {
    const port = this.port
    if (!port) return
    this.closing = true
    if (!port.isOpen) {
      this.port = undefined
      this.closing = false
      return
    }
    await new Promise<void>((resolve) => port.close(() => resolve()))
    // A failed close emits no 'close' event: forget the port anyway so the next open() starts afresh.
    if (this.port === port) {
      this.port = undefined
      this.closing = false
      for (const listener of this.closeListeners) listener({ disconnected: false, reason: 'close failed' })
    }
  }

  /** Resolves once the bytes are handed to the OS (`drain`), so response timers start after sending (docs/card-reader.md §1.4). */
  async write(bytes: Uint8Array): Promise<void> {
    const port = this.port
    if (!port?.isOpen) throw new ReaderError('deviceDisconnected', 'port not open')
    let stopWatching = (): void => undefined
    try {
      await new Promise<void>((resolve, reject) => {
        // serialport's drain() waits for a reopen that may never come when the port closes meanwhile.
        stopWatching = this.onClose(() => reject(new ReaderError('deviceDisconnected', 'port closed while writing')))
        port.write(Buffer.from(bytes), (error) => {
          if (error) reject(new ReaderError('deviceDisconnected', `write failed: ${error.message}`))
        })
        port.drain((error) => (error ? reject(new ReaderError('deviceDisconnected', `drain failed: ${error.message}`)) : resolve()))
      })
    } finally {
      stopWatching()
    }
  }

  onData(listener: (chunk: Buffer) => void): () => void {
    this.dataListeners.add(listener)
    return () => this.dataListeners.delete(listener)
  }

  onClose(listener: (event: TransportClosed) => void): () => void {
    this.closeListeners.add(listener)
    return () => this.closeListeners.delete(listener)
  }
}
