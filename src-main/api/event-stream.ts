/**
 * `GET /v1/events`: server-sent events (WHATWG HTML Living Standard, "Server-sent events"), resumable.
 *
 * Each sale event goes with `id: <seq>`, its journal position. A client that reconnects with
 * `Last-Event-ID` (browsers send it by themselves) or `?lastEventId=` is first sent every sale changed
 * since, from the journal, each once in its current state; then, on every connect, a `snapshot` event
 * (the sale at the counter, queue, reader, alarms) whose id is the journal position it reflects; then
 * live events. Queue, device and alarm events carry no id: they are state, which the snapshot covers.
 * A `heartbeat` event every `heartbeatMs` lets a client tell a quiet agent from a dead connection.
 * Named events (`snapshot`, `heartbeat`) do not reach an EventSource's `onmessage`, so a client that
 * only knows PosEvents keeps working.
 * A stream whose client takes nothing of it for `idleMs` (what was written stays unsent, a catch-up
 * waits on it) is idle and closed: it would otherwise hold its connection and the events kept for it.
 * A live client reads every heartbeat, so it is never idle.
 */
import type { ServerResponse } from 'node:http'
import type { PosEvent, PosStreamHeartbeat, PosStreamSnapshot } from '../../src-shared/contract'
import { SYSTEM_CLOCK, type Clock } from '../../src-shared/clock'
/** What a stream reads of the application layer: its events, what a reconnecting stream missed, the terminal now. */
export interface EventSource {
  on(event: 'event', listener: (event: PosEvent) => void): unknown
  off(event: 'event', listener: (event: PosEvent) => void): unknown
  missedSaleEvents(afterSeq: number, limit: number): { events: PosEvent[]; lastSeq: number }
  snapshot(): PosStreamSnapshot
}

/** Sales replayed per journal read: big enough to be quick, small enough to yield between reads. */
const REPLAY_PAGE = 500
/** How soon a browser reconnects after the stream drops (the `retry` field), in ms. */
const RECONNECT_MS = 2_000

/** Who holds a stream, for what a door allows each. */
export interface StreamHolder {
  /** The caller (service callerKey: a window's session, `token:<id>`): the stream ends with its access. */
  owner: string
  /** Its root opener (service openerOf: `token:<id>` with every window opened from it, `owner`). */
  opener: string
}

interface Stream {
  response: ServerResponse
  holder: StreamHolder | undefined
  /** Live events that came while the stream caught up from the journal; undefined once live. */
  held: PosEvent[] | undefined
  /** Since when what was written to it has waited for its client (undefined: the client keeps up). */
  stalledSince: number | undefined
}

export interface EventStreamOptions {
  /** How often an idle stream gets a `heartbeat` event, in ms. */
  heartbeatMs: number
  /** How long a client may take nothing of its stream before it is closed, in ms. */
  idleMs: number
  /** Told at each heartbeat of each stream's owner, whose stream shows it is in use. */
  inUse?: (owner: string) => void
  /** The time of day a heartbeat carries (windows set their offset from it); SYSTEM_CLOCK unless set. */
  clock?: Clock
}

export class EventStreams {
  private readonly streams = new Set<Stream>()
  private readonly heartbeat: NodeJS.Timeout
  private readonly onEvent = (event: PosEvent): void => {
    for (const stream of this.streams) {
      if (stream.held) stream.held.push(event)
      else stream.response.write(frame(event))
    }
  }

  constructor(
    private readonly operations: EventSource,
    private readonly options: EventStreamOptions,
  ) {
    operations.on('event', this.onEvent)
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs)
    this.heartbeat.unref()
  }

  /** `resumeAfter`: the journal position the client last saw, when it says one. */
  async open(response: ServerResponse, resumeAfter: number | undefined, holder?: StreamHolder): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    response.write(`retry: ${RECONNECT_MS}\n\n`)
    const stream: Stream = { response, holder, held: [], stalledSince: undefined }
    this.streams.add(stream)
    response.on('close', () => this.streams.delete(stream))
    let after = resumeAfter
    while (after !== undefined) {
      const { events } = this.operations.missedSaleEvents(after, REPLAY_PAGE)
      let flowing = true
      for (const event of events) flowing = response.write(frame(event))
      after = events.length === REPLAY_PAGE ? (events.at(-1) as { seq: number }).seq : undefined
      if (after !== undefined && !flowing) await this.drained(response)
      if (response.destroyed) return
    }
    // The last journal read and the snapshot happen in one turn of the event loop: nothing can be
    // journaled between them, so every sale change up to the snapshot's position has been sent.
    const snapshot = this.operations.snapshot()
    response.write(`id: ${snapshot.seq}\nevent: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`)
    const held = stream.held ?? []
    stream.held = undefined
    for (const event of held) {
      // Sale changes held meanwhile were read back from the journal; a queue status is older than the snapshot's.
      if (event.type === 'sale' ? (event.seq ?? Infinity) > snapshot.seq : event.type !== 'queue') response.write(frame(event))
    }
  }

  /** How many streams `owner` holds open. */
  countFor(owner: string): number {
    let count = 0
    for (const stream of this.streams) if (stream.holder?.owner === owner) count++
    return count
  }

  /** How many streams the callers under root opener `opener` hold open together. */
  countForOpener(opener: string): number {
    let count = 0
    for (const stream of this.streams) if (stream.holder?.opener === opener) count++
    return count
  }

  /** `owner`'s access ended (a window closed, a token revoked): its streams end too. */
  closeFor(owner: string): void {
    for (const stream of [...this.streams]) {
      if (stream.holder?.owner !== owner) continue
      this.streams.delete(stream)
      stream.response.end()
    }
  }

  /** A heartbeat to every live stream; a stream whose client took nothing for idleMs is closed. */
  private beat(): void {
    const data: PosStreamHeartbeat = { at: (this.options.clock ?? SYSTEM_CLOCK).now() }
    // How long a stream has been stalled is elapsed time: the monotonic clock.
    const now = performance.now()
    const beat = `event: heartbeat\ndata: ${JSON.stringify(data)}\n\n`
    for (const stream of [...this.streams]) {
      if (stream.holder) this.options.inUse?.(stream.holder.owner)
      if (stream.held) continue
      if (!stream.response.writableNeedDrain) stream.stalledSince = undefined
      else if (stream.stalledSince === undefined) stream.stalledSince = now
      else if (now - stream.stalledSince >= this.options.idleMs) {
        this.streams.delete(stream)
        stream.response.destroy()
        continue
      }
      stream.response.write(beat)
    }
  }

  /** Until the client took what waits for it; a client that takes nothing for idleMs loses the stream. */
  private drained(response: ServerResponse): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(idle)
        response.off('drain', done)
        response.off('close', done)
        resolve()
      }
      const idle = setTimeout(() => {
        response.destroy()
        done()
      }, this.options.idleMs)
      response.once('drain', done)
      response.once('close', done)
    })
  }

  close(): void {
    clearInterval(this.heartbeat)
    this.operations.off('event', this.onEvent)
    for (const stream of this.streams) stream.response.end()
    this.streams.clear()
  }
}

/** A resume point as a client sends it: a journal position, a non-negative integer. */
export function parseResumePoint(value: string | null | undefined): number | undefined | 'invalid' {
  if (value === null || value === undefined || value === '') return undefined
  if (!/^\d{1,15}$/.test(value)) return 'invalid'
  return Number(value)
}

function frame(event: PosEvent): string {
  const id = event.type === 'sale' && event.seq !== undefined ? `id: ${event.seq}\n` : ''
  return `${id}data: ${JSON.stringify(event)}\n\n`
}
