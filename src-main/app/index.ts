/**
 * The composition root's door: it builds the agent from the configuration and ports. The command
 * line and the Electron shell start here; no domain imports it.
 */
export { engineSettings, startAgent, type ReaderFactory, type ReaderHandle, type RunningAgent } from './agent'
export { auditBrokenWords, composeEngine, type Engine, type EngineAlarm, type EnginePorts, type EngineSettings } from './compose'
export { endpointFromConfig, openHostClient, startEmbeddedTrainingHost, type HostConnection } from './host-connection'
export { defaultReaderFactory, readerFactory, TRAINING_PACE, type TrainingPace } from './reader-factory'
export { openRuntime, resolveDataDir, type Runtime, type RuntimeOptions } from './runtime'
export { startNexoEndpoint, type NexoEndpointOptions } from './nexo-endpoint'
export { startZvtEndpoint, ZVT_PASSWORD_ACCOUNT, type ZvtEndpoint, type ZvtEndpointOptions } from './zvt-endpoint'
export { checkHost, checkReader, checkSignature, signatureCheckId, type AddFinding, type CheckLevel, type Finding } from './terminal-checks'
export { auditFromCommandLine, auditTrailOnDemand, withOwnerService } from './audit-outside'
export { composeFirstRunSetup } from './setup-wiring'
export { checkAuditFile, parsePrintedHead, type AuditFileCheck, type PrintedHead } from './audit-check'
export { queueOfDataFolder } from './queue-check'
export { forceJournalMigration, type ForcedMigrationOutcome } from './forced-migration'
export { copyMaxAgeMs, storeCaPem } from './store-wiring'
export { checkStore } from './store-check'
export {
  dataKeyPresent,
  keepSmtpPassword,
  keychainStandIn,
  keychainState,
  productionKeychain,
  signingKeyStatus,
  trainingHostKeys,
  type SigningKeyStatus,
} from './owner-keychain'
export {
  sendByHand,
  signByHand,
  verifyByHand,
  type GatewayOutcome,
  type OperationKind,
  type SignInput,
  type SignType,
} from './gateway-by-hand'
export { keepStoreSecret, rescueSender, storeConnectionOf } from './store-outside'
