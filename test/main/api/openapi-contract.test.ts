/**
 * The OpenAPI document against the running server: every operation is called with the example the
 * document gives (the sale it names swapped for a live one), and every answer, success or refusal,
 * must validate against the schema the document gives for its status. A JSON Schema validator
 * (ajv) does the checking, not the code under test.
 */
import Ajv2020 from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessOf, OPERATION_NAMES, type OperationName } from '../../../src-shared/contract'
import { TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually } from '../../support/engine-harness'
import { startApiHarness, type ApiHarness, type Reply } from './api-harness'

type Doc = {
  openapi: string
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { example?: Record<string, unknown> }> }; responses: Record<string, unknown> }>
  >
}

let api: ApiHarness
let doc: Doc
// The dialect of OpenAPI 3.1 and 3.2's schemas (JSON Schema 2020-12); not strict, because the document around
// the schemas has keywords of its own (openapi, paths, responses) that are no JSON Schema keywords.
const ajv = new Ajv2020({ allErrors: true, strict: false })

beforeAll(async () => {
  api = await startApiHarness()
  const served = await api.call('GET', '/v1/openapi.json')
  expect(served.status).toBe(200)
  doc = JSON.parse(served.body) as Doc
  // The validator is given the document without its examples: an example's `id` is a sale id, which
  // ajv would take for a schema id.
  ajv.addSchema(JSON.parse(served.body, (key, value: unknown) => (key === 'example' ? undefined : value)) as object, 'openapi.json')
})
afterAll(async () => api.close())

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

/** Validates an answer against the document's schema for its path, method and status. */
function conforms(path: string, method: string, reply: Reply): void {
  const documented = doc.paths[path]?.[method]?.responses[String(reply.status)]
  expect(documented, `${method.toUpperCase()} ${path} answered ${reply.status}, which the document does not list`).toBeDefined()
  const type = String(reply.headers['content-type']).split(';')[0]!
  const ref = `openapi.json#/${pointer('paths', path, method, 'responses', String(reply.status), 'content', type, 'schema')}`
  const validate = ajv.compile({ $ref: ref })
  const body = type === 'application/json' ? JSON.parse(reply.body) : reply.body
  const valid = validate(body)
  expect(valid, `${method.toUpperCase()} ${path} ${reply.status}: ${ajv.errorsText(validate.errors)}\n${reply.body.slice(0, 600)}`).toBe(
    true,
  )
}

