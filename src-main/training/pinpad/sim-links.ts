/**
 * The two wires a simulated PIN pad can sit on:
 * - `PtyDeviceEnd`: the device end of a socat pty pair, opened with the real serialport bindings;
 * - `MockPinpadWire`: serialport's in-process MockBinding. The agent's port factory gets a
 *   `SerialPortMock` whose binding forwards writes to the emulator and receives its answers
 *   (`emitData`). The mock cannot unplug (docs/card-reader.md §6 "Mock limitations": closing rejects the
 *   read as *canceled*), so `unplug()` makes the pending read fail with a plain error, which serialport
 *   treats as a disconnect; opens then fail until `replug()`.
 */
import { SerialPort, SerialPortMock } from 'serialport'
import type { PortFactory, PortOpenOptions, SerialPortLike } from '../../device/neo2'
import type { Neo2Emulator } from './neo2-emulator'

export class PtyDeviceEnd {
  private constructor(private readonly port: SerialPort) {}

  static async open(path: string, emulator: Neo2Emulator, baudRate = 115200): Promise<PtyDeviceEnd> {
    const port = new SerialPort({ path, baudRate, autoOpen: false })
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())))
    port.on('error', () => undefined)
    port.on('data', (chunk: Buffer) => emulator.receive(chunk))
    port.on('close', () => emulator.detach())
    emulator.attach((bytes) => {
      if (port.isOpen) port.write(bytes)
    })
    return new PtyDeviceEnd(port)
  }

  async close(): Promise<void> {
    if (!this.port.isOpen) return
    await new Promise<void>((resolve) => this.port.close(() => resolve()))
  }
}

type MockBindingPort = NonNullable<SerialPortMock['port']>

export class MockPinpadWire {
  private plugged = true
  private unplugCurrent: ((error: Error) => void) | undefined

  constructor(
    readonly path: string,
    private readonly emulator: Neo2Emulator,
  ) {
    SerialPortMock.binding.createPort(path, { echo: false, record: false })
  }

  /** The agent's port factory (`SerialReaderTransport` option `createPort`). */
  readonly createPort: PortFactory = (options: PortOpenOptions): SerialPortLike => {
    // An unplugged reader has no port: point the mock at a path that does not exist, so open() fails.
    const port = new SerialPortMock({ ...options, path: this.plugged ? options.path : `${options.path}#unplugged` })
    port.once('open', () => {
      const binding = port.port
      if (binding) this.wire(port, binding)
    })
    return port
  }

  unplug(): void {
    this.plugged = false
    this.unplugCurrent?.(new Error('unplugged'))
    this.unplugCurrent = undefined
  }

  replug(): void {
    this.plugged = true
  }

  private wire(port: SerialPortMock, binding: MockBindingPort): void {
    const write = binding.write.bind(binding)
    binding.write = async (buffer: Buffer) => {
      await write(buffer)
      this.emulator.receive(Buffer.from(buffer))
    }
    const read = binding.read.bind(binding)
    let unplug: (error: Error) => void = () => undefined
    const unplugged = new Promise<never>((_, reject) => (unplug = reject))
    unplugged.catch(() => undefined)
    binding.read = (buffer: Buffer, offset: number, length: number) => Promise.race([read(buffer, offset, length), unplugged])
    this.unplugCurrent = unplug
    port.on('close', () => {
      if (this.unplugCurrent === unplug) this.unplugCurrent = undefined
      this.emulator.detach()
    })
    this.emulator.attach((bytes) => {
      if (binding.isOpen) binding.emitData(bytes)
    })
  }
}
