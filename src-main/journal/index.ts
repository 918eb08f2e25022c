/** The journal domain's public door. */
export * from './journal-error'
export {
  afterCommit,
  fullCheckPending,
  isJournalDamaged,
  markJournalDamaged,
  openJournalDatabase,
  runInTransaction,
  JournalNotDurableError,
  type CommitSync,
} from './database'
export { checkIntegrityAside, FULL_CHECK_AT_OPEN_MAX_BYTES, type IntegrityCheckAside } from './journal-integrity'
export type { Migration, ForcedMigration } from './migrations'
export {
  JournalTooNewError,
  JournalMigrationError,
  MigrationWouldStrandQueueError,
  FORCED_MIGRATION_TABLE,
  migrateTo,
  journalVersion,
} from './migrations'
export { authorizeForcedMigration, owedToBank, type ManagerProof } from './migration-guard'
export { FieldSealer, DataKeyMissingError, SealedFieldError, wipe } from './sealed-fields'
export { JOURNAL_MIGRATIONS } from './schema'
export {
  JournalStore,
  StaleSaleError,
  countSealedRows,
  saleSearchQuery,
  type SaleSearch,
  type SaleRecord,
  type NewSale,
  type SaleChange,
  type JournalStoreOptions,
  type CardPurpose,
} from './journal-store'
export { BatchStore, BatchClosedMeanwhileError, type ClosedBatch, type BatchClose } from './batch-store'
export { openIdEpoch, merchantTransId, MAX_SALE_ID_BYTES } from './transaction-ids'
export type { NewOutboxItem, OutboxItem, ClaimedItem, QueueTotals } from './outbox-store'
export { JournalCheckpointer } from './checkpointer'
export {
  JOURNAL_FILE,
  probeAuditTrail,
  probeJournal,
  probeQueue,
  type AuditTrailSummary,
  type JournalSummary,
  type QueueSummary,
} from './journal-probe'
export { OperatorStore, type OperatorRecord, type OperatorRole } from './operator-store'
export { ShiftStore, type ShiftRecord } from './shift-store'
export { AuditStore, AUDIT_GENESIS, type AuditEntry, type AuditRecord, type AuditCheckOptions } from './audit-store'
export {
  AUDIT_SEALED_ACTION,
  type AuditAnchorHead,
  type AuditHead,
  type AuditProblem,
  type AuditProblemKind,
  type AuditVerdict,
  type ChainKey,
} from './audit-chain'
export {
  AuditAnchor,
  anchorAuditTrail,
  ephemeralAuditKey,
  journalTag,
  openAuditKey,
  openAuditTrail,
  readAuditHead,
  readAuditKey,
  type OpenedAuditKey,
} from './audit-seal'
export { NexoStore, type NexoReversalKind } from './nexo-store'
export { WindowStore, type WindowRecord } from './window-store'
