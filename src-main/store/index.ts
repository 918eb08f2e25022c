/**
 * The store domain's public door: the store's NATS JetStream server holds a sealed copy of every
 * queued item (the queue replica), fences and rescues a dead terminal's queue, and keeps every
 * lane's heartbeat for the fleet view (docs/store.md).
 */
export type { CopyKey, QueueCopy, QueueReplica, QueueTombstone } from './queue-replica'
export { ReplicaSync, type OwedItem, type OwedQueue, type ReplicaState } from './replica-sync'
export { StoreLink, type StoreAlarm, type StoreLinkSettings, type TerminalStatus } from './store-link'
export { StoreConnection, type StoreConnectionSettings } from './store-connection'
export { fencedWords, fenceTerminal, liftFence, readFence, readFenceEntry, type FenceRecord } from './fence'
export { fleetTable, fleetView, type Heartbeat, type LaneView } from './fleet'
export { rescueCsv, rescueTerminal, type RescueAnswer, type RescueLine, type RescueReport, type RescueSender } from './rescue'
export { makeRecoveryKeyPair, openRecoveryPrivateKey, recoveryPublicJwk, MIN_PASSPHRASE_LENGTH, type RecoveryKeyPair } from './recovery-key'
export { CopyOpener, CopySealer } from './sealed-copy'
export { copySubject, FENCE_BUCKET, FLEET_BUCKET, terminalKey, storeOfKey, queueStreamName } from './store-names'
