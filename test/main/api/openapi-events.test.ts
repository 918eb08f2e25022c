/**
 * The event stream against the OpenAPI document's description of it: a whole training agent (the
 * training host over HTTPS, the simulated PIN pad, the journal) behind the local server, three streams
 * open while sales happen (one from the start, one that joins while a sale waits at the reader, one
 * that resumes from a journal position), and every event they receive validated with ajv: the parsed
 * event against the document's `itemSchema`, its `data` against the schema the document names for it
 * in `contentSchema`. Neither check is done by the code under test.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalServer, type LocalServer } from '../../../src-main/api'
import { openRuntime, readerFactory, startAgent, type RunningAgent } from '../../../src-main/app'
import type { PosStreamSnapshot, SaleView } from '../../../src-shared/contract'
import { SseClient, type SseEvent } from './sse-client'
import { OWNER_POS } from '../../support/service-harness'

type Branch = { properties: { event: { const: string }; data: { contentSchema: { $ref: string } } } }

let dir: string
let agent: RunningAgent
let server: LocalServer
let token: string
let itemSchema: { oneOf: Branch[] }
// OpenAPI 3.2's schemas are JSON Schema 2020-12; not strict, for the document's own keywords around them.
const ajv = new Ajv2020({ allErrors: true, strict: false })
const compiled = new Map<string, ValidateFunction>()
const validator = (ref: string): ValidateFunction => {
  if (!compiled.has(ref)) compiled.set(ref, ajv.compile({ $ref: `openapi.json${ref}` }))
  return compiled.get(ref)!
}
const ITEM_SCHEMA = '#/paths/~1v1~1events/get/responses/200/content/text~1event-stream/itemSchema'

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pos-agent-events-'))
  const runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' } })
  // No card comes by itself: each sale gets the card the test presents, or waits at the reader.
  agent = await startAgent(runtime, readerFactory({ autoPresentMs: 600_000, cardReadMs: 100, pinEntryMs: 200 }))
  token = agent.apiToken.token
  server = await startLocalServer({
    port: 0,
    rendererRoot: dir,
    service: agent.service,
    tokens: agent.tokenCheck,
    health: () => ({ ok: true }),
    heartbeatMs: 200,
  })
  const served = await fetch(`${server.url}/v1/openapi.json`)
  const document = JSON.parse(await served.text(), (key, value: unknown) => (key === 'example' ? undefined : value)) as {
    paths: Record<string, { get: { responses: Record<string, { content: Record<string, { itemSchema: typeof itemSchema }> }> } }>
  }
  ajv.addSchema(document, 'openapi.json')
  itemSchema = document.paths['/v1/events']!.get.responses['200']!.content['text/event-stream']!.itemSchema
}, 60_000)

afterAll(async () => {
  await server?.close()
  await agent?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function dispatch<T>(operation: string, request: unknown): Promise<T> {
  const result = await agent.service.dispatch(OWNER_POS, operation, request)
  if (!result.ok) throw new Error(`${operation}: ${result.error.message}`)
  return result.value as T
}

const open = (headers: Record<string, string> = {}) =>
  SseClient.open(`${server.url}/v1/events`, { authorization: `Bearer ${token}`, ...headers })

const saleEvents = (stream: SseClient) =>
  stream.messages().flatMap((m) => (m.event.type === 'sale' ? [m.event as { saleId: string; sale: SaleView }] : []))
const reached = (stream: SseClient, id: string, state: string) => saleEvents(stream).some((e) => e.saleId === id && e.sale.state === state)
const prompts = (stream: SseClient) =>
  stream.messages().flatMap((m) => (m.event.type === 'device' ? [m.event as { saleId?: string; prompt: { type: string } }] : []))

/** One event as OpenAPI 3.2 §4.14.4 models it: the fields the WHATWG parser gives it. */
const item = (event: SseEvent) => ({ event: event.event, data: event.data, ...(event.hasId ? { id: event.lastEventId } : {}) })

/** The event against the item schema, then its data against the schema its event type names; the errors if any. */
function violations(event: { event: string; data: string; id?: string }): string | undefined {
  const shape = validator(ITEM_SCHEMA)
  if (!shape(event)) return `event: ${ajv.errorsText(shape.errors)}`
  const branch = itemSchema.oneOf.find((b) => b.properties.event.const === event.event)
  if (branch === undefined) return `no schema for the event type ${event.event}`
  const data = validator(branch.properties.data.contentSchema.$ref)
  return data(JSON.parse(event.data)) ? undefined : `data: ${ajv.errorsText(data.errors)}`
}