const example = (name: string) => doc.paths[`/v1/ops/${name}`]!.post!.requestBody!.content['application/json']!.example!

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.2 and documents every operation, each example valid for its own request schema', () => {
    expect(doc.openapi).toBe('3.2.0')
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/v1/ops/'))
        .sort(),
    ).toEqual(OPERATION_NAMES.map((n) => `/v1/ops/${n}`).sort())
    for (const name of OPERATION_NAMES) {
      const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${name[0]!.toUpperCase()}${name.slice(1)}Request` })
      expect(validate(example(name)), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true)
    }
  })

  it('refuses what the contract does not declare: a field too many, a state it does not know, a code of another status', async () => {
    const answer = ajv.compile({
      $ref: `openapi.json#/${pointer('paths', '/v1/ops/getSale', 'post', 'responses', '200', 'content', 'application/json', 'schema')}`,
    })
    const sale = {
      id: 'T1-1',
      state: 'approved',
      amountMinor: 1,
      currency: 'USD',
      tipMinor: 0,
      tipState: 'none',
      autoCapture: true,
      offline: false,
      createdAt: 1,
      updatedAt: 1,
      businessDay: '2025-01-01',
    }
    expect(answer({ ok: true, value: sale })).toBe(true)
    expect(answer({ ok: true, value: { ...sale, pan: '4761739001010119' } })).toBe(false)
    expect(answer({ ok: true, value: { ...sale, state: 'paid' } })).toBe(false)
    const refusal = ajv.compile({ $ref: 'openapi.json#/components/schemas/Failure404' })
    const error = { code: 'NO_SUCH_SALE', message: 'no sale', retryable: false, words: 'w' }
    expect(refusal({ ok: false, error })).toBe(true)
    expect(refusal({ ok: false, error: { ...error, code: 'AMOUNT_ABOVE_LIMIT' } })).toBe(false)
  })

  it('validates every answer of the running server, each operation called with its example', async () => {
    const called = new Map<string, number>()
    // The POS calls with its token; the operations only the cashier window may call, with its session.
    const cashier = await api.cashierSession()
    const call = async (name: string, overrides: Record<string, unknown> = {}) => {
      const credential: Record<string, string> = !accessOf(name as OperationName).doors.includes('pos')
        ? { cookie: cashier }
        : { authorization: `Bearer ${api.token}` }
      const reply = await api.call('POST', `/v1/ops/${name}`, {
        body: JSON.stringify({ ...example(name), ...overrides }),
        headers: { ...credential, 'content-type': 'application/json' },
      })
      conforms(`/v1/ops/${name}`, 'post', reply)
      called.set(name, reply.status)
      return JSON.parse(reply.body) as { ok: boolean; value: { id: string } }
    }
    const { txn } = api.engine.engine
    await call('appInfo')
    api.reader.present({ card: TEST_CARDS.chipVisa() })
    const sale = (await call('startSale')).value
    await txn.waitForOutcome(sale.id)
    await call('getSale', { id: sale.id })
    await call('getSaleByReference')
    // The same card and amount again: the agent asks whether it is a duplicate.
    api.reader.present({ card: TEST_CARDS.chipVisa() })
    const twin = (await call('startSale', { reference: 'ECR-43' })).value
    await eventually(() => txn.reads.get(twin.id)?.state === 'awaitingConfirmation')
    await call('confirmDuplicate', { id: twin.id })
    await txn.waitForOutcome(twin.id)
    const waiting = (await call('startSale', { reference: 'ECR-44' })).value // no card: it waits at the reader
    await call('cancelSale', { id: waiting.id })
    await txn.waitForOutcome(waiting.id)
    // Nothing waits at the card prompt any more: there is no time to give.
    await call('extendCardRead')
    // The cashier checks a large amount with the customer, then no longer.
    await call('showAmountCheck')
    await call('showAmountCheck', { amount: null })
    await call('adjustTip', { id: sale.id })
    // A return of part of the sale, to the card it was paid with.
    api.reader.present({ card: TEST_CARDS.chipVisa() })
    const credit = (await call('startReturn', { originalId: sale.id })).value
    await eventually(() => txn.reads.get(credit.id)?.state === 'credited')
    api.reader.present({ card: TEST_CARDS.chipVisa() })
    await call('voidSale', { id: twin.id })
    for (const name of ['listSales', 'queueStatus', 'queueItems', 'forwardNow', 'dayReport', 'exportDay', 'deviceStatus', 'settings'])
      await call(name)
    // No printer or mail server in this agent: each answers its refusal, in the document too.
    await call('printReceipt', { id: sale.id })
    await call('emailReceipt', { id: sale.id })
    await call('printerStatus')
    await call('printDayReport')
    await call('retryAttention', { id: sale.id })
    await call('acknowledgeAttention', { id: sale.id })
    await call('presentTestCard')
    await call('setSigningKey')
    await call('closeDay')
    await call('listBatches')
    const created = (await call('createToken')).value as unknown as { integrator: { id: string } }
    await call('listTokens')
    await call('revokeToken', { id: created.integrator.id })
    await call('addOperator')
    await call('signIn')
    // What a manager approves, the POS sends with a proof it asked `approve` for, for that very request.
    const approved = async (name: string, overrides: Record<string, unknown> = {}, pin = '8642') => {
      const { approval: _example, ...request } = { ...example(name), ...overrides }
      const proof = (await call('approve', { operation: name, request, operatorId: '9', pin })).value as unknown as { approval: string }
      expect(proof.approval).toMatch(/^apv_/)
      return call(name, { ...overrides, approval: proof.approval })
    }
    await approved('setOperatorPin', {}, '4321')
    await approved('addOperator', { operatorId: '17', name: 'Ann', role: 'cashier', pin: '1234' })
    await approved('disableOperator')
    await approved('unlockOperator')
    await call('describeApproval', { request: { originalId: sale.id, amountMinor: 500 } })
    await approved('auditTrail')
    await call('openCashierWindow')
    await call('openCustomerDisplay')
    await call('snapshot')
    await call('metrics')
    await call('listWindows')
    await approved('revokeWindow')
    await call('listOperators')
    await call('counterOperator')
    await call('signOut')

    expect([...called.keys()].sort()).toEqual([...OPERATION_NAMES].sort())
    // The refusals above are the scenario's, not accidents: a sale that needs no manager, no test cards outside training.
    expect(Object.fromEntries([...called].filter(([, status]) => status !== 200))).toEqual({
      printReceipt: 409,
      emailReceipt: 409,
      printDayReport: 409,
      retryAttention: 422,
      acknowledgeAttention: 422,
      presentTestCard: 422,
      extendCardRead: 422,
      metrics: 404,
      revokeWindow: 404,
    })
  })

  it('validates the refusals of the doors themselves: no token, a bad resume point, no metrics', async () => {
    conforms('/v1/ops/appInfo', 'post', await api.call('POST', '/v1/ops/appInfo', { body: '{}' }))
    conforms(
      '/v1/ops/startSale',
      'post',
      await api.call('POST', '/v1/ops/startSale', { body: '{"amountMinor": -1}', headers: { authorization: `Bearer ${api.token}` } }),
    )
    conforms(
      '/v1/events',
      'get',
      await api.call('GET', '/v1/events', { headers: { authorization: `Bearer ${api.token}`, 'last-event-id': 'x' } }),
    )
    conforms('/v1/events', 'get', await api.call('GET', '/v1/events', { headers: { authorization: 'Bearer wrong' } }))
    conforms('/metrics', 'get', await api.call('GET', '/metrics', { headers: { authorization: `Bearer ${api.token}` } }))
    conforms('/v1/launch', 'post', await api.call('POST', '/v1/launch', { body: '{}', headers: { authorization: `Bearer ${api.token}` } }))
    conforms(
      '/v1/launch',
      'post',
      await api.call('POST', '/v1/launch', { body: '{"view":"x"}', headers: { authorization: `Bearer ${api.token}` } }),
    )
    conforms(
      '/v1/ops/appInfo',
      'post',
      await api.call('POST', '/v1/ops/appInfo', { body: '{}', headers: { 'sec-fetch-site': 'same-origin' } }),
    )
    conforms(
      '/v1/ops/createToken',
      'post',
      await api.call('POST', '/v1/ops/createToken', { body: '{"name":"x"}', headers: { authorization: `Bearer ${api.token}` } }),
    )
  })
})
