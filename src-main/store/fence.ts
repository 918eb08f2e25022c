/**
 * The fence: before a rescue sends anything of a terminal's queue, it records that the queue now
 * belongs to the rescue, in the store's key-value bucket. The terminal reads its fence at start and
 * at every heartbeat; once fenced it forwards nothing more, keeps its journal, and says why. Both
 * may still send the same item once (a terminal cut off from the store server), which is safe: the
 * host answers a repeat of a merchantTransID with its first answer (docs/gateway.md §D3).
 */
import type { KV } from '@nats-io/kv'
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
}

/** The plain words a fenced terminal shows (status panel, doctor, the refusal to forward). */
export function fencedWords(fence: FenceRecord): string {
  return `The store rescued this terminal's waiting payments on ${fence.rescuedAt.slice(0, 16).replace('T', ' ')} (from ${fence.by}). This terminal no longer sends them, so nothing is sent twice; its records are kept. Call a manager before using it again.`
}

export async function readFence(
  connection: StoreConnection,
  storeId: string,
  terminalId: string,
  ms: number,
): Promise<FenceRecord | undefined> {
  const kv = await connection.bucket(FENCE_BUCKET, ms)
  const entry = await kv.get(terminalKey(storeId, terminalId))
  if (!entry || entry.operation !== 'PUT' || entry.length === 0) return undefined
  return entry.json<FenceRecord>()
}

/**
 * Fences the terminal, or finds the fence an earlier rescue of it left (a rescue run again after an
 * interruption continues under the first fence).
 */
export async function fenceTerminal(
  connection: StoreConnection,
  record: FenceRecord,
  ms: number,
): Promise<{ fence: FenceRecord; earlier: boolean }> {
  const kv: KV = await connection.bucket(FENCE_BUCKET, ms)
  const key = terminalKey(record.storeId, record.terminalId)
  try {
    await kv.create(key, JSON.stringify(record))
    return { fence: record, earlier: false }
  } catch (error) {
    const existing = await kv.get(key)
    if (existing && existing.operation === 'PUT') return { fence: existing.json<FenceRecord>(), earlier: true }
    throw error
  }
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
  if (!entry || entry.operation !== 'PUT' || entry.length === 0) return undefined
  return { fence: entry.json<FenceRecord>(), revision: entry.revision }
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
