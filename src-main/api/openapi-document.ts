/**
 * The local API's OpenAPI document, served at `GET /v1/openapi.json`: built from the contract's zod
 * schemas (requests: src-shared/contract/operations.ts; answers: result-schemas.ts) with zod's JSON
 * Schema output (draft 2020-12, the dialect of OpenAPI 3.1 and 3.2), so it describes exactly what the
 * server checks and sends. Every refusal's `code` is narrowed to the catalogue codes of its HTTP
 * status (src-shared/errors). It is OpenAPI 3.2 for the event stream's sake (openapi-events.ts).
 */
import { z } from 'zod'
import { OPERATION_NAMES, OPERATION_SCHEMAS, type OperationName } from '../../src-shared/contract'
import { RESULT_SCHEMAS } from '../../src-shared/contract/operations'
import { NAMED_RESULT_SCHEMAS } from '../../src-shared/contract/result-schemas'
import { ERROR_CATALOGUE, ERROR_CODES, type HttpStatus } from '../../src-shared/errors'
import { eventsPath } from './openapi-events'
import { OPERATION_EXAMPLES } from './operation-examples'

type JsonSchema = Record<string, unknown>

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1)

const SUMMARIES: Readonly<Record<OperationName, string>> = {
  appInfo: 'Mode, currency, sale limits, terminal, training cards, alarms',
  startSale: 'Start a sale (reference: your idempotency key)',
  getSale: "A sale by the agent's id",
  getSaleByReference: 'A sale by your own reference',
  cancelSale: 'Stop a sale still at the card-read step',
  confirmDuplicate: 'Charge or refuse a possible duplicate',
  voidSale: 'Void (cancel) a sale',
  startReturn: 'Return (credit) all or part of a sale to the same card; a manager approves',
  adjustTip: 'Adjust the tip of a sale',
  listSales: 'Sales of the open batch, a day or a closed batch, found by amount, card, reference or operator',
  queueStatus: 'The store-and-forward queue',
  queueItems: 'Queued messages',
  forwardNow: 'Send everything due now',
  retryAttention: 'A manager retries a sale that needed attention',
  dayReport: 'The open batch, or a closed one, with totals',
  closeDay: 'Close the open batch',
  listBatches: 'Closed batches, newest first',
  acknowledgeAttention: 'A manager notes a stored payment the bank declined',
  exportDay: 'A batch as CSV or JSON',
  deviceStatus: 'The card reader',
  extendCardRead: 'More time for the customer at the card prompt',
  showAmountCheck: 'A large amount the cashier checks with the customer, for the customer display',
  presentTestCard: 'Training mode: the simulated PIN pad presents this card next',
  settings: 'Host, ids, signing key check value',
  setSigningKey: 'Store the signing key in the OS keychain',
  createToken: 'Admin scope: a new integrator token with its scopes (shown once), approved by a manager',
  listTokens: 'Admin scope: the integrator tokens, without the tokens themselves',
  revokeToken: 'Admin scope: revoke an integrator token (the windows it opened close with it)',
  listOperators: 'Admin scope: the operators (cashiers, managers) of this terminal',
  addOperator: 'Admin scope: a new operator, approved by a manager (the first, a manager, needs none)',
  signIn: 'The cashier window only: sign an operator in at this window with their number and PIN',
  signOut: 'The cashier window only: sign the operator out of this window',
  counterOperator: 'The cashier window only: who is signed in here, and whether a sign-in is asked for',
  setOperatorPin: 'Admin scope: a new PIN for an operator, approved by a manager (lifts a lockout)',
  disableOperator: 'Admin scope: an operator who no longer works here, approved by a manager',
  unlockOperator: 'Admin scope: lift a lockout after wrong PINs, approved by a manager',
  approve:
    "A manager's approval of one request, given ahead: send the proof as that request's approval, from the same caller; a token needs the approved request's scope",
  describeApproval: "What a request a manager approves would do (amount, card, sale; person; batch totals), in the audit trail's words",
  openCashierWindow: 'Admin scope: a one-time link that opens a cashier window',
  openCustomerDisplay: 'A one-time link that opens a customer display (reads only)',
  auditTrail: "Admin scope, a manager's: the audit trail of a batch's time, and whether its hash chain is intact",
  listWindows: 'Admin scope: the paired browser windows, what opened each, when last seen',
  revokeWindow: 'Admin scope: end a paired window (and those opened from it), approved by a manager',
  snapshot: 'The terminal now: the sale at the counter, its prompt, the queue, the reader, alarms',
  metrics: "The agent's Prometheus metrics as text (also GET /metrics)",
  printReceipt: "Print a sale's receipt (again) on the receipt printer",
  emailReceipt: "Email the customer's copy of a sale's receipt",
  printerStatus: 'The receipt printer: paper, cover, power',
  printDayReport: "Print the day report on the receipt printer: a closed batch's Z-report, or the open batch's totals",
}

