/**
 * `GET /v1/events` in the OpenAPI document: the event stream (event-stream.ts) with the shape of each
 * of its events, so a client generated from the document knows what every `data:` line holds.
 *
 * Why OpenAPI 3.2 and `itemSchema`: a `text/event-stream` body is a sequence of events, and 3.2 is the
 * first version that describes one item of such a stream (OAS 3.2.0 §4.14.3.1.1: the Media Type
 * Object's `itemSchema` applies to each event on its own, as it is read). §4.14.4 gives each event,
 * as the WHATWG parser yields it, the shape `{ data, event?, id?, retry? }` and says to describe JSON
 * carried in `data` with JSON Schema's `contentMediaType` and `contentSchema`; the content schemas
 * here are the components generated from the zod schemas (PosEvent, PosStreamSnapshot,
 * PosStreamHeartbeat). OpenAPI 3.1 has no place for this (its `schema` would describe the whole body
 * as one string; an `x-` extension is read by no tool), and 3.2 keeps every 3.1 construct the rest of
 * the document uses. `contentSchema` is an annotation (JSON Schema 2020-12 Validation §8): a client
 * parses `data` and validates it against the named schema itself, as the contract test does.
 */
type JsonSchema = Record<string, unknown>

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

/** A journal position: the `id` of sale events and snapshots, and what a client resumes from. */
const JOURNAL_POSITION = { type: 'string', pattern: '^\\d{1,15}$' }

const jsonData = (component: string): JsonSchema => ({ contentMediaType: 'application/json', contentSchema: ref(component) })

/** One event of the stream, after parsing: which of the three it is, by its event type. */
export const EVENT_STREAM_ITEM: JsonSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: { type: 'string' },
    event: { type: 'string' },
    id: JOURNAL_POSITION,
    retry: { type: 'integer', minimum: 0 },
  },
  oneOf: [
    {
      description:
        'A PosEvent (sale, queue, device, alarm, amountCheck): an unnamed event, which an EventSource hands to `onmessage`. A sale event has `id`, its journal position.',
      properties: { event: { const: 'message' }, data: jsonData('PosEvent') },
    },
    {
      description:
        'Sent on every connect, after the sale changes a resume missed: the terminal now. Its `id` is the journal position it reflects.',
      required: ['event', 'id'],
      properties: { event: { const: 'snapshot' }, data: jsonData('PosStreamSnapshot') },
    },
    {
      description: 'Sent while nothing else is: no heartbeat for a minute means the connection is dead.',
      required: ['event'],
      properties: { event: { const: 'heartbeat' }, data: jsonData('PosStreamHeartbeat') },
    },
  ],
}

export function eventsPath(responses: Record<string, unknown>): JsonSchema {
  return {
    get: {
      operationId: 'events',
      summary: 'Server-sent events: PosEvent data, `snapshot` (PosStreamSnapshot) and `heartbeat` events; resumable',
      parameters: [
        { name: 'Last-Event-ID', in: 'header', required: false, schema: JOURNAL_POSITION },
        { name: 'lastEventId', in: 'query', required: false, schema: JOURNAL_POSITION },
      ],
      responses: {
        '200': {
          description: 'An event stream: each event is one item, its `data` a JSON document of the schema its event type names.',
          content: { 'text/event-stream': { itemSchema: EVENT_STREAM_ITEM } },
        },
        ...responses,
      },
    },
  }
}
