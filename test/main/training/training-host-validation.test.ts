import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from 'undici'
import { AID, KEY, newId, paymentBody, startHarness, type Harness, type SendSpec } from './training-host-harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

/** Sends, and checks the host recorded nothing and left the merchantTransID unused. */
async function sendUnrecorded(spec: SendSpec & { id: string }) {
  const before = h.host.ledger().entries.length
  const reply = await h.send(spec)
  expect(h.host.ledger().entries.length).toBe(before)
  const retry = await h.send({ kind: 'payment', body: paymentBody(spec.id) })
  expect(retry.json.payment.status).toBe('Authorised')
  return reply
}

describe('training host: signature (docs/gateway.md §D1)', () => {
  it.each<[string, (id: string) => SendSpec]>([
    ['a wrong key', (id) => ({ kind: 'payment', body: paymentBody(id), key: 'x'.repeat(32) })],
    [
      'a body changed after signing',
      (id) => ({ kind: 'payment', body: paymentBody(id), tamper: (b) => Buffer.from(b.toString().replace('12.34', '12.35')) }),
    ],
    [
      'a DateTime changed after signing',
      (id) => ({ kind: 'payment', body: paymentBody(id), alterHeaders: { datetime: '2026-11-21T10:00:00+01:00' } }),
    ],
    ['a MsgID changed after signing', (id) => ({ kind: 'payment', body: paymentBody(id), alterHeaders: { msgid: 'other' } })],
    [
      'a well-formed but wrong Authorization',
      (id) => ({ kind: 'payment', body: paymentBody(id), alterHeaders: { authorization: '0'.repeat(64) } }),
    ],
    ['no Authorization', (id) => ({ kind: 'payment', body: paymentBody(id), headers: { authorization: undefined } })],
    ['an unknown SignType', (id) => ({ kind: 'payment', body: paymentBody(id), headers: { signtype: 'MD5' } })],
    ['no SignType', (id) => ({ kind: 'payment', body: paymentBody(id), headers: { signtype: undefined } })],
    ['a non-hex Authorization', (id) => ({ kind: 'payment', body: paymentBody(id), headers: { authorization: 'not-hex' } })],
  ])('%s → HTTP 401 A0001, nothing recorded', async (_name, spec) => {
    const id = newId()
    const reply = await sendUnrecorded({ ...spec(id), id })
    expect(reply.status).toBe(401)
    expect(reply.json.result.code).toBe('A0001')
  })

  it('an unknown aid → 401 A0001, unsigned (the host has no key for it)', async () => {
    const reply = await h.send({ kind: 'payment', aid: 'acq-9999', body: paymentBody(newId()) })
    expect(reply.status).toBe(401)
    expect(reply.json.result).toEqual({ code: 'A0001', message: 'unknown aid acq-9999' })
    expect(reply.headers.authorization).toBeUndefined()
  })

  it('a 401 to a known aid is signed with its key, so a wrong string to sign can be told from a wrong key', async () => {
    const reply = await h.send({ kind: 'payment', body: paymentBody(newId()), tamper: (b) => Buffer.concat([b, Buffer.from(' ')]) })
    expect(reply.status).toBe(401)
    expect(reply.verified).toBe(true)
  })

  it('with a configured KeyID, another KeyID → 401; none at all is accepted', async () => {
    const other = await startHarness({ keyId: 'K1' })
    try {
      const wrong = await other.send({ kind: 'payment', body: paymentBody(newId()), headers: { keyid: 'K2' } })
      expect(wrong.status).toBe(401)
      const right = await other.send({ kind: 'payment', body: paymentBody(newId()), headers: { keyid: 'K1' } })
      expect(right.headers.keyid).toBe('K1')
      expect(right.json.payment.status).toBe('Authorised')
      const none = await other.send({ kind: 'payment', body: paymentBody(newId()) })
      expect(none.headers.keyid).toBeUndefined()
      expect(none.json.result.code).toBe('S0000')
    } finally {
      await other.close()
    }
  })
})

