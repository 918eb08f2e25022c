/**
 * The fleet in view: each terminal's heartbeat in the store's key-value bucket (last seen, version,
 * queue depth, oldest stored age, alarms, reader and bank state; never card data), and the reading
 * of them that `pos-agent fleet` prints: which lanes need a person, and why, in plain words.
 */
import { agreeing, counted } from '../../src-shared/counted'
export interface Heartbeat {
  storeId: string
  terminalId: string
  /** ms since the epoch. */
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
  fenced: boolean
  /** Items owed without a copy at the store. */
  uncopied: number
  heartbeatSeconds: number
}

export interface LaneView {
  storeId: string
  terminalId: string
  lastSeen: string
  needsPerson: string[]
  heartbeat: Heartbeat
}

/** A lane is silent after three missed heartbeats. */
const MISSED_BEATS = 3

export function fleetView(heartbeats: Heartbeat[], now: number): LaneView[] {
  return heartbeats
    .map((beat) => ({
      storeId: beat.storeId,
      terminalId: beat.terminalId,
      lastSeen: new Date(beat.lastSeen).toISOString(),
      needsPerson: needsPerson(beat, now),
      heartbeat: beat,
    }))
    .sort((a, b) => a.storeId.localeCompare(b.storeId) || a.terminalId.localeCompare(b.terminalId))
}

function needsPerson(beat: Heartbeat, now: number): string[] {
  const out: string[] = []
  const silentFor = Math.round((now - beat.lastSeen) / 1000)
  if (silentFor > MISSED_BEATS * beat.heartbeatSeconds) out.push(`not heard from for ${duration(silentFor)}`)
  if (beat.fenced) out.push('its waiting payments were rescued: check it before using it again')
  if (beat.attentionCount > 0)
    out.push(`${counted(beat.attentionCount, 'sale')} ${agreeing(beat.attentionCount, 'needs', 'need')} a manager`)
  if (beat.uncopied > 0)
    out.push(`${counted(beat.uncopied, 'waiting message')} ${agreeing(beat.uncopied, 'has', 'have')} no copy at the store`)
  if (beat.bank === 'unreachable' && beat.queueDepth > 0)
    out.push(`the bank cannot be reached; ${counted(beat.queueDepth, 'message')} ${agreeing(beat.queueDepth, 'waits', 'wait')}`)
  if (beat.reader !== 'ready' && beat.reader !== 'busy') out.push(`card reader: ${beat.reader}`)
  for (const alarm of beat.alarms) if (!out.some((line) => line === alarm.message)) out.push(alarm.message)
  return out
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`
  if (seconds < 7200) return `${Math.round(seconds / 60)} minutes`
  return `${Math.round(seconds / 3600)} hours`
}

/** The table `pos-agent fleet` prints. */
export function fleetTable(lanes: LaneView[]): string {
  if (lanes.length === 0) return 'No terminal has reported to this store server yet.'
  const lines = lanes.map((lane) => {
    const beat = lane.heartbeat
    const head = `${lane.storeId} ${lane.terminalId}  last seen ${lane.lastSeen}  waiting ${beat.queueDepth}  stored ${beat.storedCount}  v${beat.version}`
    return lane.needsPerson.length === 0
      ? `${head}\n  ok`
      : `${head}\n${lane.needsPerson.map((why) => `  NEEDS A PERSON: ${why}`).join('\n')}`
  })
  const needing = lanes.filter((lane) => lane.needsPerson.length > 0).length
  return `${lines.join('\n')}\n${counted(lanes.length, 'lane')}, ${needing} ${agreeing(needing, 'needs', 'need')} a person`
}