/** The statuses an operation's refusal can have, each with its catalogue codes. */
function failureSchemas(): Record<string, JsonSchema> {
  const byStatus = new Map<HttpStatus, string[]>()
  for (const code of ERROR_CODES) {
    const status = ERROR_CATALOGUE[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const schemas: Record<string, JsonSchema> = {}
  for (const [status, codes] of byStatus) {
    schemas[`Failure${status}`] = {
      type: 'object',
      required: ['ok', 'error'],
      additionalProperties: false,
      properties: {
        ok: { const: false },
        error: { allOf: [ref('ErrorView'), { type: 'object', properties: { code: { enum: codes } } }] },
      },
    }
  }
  return schemas
}

/** zod's output as OpenAPI components: `$schema` and `$id` belong to standalone documents, not to components. */
function components(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` })
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema
      return [name, rest]
    }),
  )
}

function build(): JsonSchema {
  const results = z.registry<{ id: string }>()
  const named = new Map<z.ZodType, string>()
  for (const [name, schema] of Object.entries(NAMED_RESULT_SCHEMAS)) {
    results.add(schema, { id: name })
    named.set(schema, name)
  }
  const requests = z.registry<{ id: string }>()
  const resultName: Partial<Record<OperationName, string>> = {}
  for (const name of OPERATION_NAMES) {
    requests.add(OPERATION_SCHEMAS[name], { id: `${pascal(name)}Request` })
    const result = RESULT_SCHEMAS[name] as z.ZodType
    // A result schema another operation registered already keeps the name it got there.
    resultName[name] = named.get(result) ?? results.get(result)?.id ?? `${pascal(name)}Result`
    if (!results.has(result)) results.add(result, { id: resultName[name] })
  }
  const statuses = [...new Set(ERROR_CODES.map((code) => ERROR_CATALOGUE[code].status))].sort()
  const paths: Record<string, unknown> = {}
  for (const name of OPERATION_NAMES) {
    const failures = Object.fromEntries(
      statuses.map((status) => [
        String(status),
        { description: `refused (${status})`, content: { 'application/json': { schema: ref(`Failure${status}`) } } },
      ]),
    )
    paths[`/v1/ops/${name}`] = {
      post: {
        operationId: name,
        summary: SUMMARIES[name],
        requestBody: {
          description: 'The request; an empty body is read as `{}`.',
          content: { 'application/json': { schema: ref(`${pascal(name)}Request`), example: OPERATION_EXAMPLES[name] } },
        },
        responses: {
          '200': {
            description: 'done',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'value'],
                  additionalProperties: false,
                  properties: { ok: { const: true }, value: ref(resultName[name]!) },
                },
              },
            },
          },
          ...failures,
          '403': {
            description:
              'not for this caller (FORBIDDEN: a POS asking what only the cashier window may, a customer display acting), or a foreign Origin (text/plain)',
            content: { 'application/json': { schema: ref('Failure403') }, 'text/plain': { schema: { type: 'string' } } },
          },
          '421': { description: 'a foreign Host header', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    }
  }
  return {
    openapi: '3.2.0',
    info: {
      title: 'pos-agent local API',
      version: '1',
      description: 'The card-terminal agent on 127.0.0.1 (docs/local-api.md). Masked PAN and ids only: no card data crosses it.',
    },
    servers: [{ url: 'http://127.0.0.1:7480' }],
    security: [{ bearer: [] }, { session: [] }],
    paths: {
      ...paths,
      ...FIXED_PATHS,
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The installation token in `<data folder>/api-token`, or an integrator token a manager created.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'pos_session',
          description:
            'Set when a cashier window is opened from a one-time launch link (POST /v1/launch, or the link serve prints). A customer display has its own cookie, `pos_display`, sent under /customer, where it calls these paths as /customer/v1/….',
        },
      },
      schemas: { ...components(results, 'output'), ...components(requests, 'input'), ...failureSchemas() },
    },
  }
}

const unauthorised = {
  description:
    'no token (WWW-Authenticate without an error), a wrong one (error="invalid_token"), or a browser page opened without a launch link (SESSION_REQUIRED)',
  content: { 'application/json': { schema: ref('Failure401') } },
}

const FIXED_PATHS = {
  '/v1/health': {
    get: { operationId: 'health', security: [], responses: { '200': { description: 'alive', content: { 'application/json': {} } } } },
  },
  '/v1/openapi.json': {
    get: {
      operationId: 'openApi',
      security: [],
      responses: { '200': { description: 'this document', content: { 'application/json': {} } } },
    },
  },
  '/v1/events': eventsPath({
    '400': {
      description: 'a resume point that is not a journal position',
      content: { 'application/json': { schema: ref('Failure400') } },
    },
    '401': unauthorised,
  }),
  '/v1/launch': {
    post: {
      operationId: 'launch',
      summary: 'A one-time link (ten minutes) that opens a cashier window, or a customer display that only reads',
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: { type: 'object', additionalProperties: false, properties: { view: { enum: ['cashier', 'customer'] } } },
          },
        },
      },
      responses: {
        '200': {
          description: 'the link',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['ok', 'value'],
                properties: {
                  ok: { const: true },
                  value: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
                },
              },
            },
          },
        },
        '400': { description: 'a view that is not cashier or customer', content: { 'application/json': { schema: ref('Failure400') } } },
        '401': unauthorised,
        '403': { description: 'a customer display cannot open windows', content: { 'application/json': { schema: ref('Failure403') } } },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics (docs/monitoring.md)',
      responses: {
        '200': { description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } },
        '401': unauthorised,
        '404': { description: 'metrics are not enabled', content: { 'application/json': { schema: ref('Failure404') } } },
      },
    },
  },
}

let document: JsonSchema | undefined

/** Built once: the schemas do not change while the agent runs. */
export function openApiDocument(): JsonSchema {
  document ??= build()
  return document
}
