/**
 * The training domain's door: the stand-ins training mode runs on, a training host for the gateway,
 * a simulated NEO 2 PIN pad and a simulated receipt printer. Each has a fuller door of its own (host/,
 * pinpad/, printer/) for tests.
 */
export { parseFaultSpec, startTrainingHost, type TrainingHost } from './host'
export {
  createMockPinpadSim,
  DEFAULT_TRAINING_CARD,
  isTestCardName,
  startPtyPinpadSim,
  TEST_CARD_NAMES,
  TEST_CARDS,
  type PinpadSim,
  type TestCardName,
} from './pinpad'
export { startNetworkPrinterSim, startPrinterSim, type PrinterSim } from './printer'
