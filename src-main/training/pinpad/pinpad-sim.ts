/**
 * Simulated NEO 2 PIN pads, ready to drive:
 * - `startPtyPinpadSim`: on a real socat pty pair; the agent opens `hostPath` like a USB-serial
 *   reader. `disconnect()` kills socat (cable pulled), `reconnect()` makes a new pair at the same
 *   link path (replugged).
 * - `createMockPinpadSim`: in-process on serialport's MockBinding; the agent's transport takes
 *   `createPort`. Same emulator, same faults; `disconnect()`/`reconnect()` unplug and replug.
 */
import { Neo2Emulator } from './neo2-emulator'
import type { EmulatorOptions } from './neo2-emulator'
import type { PinpadFault } from './emulator-faults'
import { createPtyPair } from './pty-pair'
import type { PtyPair } from './pty-pair'
import { MockPinpadWire, PtyDeviceEnd } from './sim-links'

export interface PinpadSim {
  readonly emulator: Neo2Emulator
  /** The path the agent opens. */
  readonly hostPath: string
  /** The customer presents a test card by name (test-cards.ts). */
  present(name: string): void
  fault(fault: PinpadFault, times?: number): void
  clearFaults(): void
  /** Pull the cable. */
  disconnect(): Promise<void>
  /** Plug it back in (same path). */
  reconnect(): Promise<void>
  close(): Promise<void>
}

export interface PtyPinpadSimOptions extends EmulatorOptions {
  /** Fixed path for the agent's end (a socat `link=`), so it survives `reconnect()`. */
  link?: string
  baudRate?: number
}

export interface PtyPinpadSim extends PinpadSim {
  /** socat's pid, for tests that check nothing is left running. */
  readonly socatPid: number
}

export async function startPtyPinpadSim(options: PtyPinpadSimOptions = {}): Promise<PtyPinpadSim> {
  const emulator = new Neo2Emulator(options)
  const hostLink = options.link
  let pair: PtyPair = await createPtyPair(hostLink ? { hostLink } : {})
  let device: PtyDeviceEnd | undefined
  try {
    device = await PtyDeviceEnd.open(pair.devicePath, emulator, options.baudRate)
  } catch (error) {
    await pair.close()
    throw error
  }
  const hostPath = pair.hostPath
  return {
    emulator,
    hostPath,
    get socatPid() {
      return pair.pid
    },
    present: (name) => emulator.present(name),
    fault: (fault, times) => emulator.fault(fault, times),
    clearFaults: () => emulator.faults.clear(),
    async disconnect() {
      await pair.kill('SIGKILL')
      await device?.close()
      device = undefined
      emulator.detach()
    },
    async reconnect() {
      if (!pair.exited) return
      pair = await createPtyPair(hostLink ? { hostLink } : {})
      device = await PtyDeviceEnd.open(pair.devicePath, emulator, options.baudRate)
    },
    async close() {
      emulator.detach()
      await device?.close()
      device = undefined
      await pair.close()
    },
  }
}

export interface MockPinpadSim extends PinpadSim {
  /** Pass to `SerialReaderTransport` as `createPort`, with `path: hostPath`. */
  readonly createPort: MockPinpadWire['createPort']
}

export function createMockPinpadSim(options: EmulatorOptions & { path?: string } = {}): MockPinpadSim {
  const emulator = new Neo2Emulator(options)
  const wire = new MockPinpadWire(options.path ?? '/dev/SIMULATED-NEO2', emulator)
  return {
    emulator,
    hostPath: wire.path,
    createPort: wire.createPort,
    present: (name) => emulator.present(name),
    fault: (fault, times) => emulator.fault(fault, times),
    clearFaults: () => emulator.faults.clear(),
    async disconnect() {
      wire.unplug()
    },
    async reconnect() {
      wire.replug()
    },
    async close() {
      wire.unplug()
      emulator.detach()
    },
  }
}
