/**
 * The fleet in view: each terminal's heartbeat in the store's key-value bucket (last seen, version,
 * queue depth, oldest stored age, alarms, reader and bank state; never card data), the fences the
 * rescues set, and the reading of them that `pos-agent fleet` prints: which lanes need a person, and
 * why, in plain words. Both records come from the network: parsed, and one that does not parse is a
 * line saying so, never a stop.
 */
import { z } from 'zod'
import { agreeing, counted } from '../../src-shared/counted'
import type { CopyDurability } from './durability'
import { parseFence, when, type FenceRecord } from './fence'
import type { StoreConnection } from './store-connection'
import { FLEET_BUCKET, storeOfKey, terminalKey } from './store-names'

export interface Heartbeat {
  storeId: string
  terminalId: string
  /** ms since the epoch, by the lane's clock. */
  lastSeen: number
  version: string
  queueDepth: number
  storedCount: number
  /** Age of the oldest stored payment, seconds; absent when none is stored. */
  oldestStoredAgeSeconds?: number | undefined
  attentionCount: number
  alarms: Array<{ code: string; message: string }>
  reader: string
  bank: 'reachable' | 'unreachable' | 'unknown'
  /** What the lane itself knows of its fence (the fleet reads the fence itself). */
  fenced: boolean
  /** Items owed without a copy at the store. */
  uncopied: number
  heartbeatSeconds: number
  /** How safe the lane's copies at the store are (durability.ts); absent before it could tell, or from an older lane. */
  storeCopy?: CopyDurability | undefined
  /** The same in a few words ("on disk", "on 3 servers", "in memory only"). */
  storeCopyLabel?: string | undefined
}

const count = z.number().int().min(0).max(1e9)
/** What a heartbeat must hold to be shown; longer words are cut, other fields let through. */
const HEARTBEAT_SCHEMA = z.looseObject({
  storeId: z.string().min(1).max(200),
  terminalId: z.string().min(1).max(200),
  lastSeen: z.number().finite(),
  version: z.string().max(100),
  queueDepth: count,
  storedCount: count,
  oldestStoredAgeSeconds: count.optional(),
  attentionCount: count,
  alarms: z.array(z.looseObject({ code: z.string().max(100), message: z.string().max(1_000) })).max(50),
  reader: z.string().max(200),
  bank: z.enum(['reachable', 'unreachable', 'unknown']),
  fenced: z.boolean(),
  uncopied: count,
  // A lane that says it beats once an hour or less is still looked at within three hours.
  heartbeatSeconds: z.number().positive().max(3_600),
  storeCopy: z.enum(['synced', 'buffered']).optional(),
  storeCopyLabel: z.string().max(100).optional(),
})

/** A heartbeat from its bytes, or undefined when it is not one this version can read. */
export function parseHeartbeat(raw: Uint8Array | string, storeId: string, terminalId: string): Heartbeat | undefined {
  try {
    const parsed = HEARTBEAT_SCHEMA.safeParse(JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw)))
    if (!parsed.success || parsed.data.storeId !== storeId || parsed.data.terminalId !== terminalId) return undefined
    const { alarms, ...beat } = parsed.data
    return { ...beat, alarms: alarms.map(({ code, message }) => ({ code, message })) }
  } catch {
    return undefined
  }
}

/** What the store server holds about one lane. */
export interface LaneRecords {
  storeId: string
  terminalId: string
  /** Its last heartbeat, when it wrote one that reads. */
  heartbeat?: Heartbeat | undefined
  /** When the store server took that heartbeat (ms since the epoch); the lane's own time without it. */
  heardAt?: number | undefined
  /** It wrote a heartbeat that does not read. */
  heartbeatUnreadable?: boolean | undefined
  /** Its fence, when a rescue set one. */
  fence?: FenceRecord | undefined
}

export interface LaneView {
  storeId: string
  terminalId: string
  /** ISO 8601; absent when no heartbeat of it reads. */
  lastSeen?: string | undefined
  needsPerson: string[]
  heartbeat?: Heartbeat | undefined
}

/** A lane is silent after three missed heartbeats. */
const MISSED_BEATS = 3

export function fleetView(lanes: LaneRecords[], now: number): LaneView[] {
  return lanes
    .map((lane) => {
      const beat = lane.heartbeat
      const heardAt = lane.heardAt ?? beat?.lastSeen
      return {
        storeId: lane.storeId,
        terminalId: lane.terminalId,
        ...(heardAt !== undefined ? { lastSeen: new Date(heardAt).toISOString() } : {}),
        needsPerson: needsPerson(lane, heardAt, now),
        ...(beat ? { heartbeat: beat } : {}),
      }
    })
    .sort((a, b) => a.storeId.localeCompare(b.storeId) || a.terminalId.localeCompare(b.terminalId))
}

