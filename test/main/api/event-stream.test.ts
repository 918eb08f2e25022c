/**
 * The resumable event stream of the local API over real HTTP: a snapshot on every connect, a resume
 * from Last-Event-ID that loses nothing and repeats nothing, reader prompts that name their sale,
 * heartbeats; and the catch-up itself, page by page, against a stand-in dispatcher.
 */
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { EventEmitter } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventStreams } from '../../../src-main/api/event-stream'
import type { DeviceEvent, ReadCardRequest, ReadCardResult, HostAnswerForCard, CardCompletion } from '../../../src-main/device'
import type { PosEvent, PosStreamSnapshot, SaleView } from '../../../src-shared/contract'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually } from '../../support/engine-harness'
import { startApiHarness, type ApiHarness } from './api-harness'
import { SseClient } from './sse-client'

/** A scripted reader that also prompts, as the NEO 2 does: waiting for the card, card read, remove card. */
class PromptingReader extends ScriptedCardReader {
  private readonly listeners = new Set<(event: DeviceEvent) => void>()
  override onEvent(listener: (event: DeviceEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
  prompt(event: DeviceEvent): void {
    for (const listener of this.listeners) listener(event)
  }
  override async readCard(request: ReadCardRequest): Promise<ReadCardResult> {
    this.prompt({ type: 'waitingForCard', prompt: 'Present card' })
    const result = await super.readCard(request)
    if (result.kind === 'card') this.prompt({ type: 'cardRead', maskedPan: '476173******0119', method: result.card.method })
    return result
  }
  override async completeCard(answer: HostAnswerForCard): Promise<CardCompletion> {
    const completion = await super.completeCard(answer)
    this.prompt({ type: 'removeCard' })
    return completion
  }
}

type SaleMessage = {
  lastEventId: string
  hasId: boolean
  event: { type: 'sale'; sale: SaleView; seq: number; saleId: string; reference?: string }
}
const saleMessages = (stream: SseClient) => stream.messages().filter((m) => m.event.type === 'sale') as unknown as SaleMessage[]
const snapshotOf = (stream: SseClient) => {
  const event = stream.named('snapshot').at(-1)!
  return { lastEventId: event.lastEventId, snapshot: JSON.parse(event.data) as PosStreamSnapshot }
}

let api: ApiHarness
const reader = new PromptingReader()

beforeAll(async () => {
  api = await startApiHarness({ reader, server: { heartbeatMs: 100 } })
})
afterAll(async () => api.close())

async function sale(amountMinor: number, reference: string): Promise<SaleView> {
  reader.present({ card: TEST_CARDS.chipVisa() })
  const started = await api.op('startSale', { amountMinor, reference })
  expect(started.status).toBe(200)
  return api.engine.engine.txn.waitForOutcome(started.json.value.id)
}

describe('the event stream', () => {
  it('opens with a snapshot: the sale at the counter with its latest prompt, the queue, the reader, alarms', async () => {
    const started = await api.op('startSale', { amountMinor: 700, reference: 'ECR-SNAP' }) // no card yet: it waits at the reader
    const stream = await api.events()
    await stream.waitFor((s) => s.named('snapshot').length === 1)
    const { lastEventId, snapshot } = snapshotOf(stream)
    expect(snapshot.sale).toMatchObject({ id: started.json.value.id, reference: 'ECR-SNAP', state: 'readingCard' })
    expect(snapshot.prompt).toEqual({ type: 'waitingForCard', prompt: 'Present card' })
    expect(snapshot.queue).toMatchObject({ count: 0, storedCount: 0, attentionCount: 0 })
    expect(snapshot.device).toEqual({ connected: true, busy: false })
    expect(snapshot.alarms).toEqual([])
    // Its id is the journal position it reflects: the sale's latest change.
    const latest = api.engine.engine.journal.events(started.json.value.id).at(-1)!.seq
    expect(lastEventId).toBe(String(latest))
    expect(snapshot.seq).toBe(latest)
    await api.op('cancelSale', { id: started.json.value.id })
    await stream.waitFor((s) => saleMessages(s).some((m) => m.event.sale.state === 'abandoned'))
    stream.close()

    const idle = await api.events()
    await idle.waitFor((s) => s.named('snapshot').length === 1)
    expect(snapshotOf(idle).snapshot.sale).toBeUndefined()
    idle.close()
  })

  it('resumes from Last-Event-ID: every sale changed meanwhile once, in its current state, then the snapshot, then live', async () => {
    const first = await api.events()
    await first.waitFor((s) => s.named('snapshot').length === 1)
    const before = await sale(1_000, 'ECR-R1')
    await first.waitFor((s) => saleMessages(s).some((m) => m.event.saleId === before.id && m.event.sale.state === 'approved'))
    const pending = await api.op('startSale', { amountMinor: 1_100, reference: 'ECR-R2' }) // at the reader when the stream drops
    await first.waitFor((s) => saleMessages(s).some((m) => m.event.saleId === pending.json.value.id))
    const resumeFrom = first.lastEventId
    first.close()

    await api.op('cancelSale', { id: pending.json.value.id })
    const missedA = await sale(1_200, 'ECR-R3')
    const missedB = await sale(1_300, 'ECR-R4')

    const second = await api.events({ 'last-event-id': resumeFrom })
    await second.waitFor((s) => s.named('snapshot').length === 1)
    const replayed = saleMessages(second)
    expect(replayed.map((m) => [m.event.saleId, m.event.sale.state])).toEqual([
      [pending.json.value.id, 'abandoned'],
      [missedA.id, 'approved'],
      [missedB.id, 'approved'],
    ])
    expect(replayed.map((m) => m.event.reference)).toEqual(['ECR-R2', 'ECR-R3', 'ECR-R4'])
    const ids = replayed.map((m) => Number(m.lastEventId))
    expect(ids.every((id, i) => id > Number(resumeFrom) && (i === 0 || id > ids[i - 1]!))).toBe(true)
    expect(replayed.every((m) => m.hasId && m.lastEventId === String(m.event.seq))).toBe(true)
    // The replay's ids are each sale's latest journal change.
    for (const m of replayed) expect(m.event.seq).toBe(api.engine.engine.journal.events(m.event.saleId).at(-1)!.seq)
    const { lastEventId, snapshot } = snapshotOf(second)
    expect(Number(lastEventId)).toBe(ids.at(-1))
    expect(snapshot.seq).toBe(ids.at(-1))

    const live = await sale(1_400, 'ECR-R5')
    await second.waitFor((s) => saleMessages(s).some((m) => m.event.saleId === live.id && m.event.sale.state === 'approved'))
    const after = saleMessages(second).slice(replayed.length)
    expect(after.every((m) => m.event.saleId === live.id && Number(m.lastEventId) > Number(lastEventId))).toBe(true)
    const resumeAgain = second.lastEventId
    second.close()

    // Nothing happened since: a resume (here by query, as a page that reloads would) sends the snapshot alone.
    const third = await api.events({}, `?lastEventId=${resumeAgain}`)
    await third.waitFor((s) => s.named('snapshot').length === 1)
    expect(saleMessages(third)).toEqual([])
    expect(snapshotOf(third).lastEventId).toBe(resumeAgain)
    third.close()
  })

  it('names the sale of every reader prompt; a reader connection change with no sale at the counter names none', async () => {
    const stream = await api.events()
    await stream.waitFor((s) => s.named('snapshot').length === 1)
    const done = await sale(2_000, 'ECR-PROMPTS')
    reader.prompt({ type: 'connection', state: 'disconnected' })
    await stream.waitFor((s) =>
      s.messages().some((m) => m.event.type === 'device' && (m.event.prompt as { type: string }).type === 'connection'),
    )
    stream.close()
    const prompts = stream.messages().filter((m) => m.event.type === 'device')
    expect(prompts.map((m) => (m.event.prompt as { type: string }).type)).toEqual([
      'waitingForCard',
      'cardRead',
      'removeCard',
      'connection',
    ])
    for (const m of prompts.slice(0, 3)) expect(m.event).toMatchObject({ saleId: done.id, reference: 'ECR-PROMPTS' })
    expect(prompts[3]!.event).not.toHaveProperty('saleId')
    expect(prompts.every((m) => !m.hasId)).toBe(true)
  })

  it('sends heartbeats while nothing happens', async () => {
    const stream = await api.events()
    await stream.waitFor((s) => s.named('heartbeat').length >= 2, 3_000)
    stream.close()
    const beat = JSON.parse(stream.named('heartbeat')[0]!.data) as { at: number }
    expect(Math.abs(beat.at - Date.now())).toBeLessThan(5_000)
  })

  it('refuses a resume point that is not a journal position', async () => {
    for (const bad of ['abc', '-1', '1.5', '9'.repeat(16)]) {
      const stream = await api.events({ 'last-event-id': bad })
      expect(stream.response.statusCode).toBe(400)
      stream.close()
    }
  })
})

describe('catching up page by page', () => {
  /** A dispatcher stand-in whose journal holds `total` changed sales, and which a live change interrupts. */
  class JournalOfMany extends EventEmitter<{ event: [PosEvent] }> {
    reads = 0
    constructor(readonly total: number) {
      super()
    }
    missedSaleEvents(afterSeq: number, limit: number) {
      this.reads++
      // A sale changes while the stream catches up: already read back (seq 10) and not yet (seq total).
      if (this.reads === 2) {
        this.emit('event', this.saleEvent(10))
        this.emit('event', { type: 'device', prompt: { type: 'processing' } })
      }
      const events: PosEvent[] = []
      for (let seq = afterSeq + 1; seq <= this.total && events.length < limit; seq++) events.push(this.saleEvent(seq))
      return { events, lastSeq: this.total }
    }
    snapshot(): PosStreamSnapshot {
      return {
        seq: this.total,
        at: 0,
        queue: { count: 0, storedCount: 0, storedAmountMinor: {}, attentionCount: 0, lockedCount: 0 },
        device: { connected: true, busy: false },
        alarms: [],
      }
    }
    saleEvent(seq: number): PosEvent {
      const view = { id: `T1-S-${seq}`, state: 'approved' } as SaleView
      return { type: 'sale', sale: view, seq, saleId: view.id }
    }
  }

  let server: Server
  let streams: EventStreams
  const journal = new JournalOfMany(1_234)
  beforeAll(async () => {
    streams = new EventStreams(journal, { heartbeatMs: 60_000, idleMs: 60_000 })
    server = createServer((_, response) => void streams.open(response, 0))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    streams.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('sends every missed sale once and in order, then the snapshot, then what came meanwhile that the journal did not cover', async () => {
    const stream = await SseClient.open(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {})
    await stream.waitFor((s) => s.named('snapshot').length === 1 && s.messages().some((m) => m.event.type === 'device'))
    stream.close()
    expect(journal.reads).toBe(3)
    const messages = stream.messages()
    const sales = messages.filter((m) => m.event.type === 'sale').map((m) => m.event.seq)
    expect(sales).toEqual(Array.from({ length: 1_234 }, (_, i) => i + 1))
    expect(stream.events.at(-2)!.event).toBe('snapshot')
    expect(messages.at(-1)!.event).toEqual({ type: 'device', prompt: { type: 'processing' } })
  })
})

describe('a stream whose client takes nothing', () => {
  /** A dispatcher stand-in with nothing to replay, whose live events the test sends. */
  class Quiet extends EventEmitter<{ event: [PosEvent] }> {
    missedSaleEvents() {
      return { events: [], lastSeq: 0 }
    }
    snapshot(): PosStreamSnapshot {
      return {
        seq: 0,
        at: 0,
        queue: { count: 0, storedCount: 0, storedAmountMinor: {}, attentionCount: 0, lockedCount: 0 },
        device: { connected: true, busy: false },
        alarms: [],
      }
    }
  }

  let server: Server
  let streams: EventStreams
  const source = new Quiet()
  beforeAll(async () => {
    streams = new EventStreams(source, { heartbeatMs: 50, idleMs: 200 })
    server = createServer((request, response) => {
      const who = String(request.headers['x-who'])
      void streams.open(response, undefined, { owner: who, opener: who })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => {
    streams.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('is closed once what was sent waits on it past the idle time; a client that reads keeps its stream', async () => {
    const port = (server.address() as AddressInfo).port
    const reader = await SseClient.open(`http://127.0.0.1:${port}/`, { 'x-who': 'reader' })
    await reader.waitFor((s) => s.named('snapshot').length === 1)
    // The stalled one asks for its stream and never reads a byte of it.
    const stalled = connect(port, '127.0.0.1')
    stalled.pause()
    stalled.write(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nx-who: stalled\r\n\r\n`)
    await eventually(() => streams.countFor('stalled') === 1)
    // More than the system's socket buffers hold: what is left waits in the agent for the stalled client.
    const big = { type: 'device', prompt: { type: 'processing', detail: 'x'.repeat(256 * 1024) } } as unknown as PosEvent
    for (let i = 0; i < 48; i++) source.emit('event', big)
    await eventually(() => streams.countFor('stalled') === 0, 8_000)
    await reader.waitFor((s) => s.messages().length === 48, 8_000)
    // The reader took everything and its stream goes on, heartbeats and all, past several idle times.
    const beats = reader.named('heartbeat').length
    await reader.waitFor((s) => s.named('heartbeat').length >= beats + 10)
    expect(streams.countFor('reader')).toBe(1)
    reader.close()
    stalled.destroy()
  })
})