describe('the event stream as the OpenAPI document describes it', () => {
  it('every event received during sales validates: snapshots, sale changes, reader prompts, queue, heartbeats, a resume', async () => {
    const live = await open()
    await live.waitFor((s) => s.named('snapshot').length === 1)
    const resumeFrom = live.named('snapshot')[0]!.lastEventId

    // Online, with a PIN: the reader's prompts from the card to the PIN to its removal.
    await dispatch('presentTestCard', { name: 'pin-tdes' })
    const paid = await dispatch<SaleView>('startSale', { amountMinor: 1_200, reference: 'ECR-EV-1' })
    await live.waitFor((s) => reached(s, paid.id, 'approved'), 20_000)

    // The bank unreachable (its signed 503): stored offline, in the queue, then forwarded.
    agent.connection.trainingHost!.setFault('payment', 'http-503', 1)
    await dispatch('presentTestCard', { name: 'chip-visa' })
    const stored = await dispatch<SaleView>('startSale', { amountMinor: 1_300, reference: 'ECR-EV-2' })
    await live.waitFor((s) => reached(s, stored.id, 'storedOffline'), 20_000)
    agent.engine.forwarder.wake()
    await live.waitFor((s) => reached(s, stored.id, 'forwarded'), 20_000)

    // A sale waiting at the reader: a stream that joins now gets it, and its prompt, in its snapshot.
    const waiting = await dispatch<SaleView>('startSale', { amountMinor: 1_400, reference: 'ECR-EV-3' })
    await live.waitFor((s) => prompts(s).some((p) => p.saleId === waiting.id && p.prompt.type === 'waitingForCard'))
    const joined = await open()
    await joined.waitFor((s) => s.named('snapshot').length === 1)
    await dispatch('cancelSale', { id: waiting.id })
    await live.waitFor((s) => reached(s, waiting.id, 'abandoned'))

    // A stream that resumes from the first snapshot: every sale since, from the journal.
    const resumed = await open({ 'last-event-id': resumeFrom })
    await resumed.waitFor((s) => s.named('snapshot').length === 1)
    await live.waitFor((s) => s.named('heartbeat').length >= 2, 5_000)
    for (const stream of [live, joined, resumed]) stream.close()

    const received = [live, joined, resumed].flatMap((stream) => stream.events)
    for (const event of received) expect(violations(item(event)), `${event.event}: ${event.data.slice(0, 400)}`).toBeUndefined()

    // What was validated covers every kind of event the stream sends, and the states and prompts of these sales.
    const kinds = new Set(
      received.map((e) => (e.event === 'message' ? `${e.event}:${(JSON.parse(e.data) as { type: string }).type}` : e.event)),
    )
    expect([...kinds].sort()).toEqual(['heartbeat', 'message:device', 'message:queue', 'message:sale', 'snapshot'])
    expect(new Set(prompts(live).map((p) => p.prompt.type))).toEqual(
      new Set(['waitingForCard', 'cardRead', 'enterPin', 'pinEntered', 'processing', 'removeCard']),
    )
    expect(JSON.parse(joined.named('snapshot')[0]!.data) as PosStreamSnapshot).toMatchObject({
      sale: { id: waiting.id, state: 'readingCard' },
      prompt: { type: 'waitingForCard' },
    })
    expect(saleEvents(resumed).map((e) => e.saleId)).toEqual([paid.id, stored.id, waiting.id])
  }, 90_000)

  it('refuses what the stream must never send: card data in a sale, a snapshot without the queue, data under the wrong event type', async () => {
    const stream = await open()
    await dispatch('presentTestCard', { name: 'chip-visa' })
    const sale = await dispatch<SaleView>('startSale', { amountMinor: 1_500, reference: 'ECR-EV-4' })
    await stream.waitFor((s) => reached(s, sale.id, 'approved'), 20_000)
    stream.close()
    const snapshot = stream.named('snapshot')[0]!
    const saleEvent = stream.events.find((e) => e.event === 'message' && e.data.includes('"type":"sale"'))!
    expect(violations(item(snapshot))).toBeUndefined()
    expect(violations(item(saleEvent))).toBeUndefined()

    const withPan = JSON.parse(saleEvent.data) as { sale: Record<string, unknown> }
    withPan.sale.pan = '4761739001010010'
    expect(violations({ event: 'message', data: JSON.stringify(withPan) })).toMatch(/^data:/)
    const { queue: _queue, ...withoutQueue } = JSON.parse(snapshot.data) as PosStreamSnapshot
    expect(violations({ event: 'snapshot', id: snapshot.lastEventId, data: JSON.stringify(withoutQueue) })).toMatch(/^data:/)
    expect(violations({ event: 'snapshot', id: snapshot.lastEventId, data: saleEvent.data })).toMatch(/^data:/)
    expect(violations({ event: 'snapshot', data: snapshot.data })).toMatch(/^event:/)
    expect(violations({ event: 'sale', data: saleEvent.data })).toMatch(/^event:/)
  }, 60_000)
})
