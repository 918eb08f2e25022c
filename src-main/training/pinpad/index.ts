/**
 * The simulated NEO 2 PIN pad's public door: an emulator that answers the NEO 2 protocol with named
 * test cards and real DUKPT PIN blocks, on a socat pty pair or on serialport's MockBinding
 * (docs/device-protocol.md §7 describes the protocol it answers).
 */
export { createMockPinpadSim, startPtyPinpadSim } from './pinpad-sim'
export type { MockPinpadSim, PinpadSim, PtyPinpadSim, PtyPinpadSimOptions } from './pinpad-sim'
export { Neo2Emulator } from './neo2-emulator'
export type { EmulatorOptions, ReceivedCommand, ScriptedActivation } from './neo2-emulator'
export { FAILURE_RECORD_LAYOUTS } from './sim-card-data'
export type { FailureRecord, FailureRecordLayout } from './sim-card-data'
export { PINPAD_FAULT_KINDS } from './emulator-faults'
export type { PinpadFault, PinpadFaultKind } from './emulator-faults'
export { createPtyPair, PtyPairError } from './pty-pair'
export type { PtyPair, PtyPairOptions } from './pty-pair'
export { DEFAULT_TRAINING_CARD, isTestCardName, SIM_STEPS, TEST_CARD_NAMES, TEST_CARDS } from './test-cards'
export type { SimCard, SimStep, TestCardName } from './test-cards'
export { SIM_PIN_KEYS, SimPinEncryptor } from './pin-encryptor'
export type { EncryptedPinBlock } from './pin-encryptor'
