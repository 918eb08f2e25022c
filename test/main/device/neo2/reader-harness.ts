/** Builds a NEO 2 driver wired to a simulated PIN pad (in-process mock or pty), and records its events. */
import { Neo2CardReader, SerialReaderTransport } from '../../../../src-main/device/neo2'
import type { DeviceEvent, ReadCardRequest } from '../../../../src-main/device'
import type { Neo2ReaderOptions } from '../../../../src-main/device/neo2'
import { createMockPinpadSim } from '../../../../src-main/training/pinpad'
import type { EmulatorOptions, MockPinpadSim } from '../../../../src-main/training/pinpad'

/** Fast timings for tests: nothing here waits for a human. */
export const FAST_EMULATOR: EmulatorOptions = { cardReadMs: 5, pinEntryMs: 10 }

export const FAST_READER: Partial<Neo2ReaderOptions> = {
  heartbeatMs: 0,
  backoff: { initialMs: 20, maxMs: 200, factor: 2 },
  timeouts: { pingMs: 300, cancelMs: 500, activateMarginMs: 2_000, contactMs: 1_000, pinAckMs: 500, pinEntryMs: 2_000, abortGraceMs: 100 },
}

export const sale = (over: Partial<ReadCardRequest> = {}): ReadCardRequest => ({
  amountMinor: 1234,
  currency: 'EUR',
  purpose: 'purchase',
  timeoutSeconds: 10,
  ...over,
})

export class EventLog {
  readonly events: DeviceEvent[] = []
  private waiters: { match: (e: DeviceEvent) => boolean; resolve: (e: DeviceEvent) => void }[] = []

  readonly listener = (event: DeviceEvent): void => {
    this.events.push(event)
    for (const waiter of [...this.waiters]) {
      if (waiter.match(event)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1)
        waiter.resolve(event)
      }
    }
  }

  types(): string[] {
    return this.events.map((e) => (e.type === 'connection' ? `connection:${e.state}` : e.type))
  }

  /** Resolves with the first event (already seen or future) that matches. */
  waitFor(match: (e: DeviceEvent) => boolean, timeoutMs = 5_000): Promise<DeviceEvent> {
    const seen = this.events.find(match)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching device event within ${timeoutMs} ms; saw ${this.types().join(', ')}`)),
        timeoutMs,
      )
      this.waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) })
    })
  }

  clear(): void {
    this.events.length = 0
  }
}

export interface MockRig {
  sim: MockPinpadSim
  reader: Neo2CardReader
  log: EventLog
  close(): Promise<void>
}

let counter = 0

/** A connected driver on an in-process simulated PIN pad. */
export async function mockRig(emulator: EmulatorOptions = {}, reader: Partial<Neo2ReaderOptions> = {}): Promise<MockRig> {
  const sim = createMockPinpadSim({ ...FAST_EMULATOR, ...emulator, path: `/dev/SIM-NEO2-${process.pid}-${++counter}` })
  const log = new EventLog()
  const transport = new SerialReaderTransport({ path: sim.hostPath, createPort: sim.createPort })
  const driver = new Neo2CardReader({ ...FAST_READER, ...reader, transport })
  driver.onEvent(log.listener)
  await driver.start()
  await driver.whenConnected(5_000)
  return {
    sim,
    reader: driver,
    log,
    close: async () => {
      await driver.close()
      await sim.close()
    },
  }
}
