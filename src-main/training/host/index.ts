/**
 * The training host's public door: an HTTPS stand-in for the offline host with deterministic
 * decisions (docs/gateway.md §D4), fault injection and a ledger of what it saw.
 */
export { startTrainingHost, type TrainingHost, type TrainingHostOptions } from './server'
export { parseFaultSpec, parseFault, FAULT_KINDS, type Fault, type FaultKind, type FaultRule, type FaultTarget } from './faults'
export type { LedgerEntry, LedgerSnapshot, PaymentView } from './ledger'
export { overCredited, creditedByPayment, heldMinor, type OverCredit } from './ledger-checks'
export type { PaymentStatus, Amount } from './host-state'
export { TLS_FILES } from '../../tls'