function needsPerson(lane: LaneRecords, heardAt: number | undefined, now: number): string[] {
  const out: string[] = []
  const { heartbeat: beat, fence } = lane
  if (fence)
    out.push(
      fence.unreadable !== undefined
        ? `a fence for it is at the store server but cannot be read (${fence.unreadable}): check it before using it again`
        : `rescued on ${when(fence.rescuedAt)} from ${fence.by}: check it before using it again`,
    )
  if (lane.heartbeatUnreadable)
    out.push(
      `its last heartbeat cannot be read (key ${terminalKey(lane.storeId, lane.terminalId)} in the store server's ${FLEET_BUCKET} bucket)`,
    )
  if (!beat) {
    if (!lane.heartbeatUnreadable) out.push('it has not reported to the store server')
    return out
  }
  const silentFor = Math.round((now - (heardAt ?? beat.lastSeen)) / 1000)
  if (silentFor > MISSED_BEATS * beat.heartbeatSeconds) out.push(`not heard from for ${duration(silentFor)}`)
  if (beat.attentionCount > 0)
    out.push(`${counted(beat.attentionCount, 'sale')} ${agreeing(beat.attentionCount, 'needs', 'need')} a manager`)
  if (beat.uncopied > 0)
    out.push(`${counted(beat.uncopied, 'waiting message')} ${agreeing(beat.uncopied, 'has', 'have')} no copy at the store`)
  if (beat.bank === 'unreachable' && beat.queueDepth > 0)
    out.push(`the bank cannot be reached; ${counted(beat.queueDepth, 'message')} ${agreeing(beat.queueDepth, 'waits', 'wait')}`)
  if (beat.reader !== 'ready' && beat.reader !== 'busy') out.push(`card reader: ${beat.reader}`)
  // The lane's own fence alarm says what the fence line above says already.
  for (const alarm of beat.alarms)
    if (alarm.code !== 'QUEUE_RESCUED' && !out.some((line) => line === alarm.message)) out.push(alarm.message)
  return out
}

/**
 * Every lane the store server knows of: its heartbeats and its fences, each parsed (the store's
 * admin credential: a lane may read neither).
 */
export async function readFleet(connection: StoreConnection, ms: number): Promise<LaneRecords[]> {
  const lanes = new Map<string, LaneRecords>()
  const lane = (key: string): LaneRecords => {
    let found = lanes.get(key)
    if (!found) {
      found = storeOfKey(key)
      lanes.set(key, found)
    }
    return found
  }
  for (const record of await connection.listHeartbeatsRaw(ms)) {
    const at = lane(record.key)
    const beat = parseHeartbeat(record.raw, at.storeId, at.terminalId)
    if (beat) Object.assign(at, { heartbeat: beat, heardAt: record.at })
    else at.heartbeatUnreadable = true
  }
  for (const record of await connection.listFencesRaw(ms)) {
    const at = lane(record.key)
    at.fence = parseFence(record.raw, at.storeId, at.terminalId)
  }
  return [...lanes.values()]
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`
  if (seconds < 7200) return `${Math.round(seconds / 60)} minutes`
  return `${Math.round(seconds / 3600)} hours`
}

/** What the lane said of its copies at the store, for the fleet's line. */
export function storeCopyWords(beat: Pick<Heartbeat, 'storeCopy' | 'storeCopyLabel'>): string {
  if (beat.storeCopy === undefined) return 'store copy: not known yet'
  const label = beat.storeCopyLabel ?? (beat.storeCopy === 'synced' ? 'safe' : 'in memory only')
  return beat.storeCopy === 'synced' ? `store copy: ${label}` : `store copy: ${label}, lost if the store server loses power`
}

/** The table `pos-agent fleet` prints. */
export function fleetTable(lanes: LaneView[]): string {
  if (lanes.length === 0) return 'No terminal has reported to this store server yet.'
  const lines = lanes.map((lane) => {
    const beat = lane.heartbeat
    const head = beat
      ? `${lane.storeId} ${lane.terminalId}  last seen ${lane.lastSeen ?? 'never'}  waiting ${beat.queueDepth}  stored ${beat.storedCount}  v${beat.version}  ${storeCopyWords(beat)}`
      : `${lane.storeId} ${lane.terminalId}`
    return lane.needsPerson.length === 0
      ? `${head}\n  ok`
      : `${head}\n${lane.needsPerson.map((why) => `  NEEDS A PERSON: ${why}`).join('\n')}`
  })
  const needing = lanes.filter((lane) => lane.needsPerson.length > 0).length
  return `${lines.join('\n')}\n${counted(lanes.length, 'lane')}, ${needing} ${agreeing(needing, 'needs', 'need')} a person`
}
