/**
 * The store domain's public door: the store's NATS JetStream server holds a sealed copy of every
 * queued item (the queue replica), fences and rescues a dead terminal's queue, and keeps every
 * lane's heartbeat for the fleet view (docs/store.md).
 */
export {
  queueCopyOf,
  queueTombstoneOf,
  type CopiedItem,
  type CopyKey,
  type CopyRecord,
  type QueueCopy,
  type QueueReplica,
  type QueueTombstone,
} from './queue-replica'
export { ReplicaSync, type OwedItem, type OwedQueue, type ReplicaState } from './replica-sync'
export { NOT_ENROLLED_WORDS, StoreLink, type StoreAlarm, type StoreLinkSettings, type TerminalStatus } from './store-link'
export {
  adminConnectionSettings,
  StoreConnection,
  type KeyRecord,
  type StoreConnectionSettings,
  type StoredRecord,
} from './store-connection'
export { fencedWords, fenceRecordName, fenceTerminal, liftFence, parseFence, readFence, readFenceEntry, type FenceRecord } from './fence'
export { fleetTable, fleetView, parseHeartbeat, storeCopyWords, readFleet, type Heartbeat, type LaneRecords, type LaneView } from './fleet'
export {
  lateCopyWaitMs,
  readRescueQueue,
  rescueTerminal,
  type RescueItem,
  type RescueLine,
  type RescueReport,
  type RescueResult,
  type RescueSender,
} from './rescue'
export { maskedCardOf, rescueRulesOf, type RescueRules } from './rescue-rules'
export {
  readLastHeartbeat,
  lateCopyMsOf,
  rescueAfterSecondsOf,
  rescueCsv,
  runRescue,
  type LastHeartbeat,
  type RescueAuditEntry,
  type RescueRunInput,
  type RescueRunResult,
} from './rescue-run'
export { liftFenceRun, type LiftFenceRunInput } from './lift-fence'
export { enrolTerminal, type EnrolInput } from './enrol-terminal'
export { passphraseProblem } from './passphrase-rule'
export {
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  recoveryPublicJwk,
  rewrapNote,
  wrapRecoveryKey,
  MIN_PASSPHRASE_LENGTH,
  type OpenedRecoveryKey,
  type RecoveryKeyPair,
  type X25519PrivateJwk,
  type X25519PublicJwk,
} from './recovery-key'
export { CopyOpener, CopySealer } from './sealed-copy'
export { ENROL_BUCKET, putEnrolment, readEnrolmentHistory } from './enrolment-history'
export {
  checkEnrolment,
  copyKeyAccount,
  enrolledKeys,
  ENROLMENT_FILE,
  isEnrolment,
  makeCopyKeyPair,
  makeEnrolment,
  readCopyKey,
  type EnrolmentCertificate,
} from './enrolment'
export {
  copySubject,
  FENCE_BUCKET,
  FLEET_BUCKET,
  terminalKey,
  storeOfKey,
  laneStreamName,
  laneInboxPrefix,
  laneName,
  legacyStreamName,
} from './store-names'
export {
  clusterConfigs,
  clusterNodesOf,
  lanePermissions,
  serverConfig,
  type ClusterInput,
  type ClusterNode,
  type LaneAccount,
  type ServerConfigInput,
} from './server-config'
export {
  classifyDurability,
  copyPanelWords,
  durableRequiredWords,
  hasSyncAlways,
  type CopyDurability,
  type DurabilityReading,
  type StoreFacts,
} from './durability'
export { installedServerVersion } from './server-version'
