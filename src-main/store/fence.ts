/**
 * The fence: before a rescue sends anything of a terminal's queue, it records that the queue now
 * belongs to the rescue, in the store's key-value bucket (the store's admin credential writes it; a
 * lane may only read its own). The terminal watches its fence key and reads it again before it
 * publishes anything; once fenced it forwards nothing more, keeps its journal, and says why.
 *
 * A fence record is read as data from the network: parsed, never trusted to be well formed. One that
 * does not parse still fences (the safe side: forwarding and offline approvals stop, online sales go
 * on), with words that name the record so that a manager can find it.
 */
import type { KV } from '@nats-io/kv'
import { z } from 'zod'
import { FENCE_BUCKET, terminalKey } from './store-names'
import type { StoreConnection } from './store-connection'

export interface FenceRecord {
  storeId: string
  terminalId: string
  /** ISO 8601, when the rescue began. */
  rescuedAt: string
  /** The lane or machine the rescue ran from. */
  by: string
  rescueId: string
  /**
   * Set when the record at the store could not be read: where it is (bucket and key), in plain
   * words. The other fields then say only that they are not known.
   */
  unreadable?: string | undefined
}

/** What a fence record must hold; other fields (a later version's) are let through. */
const FENCE_SCHEMA = z.looseObject({
  storeId: z.string().min(1).max(200),
  terminalId: z.string().min(1).max(200),
  rescuedAt: z.iso.datetime({ offset: true }),
  by: z.string().max(200),
  rescueId: z.string().max(200),
})

/** Where a terminal's fence lives, as a manager would look for it. */
export function fenceRecordName(storeId: string, terminalId: string): string {
  return `key ${terminalKey(storeId, terminalId)} in the store server's ${FENCE_BUCKET} bucket`
}

/**
 * The fence of `storeId`/`terminalId` from the bytes at its key. Never throws: a record that is not
 * JSON, lacks a field, or names another terminal is a fence whose details are unknown.
 */
export function parseFence(raw: Uint8Array | string, storeId: string, terminalId: string): FenceRecord {
  try {
    const parsed = FENCE_SCHEMA.safeParse(JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw)))
    if (parsed.success && parsed.data.storeId === storeId && parsed.data.terminalId === terminalId) {
      const { rescuedAt, by, rescueId } = parsed.data
      return { storeId, terminalId, rescuedAt, by, rescueId }
    }
  } catch {
    // Not JSON: the same as a record that does not parse.
  }
  return { storeId, terminalId, rescuedAt: 'unknown', by: 'unknown', rescueId: 'unknown', unreadable: fenceRecordName(storeId, terminalId) }
}

/** The plain words a fenced terminal shows (status panel, doctor, the refusal to forward). */
export function fencedWords(fence: FenceRecord): string {
  if (fence.unreadable !== undefined)
    return `The store server holds a fence for this terminal that cannot be read (${fence.unreadable}). A rescue may have taken its waiting payments, so this terminal no longer sends them (only its reversals and voids, which undo a payment) and stores nothing offline; online sales go on and its records are kept. Call a manager to check that record before using it again.`
  return `The store rescued this terminal's waiting payments on ${when(fence.rescuedAt)} (from ${fence.by}). This terminal no longer sends them, so nothing is charged twice (it still sends its reversals and voids, which only undo a payment); its records are kept. Call a manager before using it again.`
}

/** `2026-11-20 09:15` from an ISO 8601 time (as it was written: the rescue's lane's clock). */
export function when(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ')
}

export async function readFence(
  connection: StoreConnection,
  storeId: string,
  terminalId: string,
  ms: number,
): Promise<FenceRecord | undefined> {
  return (await readFenceEntry(connection, storeId, terminalId, ms))?.fence
}

/**
 * Fences the terminal, or finds the fence an earlier rescue of it left (a rescue run again after an
 * interruption continues under the first fence). The store's admin credential only.
 */
export async function fenceTerminal(
  connection: StoreConnection,
  record: FenceRecord,
  ms: number,
): Promise<{ fence: FenceRecord; earlier: boolean }> {
  const key = terminalKey(record.storeId, record.terminalId)
  // Asked again while the fence bucket elects a leader (StoreConnection.answered): a fence this very
  // rescue put before its answer was lost is found again as its own, not as an earlier one.
  return connection.answered(async () => {
    const kv: KV = await connection.bucket(FENCE_BUCKET, ms)
    try {
      await kv.create(key, JSON.stringify(record))
      return { fence: record, earlier: false }
    } catch (error) {
      const existing = await kv.get(key)
      if (existing && existing.operation === 'PUT') {
        const fence = parseFence(existing.value, record.storeId, record.terminalId)
        return { fence, earlier: fence.rescueId !== record.rescueId }
      }
      throw error
    }
  }, 3 * ms)
}

/** The fence with its revision in the bucket, so that lifting it lifts this one and not a newer one. */
export async function readFenceEntry(
  connection: StoreConnection,
  storeId: string,
  terminalId: string,
  ms: number,
): Promise<{ fence: FenceRecord; revision: number } | undefined> {
  const kv = await connection.bucket(FENCE_BUCKET, ms)
  const entry = await kv.get(terminalKey(storeId, terminalId))
  if (!entry || entry.operation !== 'PUT') return undefined
  return { fence: parseFence(entry.value, storeId, terminalId), revision: entry.revision }
}

/**
 * Lifts the fence (a manager put the terminal back in service after checking its journal). With
 * `revision`, only the fence read at that revision: a rescue started meanwhile keeps its own.
 */
export async function liftFence(
  connection: StoreConnection,
  storeId: string,
  terminalId: string,
  ms: number,
  revision?: number,
): Promise<void> {
  const kv = await connection.bucket(FENCE_BUCKET, ms)
  await kv.delete(terminalKey(storeId, terminalId), revision === undefined ? undefined : { previousSeq: revision })
}
