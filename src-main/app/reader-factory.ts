/**
 * Which card reader a runtime gets: in production the NEO 2 driver on the configured (or discovered)
 * serial port; in training mode the simulated NEO 2 PIN pad, on a real pty pair when socat is
 * installed (the same serial path a real reader uses), otherwise on an in-process mock serial port.
 */
import { Neo2CardReader, readerPortResolver, SerialReaderTransport } from '../device'
import { createMockPinpadSim, DEFAULT_TRAINING_CARD, startPtyPinpadSim, TEST_CARD_NAMES, TEST_CARDS, type PinpadSim } from '../training'
import type { ReaderFactory, ReaderHandle } from './agent'
import type { AgentConfig } from '../config'
import type { Runtime } from './runtime'
import { commandOnPath } from './command-on-path'

/** How fast the simulated customer is: when the default card comes, how long a read and a PIN take (ms). */
export interface TrainingPace {
  autoPresentMs: number
  cardReadMs: number
  pinEntryMs: number
}

/**
 * Human-paced: the cashier sees each prompt. The default card comes by itself only for a POS's sale (an
 * integrator trying one with nobody at the counter); a counter's sale waits for the trainee's pick.
 */
export const TRAINING_PACE: TrainingPace = { autoPresentMs: 2_500, cardReadMs: 500, pinEntryMs: 1_200 }

/** The reader for a runtime; in training mode the simulated PIN pad at `pace` (benchmarks run it fast). */
export function readerFactory(pace: TrainingPace = TRAINING_PACE): ReaderFactory {
  return async (runtime, config) => (runtime.mode === 'training' ? simulatedReader(runtime, config, pace) : serialReader(runtime, config))
}

export const defaultReaderFactory: ReaderFactory = readerFactory()

async function serialReader(runtime: Runtime, config: AgentConfig): Promise<ReaderHandle> {
  const { device } = config
  const path =
    device.path ??
    readerPortResolver({
      ...(device.vendorId ? { vendorIds: [device.vendorId.toLowerCase()] } : {}),
      ...(device.productId ? { productIds: [device.productId.toLowerCase()] } : {}),
    })
  const transport = new SerialReaderTransport({
    path,
    baudRate: device.baudRate,
    dataBits: device.dataBits,
    parity: device.parity,
    stopBits: device.stopBits,
  })
  const reader = await Neo2CardReader.open({
    transport,
    fallbackAllowed: device.allowFallback,
    log: runtime.logger,
  })
  return { reader, trainingCards: [], close: () => reader.close() }
}

async function simulatedReader(runtime: Runtime, config: AgentConfig, pace: TrainingPace): Promise<ReaderHandle> {
  const options = { ...(config.training.autoPresentCard ? { defaultCard: DEFAULT_TRAINING_CARD } : {}), ...pace }
  let sim: PinpadSim
  let transport: SerialReaderTransport
  if (commandOnPath('socat')) {
    const pty = await startPtyPinpadSim(options)
    sim = pty
    transport = new SerialReaderTransport({ path: pty.hostPath, baudRate: config.device.baudRate })
    runtime.logger.info({ port: pty.hostPath }, 'training: simulated PIN pad on a pty pair')
  } else {
    const mock = createMockPinpadSim(options)
    sim = mock
    transport = new SerialReaderTransport({ path: mock.hostPath, createPort: mock.createPort })
    runtime.logger.info('training: simulated PIN pad in process (install socat to run it on a pty)')
  }
  const reader = await Neo2CardReader.open({
    transport,
    fallbackAllowed: config.device.allowFallback,
    log: runtime.logger,
  })
  return {
    reader,
    trainingCards: TEST_CARD_NAMES.map((name) => ({ name, ...TEST_CARDS[name].trainee })),
    presentTestCard: (name) => sim.present(name),
    autoPresentTestCard: (on) => sim.emulator.autoPresent(on),
    close: async () => {
      await reader.close()
      await sim.close()
    },
  }
}