describe('training host: headers and body validation → HTTP 200 V0007/V0008, signed, nothing recorded', () => {
  const withBody = (id: string, change: (b: Record<string, unknown>) => unknown): SendSpec => ({
    kind: 'payment',
    body: change(paymentBody(id)),
  })
  const metadata = (text: string) => (b: Record<string, unknown>) => ({ ...b, metadata: text })

  it.each<[string, (id: string) => SendSpec, string, RegExp]>([
    [
      'garbage JSON',
      (id) => ({ kind: 'payment', body: `{"merchantTransInfo":{"merchantTransID":"${id}"` }),
      'V0008',
      /^\(body\) is not valid JSON/,
    ],
    ['a JSON array', () => ({ kind: 'payment', body: '[1,2]' }), 'V0008', /^\(body\) must be a JSON object/],
    ['bytes that are not UTF-8', () => ({ kind: 'payment', body: Buffer.from([0x7b, 0xff, 0x7d]) }), 'V0008', /UTF-8/],
    ['an empty body', () => ({ kind: 'payment', body: '' }), 'V0008', /not valid JSON/],
    [
      'no merchantTransInfo',
      (id) => withBody(id, (b) => ({ ...b, merchantTransInfo: undefined })),
      'V0007',
      /^merchantTransInfo is required/,
    ],
    [
      'no transAmount.value',
      (id) => withBody(id, (b) => ({ ...b, transAmount: { currency: 'USD' } })),
      'V0007',
      /^transAmount\.value is required/,
    ],
    ['no autoCapture', (id) => withBody(id, (b) => ({ ...b, autoCapture: undefined })), 'V0007', /^autoCapture/],
    [
      'three decimals in USD',
      (id) => withBody(id, (b) => ({ ...b, transAmount: { currency: 'USD', value: '1.234' } })),
      'V0008',
      /^transAmount\.value/,
    ],
    [
      'an unknown currency',
      (id) => withBody(id, (b) => ({ ...b, transAmount: { currency: 'XXX', value: '1.00' } })),
      'V0008',
      /^transAmount\.currency/,
    ],
    [
      'a zero amount',
      (id) => withBody(id, (b) => ({ ...b, transAmount: { currency: 'USD', value: '0.00' } })),
      'V0008',
      /^transAmount\.value must be greater than zero/,
    ],
    [
      'metadata 257 × "é" (514 bytes, 257 characters)',
      (id) => withBody(id, metadata('é'.repeat(257))),
      'V0008',
      /^metadata must be at most 512 bytes/,
    ],
    ['metadata 171 × "€" (513 bytes)', (id) => withBody(id, metadata('€'.repeat(171))), 'V0008', /^metadata/],
    ['metadata 129 × "😀" (516 bytes)', (id) => withBody(id, metadata('😀'.repeat(129))), 'V0008', /^metadata/],
    [
      'an unreadable track2',
      (id) => withBody(id, (b) => ({ ...b, paymentMethod: { type: 'card', card: { cardInfo: { track2: '41111=2912' } } } })),
      'V0008',
      /^paymentMethod\.card\.cardInfo\.track2/,
    ],
    [
      'encryptedCardInfo only',
      (id) => withBody(id, (b) => ({ ...b, paymentMethod: { type: 'card', card: { encryptedCardInfo: 'AB' } } })),
      'V0008',
      /^paymentMethod\.card\.encryptedCardInfo/,
    ],
    ['no card data', (id) => withBody(id, (b) => ({ ...b, paymentMethod: { type: 'card', card: {} } })), 'V0008', /track2/],
    [
      'Content-Type text/plain',
      (id) => ({ kind: 'payment', body: paymentBody(id), headers: { 'content-type': 'text/plain' } }),
      'V0008',
      /^Content-Type/,
    ],
    [
      'charset latin1',
      (id) => ({ kind: 'payment', body: paymentBody(id), headers: { 'content-type': 'application/json; charset=iso-8859-1' } }),
      'V0008',
      /^Content-Type/,
    ],
    [
      'no DateTime',
      (id) => ({ kind: 'payment', body: paymentBody(id), headers: { datetime: undefined } }),
      'V0007',
      /^DateTime is required/,
    ],
    [
      'a DateTime without offset',
      (id) => ({ kind: 'payment', body: paymentBody(id), headers: { datetime: '2026-11-21T10:00:00' } }),
      'V0008',
      /^DateTime/,
    ],
    ['no MsgID', (id) => ({ kind: 'payment', body: paymentBody(id), headers: { msgid: undefined } }), 'V0007', /^MsgID is required/],
    [
      'a MsgID over 1024 bytes',
      (id) => ({ kind: 'payment', body: paymentBody(id), headers: { msgid: 'm'.repeat(1025) } }),
      'V0008',
      /^MsgID/,
    ],
  ])('%s', async (_name, spec, code, message) => {
    const id = newId()
    const reply = await sendUnrecorded({ ...spec(id), id })
    expect(reply.status).toBe(200)
    expect(reply.verified).toBe(true)
    expect(reply.json.result.code).toBe(code)
    expect(reply.json.result.message).toMatch(message)
  })

  it.each([
    ['256 × "é" (512 bytes)', 'é'.repeat(256)],
    ['128 × "😀" (512 bytes)', '😀'.repeat(128)],
  ])('metadata of exactly 512 bytes is accepted: %s', async (_name, text) => {
    const reply = await h.send({ kind: 'payment', body: paymentBody(newId(), { metadata: text }) })
    expect(reply.json.result.code).toBe('S0000')
    expect(reply.json.metadata).toBe(text)
  })

  it('validates cancel, reversal, tips and capture bodies with the shared schemas', async () => {
    const cancel = await h.send({ kind: 'cancel', originalId: 'x', body: { paymentMethod: { type: 'card', card: {} } } })
    expect(cancel.json.result).toMatchObject({ code: 'V0007', message: expect.stringMatching(/^merchantTransInfo/) })
    const reversal = await h.send({ kind: 'reversal', originalId: 'x', body: { initiatingReason: 'x'.repeat(65) } })
    expect(reversal.json.result).toMatchObject({ code: 'V0008', message: expect.stringMatching(/^initiatingReason/) })
    const tips = await h.send({ kind: 'tips', originalId: 'x', body: { merchantTransInfo: { merchantTransID: 't' } } })
    expect(tips.json.result.code).toBe('V0007')
    const capture = await h.send({
      kind: 'capture',
      originalId: 'x',
      body: {
        merchantTransInfo: { merchantTransID: 'c', merchantTransTime: 'yesterday' },
        transAmount: { currency: 'USD', value: '1.00' },
      },
    })
    expect(capture.json.result).toMatchObject({ code: 'V0008', message: expect.stringMatching(/^merchantTransInfo\.merchantTransTime/) })
  })
})

describe('training host: routes', () => {
  it('404 for a path that is not an operation, 405 for GET on one', async () => {
    const missing = await request(`${h.host.url}/g2/v0/payment/acq/${AID}/svc.offline.refund`, {
      method: 'POST',
      dispatcher: h.agent,
      body: '{}',
    })
    expect(missing.statusCode).toBe(404)
    await missing.body.dump()
    const get = await request(`${h.host.url}/g2/v0/payment/acq/${AID}/svc.offline.payment`, { method: 'GET', dispatcher: h.agent })
    expect(get.statusCode).toBe(405)
    await get.body.dump()
    expect(KEY).toHaveLength(32)
  })
})
