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
 */
import { once } from 'node:events'
import type { ServerResponse } from 'node:http'
import type { PosEvent, PosStreamHeartbeat, PosStreamSnapshot } from '../../src-shared/contract'
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

interface Stream {
  response: ServerResponse
  /** Whose it is (service callerKey: a window's session, `token:<id>`): it ends with the caller's access. */
  owner: string | undefined
  /** Live events that came while the stream caught up from the journal; undefined once live. */
  held: PosEvent[] | undefined
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
    heartbeatMs: number,
  ) {
    operations.on('event', this.onEvent)
    this.heartbeat = setInterval(() => {
      const data: PosStreamHeartbeat = { at: Date.now() }
      const beat = `event: heartbeat\ndata: ${JSON.stringify(data)}\n\n`
      for (const stream of this.streams) if (!stream.held) stream.response.write(beat)
    }, heartbeatMs)
    this.heartbeat.unref()
  }

  /** `resumeAfter`: the journal position the client last saw, when it says one. */
  async open(response: ServerResponse, resumeAfter: number | undefined, owner?: string): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    response.write(`retry: ${RECONNECT_MS}\n\n`)
    const stream: Stream = { response, owner, held: [] }
    this.streams.add(stream)
    response.on('close', () => this.streams.delete(stream))
    let after = resumeAfter
    while (after !== undefined) {
      const { events } = this.operations.missedSaleEvents(after, REPLAY_PAGE)
      let flowing = true
      for (const event of events) flowing = response.write(frame(event))
      after = events.length === REPLAY_PAGE ? (events.at(-1) as { seq: number }).seq : undefined
      if (after !== undefined && !flowing) await Promise.race([once(response, 'drain'), once(response, 'close')])
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
    for (const stream of this.streams) if (stream.owner === owner) count++
    return count
  }

  /** `owner`'s access ended (a window closed, a token revoked): its streams end too. */
  closeFor(owner: string): void {
    for (const stream of [...this.streams]) {
      if (stream.owner !== owner) continue
      this.streams.delete(stream)
      stream.response.end()
    }
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
