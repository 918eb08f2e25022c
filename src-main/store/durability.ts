/**
 * How safe the store's copy of an offline approval is once the store server acknowledged it (pure).
 * JetStream acknowledges a write before it is on disk: by default it flushes to disk only every two
 * minutes, so a power cut at a single store server can lose copies it acknowledged
 * (`sync_interval`, https://docs.nats.io/running-a-nats-service/configuration#jetstream-server-settings). A copy
 * counts as `synced` when the store server writes every copy to disk before it answers
 * (`sync_interval: always`, nats-server 2.10 or later), or when the stream keeps it on three servers
 * (a stream with 3 replicas answers once a majority holds it); otherwise it is `buffered`: held in the
 * memory of one other machine. docs/store.md "How safe the store's copy is".
 *
 * A client cannot read a server's `sync_interval` (only the server's own monitoring, `/varz`, shows it), so the
 * operator states it in the configuration (`store.syncAlways`); a server too old to have the setting
 * makes that statement void.
 */

export type CopyDurability = 'synced' | 'buffered'

/** What the terminal knows of its store server when it classifies its copy. */
export interface StoreFacts {
  /** The version the server said at connect (its INFO), e.g. `2.9.10`; undefined when not connected yet. */
  serverVersion: string | undefined
  /** The stream's replicas as the server keeps it (its stream info); undefined when it is not there yet. */
  streamReplicas: number | undefined
  /** The operator states the server runs with `sync_interval: always` (`store.syncAlways`). */
  syncAlwaysStated: boolean
}

export interface DurabilityReading {
  durability: CopyDurability
  /** Why, in a few words: what fleet and the status line print after "store copy". */
  label: string
  /** The whole reason in plain words, for `doctor`, the alarm and the docs. */
  words: string
  serverVersion: string | undefined
  replicas: number | undefined
}

/** The first nats-server release with `sync_interval` (and `always`). */
export const SYNC_ALWAYS_SINCE = { major: 2, minor: 10 } as const

/** Major and minor of a server version (`2.9.10`, `v2.10.22`, `2.11.0-RC.1`), or undefined when it does not read. */
export function versionOf(text: string | undefined): { major: number; minor: number } | undefined {
  const match = /^v?(\d+)\.(\d+)(?:\.\d+)?/.exec(text?.trim() ?? '')
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : undefined
}

/** Whether this nats-server version has `sync_interval: always` (2.10 or later). */
export function hasSyncAlways(version: string | undefined): boolean {
  const found = versionOf(version)
  if (!found) return false
  return found.major > SYNC_ALWAYS_SINCE.major || (found.major === SYNC_ALWAYS_SINCE.major && found.minor >= SYNC_ALWAYS_SINCE.minor)
}

const BUFFERED_WORDS =
  'the store server holds each copy in its memory when an offline sale is approved and writes it to its disk up to two minutes later: a power cut at the store server in that time loses the copies it took, so a terminal lost as well would lose those payments. Make the store server write every copy at once (nats-server 2.10 or later with sync_interval: always, then set store.syncAlways), or run three store servers (docs/store.md)'

export function classifyDurability(facts: StoreFacts): DurabilityReading {
  const { serverVersion, streamReplicas, syncAlwaysStated } = facts
  const server = serverVersion ? `nats-server ${serverVersion}` : 'a store server whose version is not known yet'
  const base = { serverVersion, replicas: streamReplicas }
  if (streamReplicas !== undefined && streamReplicas >= 3)
    return {
      ...base,
      durability: 'synced',
      label: `on ${streamReplicas} servers`,
      words: `each copy is held by at least two of the store's ${streamReplicas} servers before an offline sale is approved (${server}, a stream with ${streamReplicas} replicas)`,
    }
  if (syncAlwaysStated && hasSyncAlways(serverVersion))
    return {
      ...base,
      durability: 'synced',
      label: 'on disk',
      words: `the store server writes each copy to its disk before an offline sale is approved (${server}, sync_interval: always as store.syncAlways states)`,
    }
  const stated =
    syncAlwaysStated && serverVersion !== undefined
      ? `store.syncAlways is set, but ${server} cannot write every copy at once (2.10 or later can), so `
      : ''
  return {
    ...base,
    durability: 'buffered',
    label: 'in memory only',
    words: `${stated}${BUFFERED_WORDS} (${server}, one server)`,
  }
}

/** The alarm's words while `store.requireDurable` refuses offline approvals (docs/store.md). */
export function durableRequiredWords(reading: DurabilityReading | undefined): string {
  const why = reading
    ? `the store server keeps its copies in memory only (${reading.serverVersion ? `nats-server ${reading.serverVersion}` : 'version not known'}, one server)`
    : 'the store server has not said yet how it keeps its copies'
  return `Offline approvals are refused: this store requires every copy on disk or on three servers, and ${why}. Cards need the bank now: try again when the bank is back, or take another payment. A manager checks the store server (docs/store.md).`
}

/**
 * The copy's class as a cashier or manager reads it on the status panel, whenever the terminal has a
 * store: where the last offline approvals are, and what a power cut could lose (docs/store.md).
 */
export function copyPanelWords(reading: DurabilityReading | undefined): string {
  if (!reading) return 'Copies: the store server has not said yet how it keeps them'
  if (reading.durability === 'synced')
    return reading.replicas !== undefined && reading.replicas >= 3
      ? `Copies: kept on ${reading.replicas === 3 ? 'three' : reading.replicas} servers — one of them can lose power without losing any`
      : 'Copies: on disk at the store server'
  return 'Copies: held in memory on the store server — a power cut there can lose the last two minutes'
}
