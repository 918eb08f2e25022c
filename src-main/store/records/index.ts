/**
 * The records the store holds, as a door of their own: the transaction engine builds a copy and a
 * withdrawal with the same functions the store's code reads them with, without loading the store's
 * NATS client on a terminal that has no store (queue-replica.ts imports nothing at run time).
 */
export { queueCopyOf, queueTombstoneOf, type CopiedItem, type CopyRecord, type QueueCopy, type QueueTombstone } from '../queue-replica'
