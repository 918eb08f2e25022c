/**
 * The training domain's door: the stand-ins training mode runs on, a training host for the gateway
 * and a simulated NEO 2 PIN pad. Each has a fuller door of its own (host/, pinpad/) for tests.
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
