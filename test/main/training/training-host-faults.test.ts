import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { parseFaultSpec } from '../../../src-main/training/host'
import { newId, paymentBody, startHarness, type Harness } from './training-host-harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterEach(() => {
  h.host.clearFaults()
})
afterAll(async () => {
  await h?.close()
})

const entriesFor = (id: string) => h.host.ledger().entries.filter((e) => e.merchantTransID === id)
const payment = (id: string) => h.send({ kind: 'payment', body: paymentBody(id) })

describe('training host faults, as a client sees them', () => {
  it('delay: the answer comes late and is normal', async () => {
    h.host.setFault('payment', 'delay=300')
    const started = performance.now()
    const reply = await payment(newId())
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    expect(reply.verified).toBe(true)
    expect(reply.json.payment.status).toBe('Authorised')
    expect(h.host.ledger().entries.at(-1)?.fault).toBe('delay')
  })

  it('drop-before-processing: the socket closes, nothing is recorded, a retry is processed afresh', async () => {
    h.host.setFault('payment', 'drop-before-processing', 1)
    const id = newId()
    await expect(payment(id)).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
    expect(entriesFor(id)).toEqual([])
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === id)).toBeUndefined()
    const retry = await payment(id)
    expect(retry.json.payment.status).toBe('Authorised')
    expect(entriesFor(id).map((e) => e.replayed ?? false)).toEqual([false])
  })

  it('process-then-drop: the socket closes, the host HAS approved; a retry gets that first answer', async () => {
    h.host.setFault('payment', 'process-then-drop', 1)
    const id = newId()
    await expect(payment(id)).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
    const [entry] = entriesFor(id)
    expect(entry).toMatchObject({ operation: 'payment', status: 'Authorised', resultCode: 'S0000', fault: 'process-then-drop' })
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === id)?.status).toBe('Authorised')
    const retry = await payment(id)
    expect(retry.json.payment.svcTransInfo.svcTransID).toBe(entry?.svcTransID)
    expect(entriesFor(id).at(-1)?.replayed).toBe(true)
  })

  it('process-then-drop on reversal: reversed although the client never heard it', async () => {
    const id = newId()
    await payment(id)
    h.host.setFault('reversal', 'process-then-drop', 1)
    await expect(h.send({ kind: 'reversal', originalId: id, body: {} })).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' })
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === id)?.status).toBe('Reversed')
  })

  it("http-503: the host's own 503, signed; nothing recorded; x3 then the fault is gone", async () => {
    h.host.setFault('reversal', parseFaultSpec('reversal:http-503x3').fault, 3)
    const id = newId()
    await payment(id)
    for (let i = 0; i < 3; i++) {
      const reply = await h.send({ kind: 'reversal', originalId: id, body: {} })
      expect(reply.status).toBe(503)
      expect(reply.verified).toBe(true)
    }
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === id)?.status).toBe('Authorised')
    const fourth = await h.send({ kind: 'reversal', originalId: id, body: {} })
    expect(fourth.status).toBe(200)
    expect(fourth.json.payment.status).toBe('Reversed')
  })

  it('proxy-503 answers unsigned without processing; proxy-503-after-processing records the payment first', async () => {
    h.host.setFault('payment', 'proxy-503', 1)
    const untouched = newId()
    const first = await payment(untouched)
    expect([first.status, first.verified]).toEqual([503, false])
    expect(h.host.ledger().entries.some((e) => e.merchantTransID === untouched)).toBe(false)
    h.host.setFault('payment', 'proxy-503-after-processing', 1)
    const charged = newId()
    const second = await payment(charged)
    expect([second.status, second.verified]).toEqual([503, false])
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === charged)?.status).toBe('Authorised')
  })

  it('bad-signature: a normal-looking answer whose signature does not verify; the host recorded it', async () => {
    h.host.setFault('payment', 'bad-signature', 1)
    const id = newId()
    const reply = await payment(id)
    expect(reply.status).toBe(200)
    expect(reply.json.payment.status).toBe('Authorised')
    expect(reply.headers.authorization).toMatch(/^[0-9a-f]{64}$/)
    expect(reply.verified).toBe(false)
    expect(entriesFor(id)[0]).toMatchObject({ status: 'Authorised', fault: 'bad-signature' })
  })

  it('garbage-body: HTTP 200, correctly signed, not JSON; the host recorded it', async () => {
    h.host.setFault('*', 'garbage-body', 1)
    const id = newId()
    const reply = await payment(id)
    expect(reply.status).toBe(200)
    expect(reply.verified).toBe(true)
    expect(() => JSON.parse(reply.raw.toString('utf8'))).toThrow()
    expect(entriesFor(id)[0]).toMatchObject({ status: 'Authorised', fault: 'garbage-body' })
  })

  it('a fault for one operation leaves the others alone; * covers all; the specific one wins', async () => {
    h.host.setFault('cancel', 'http-503')
    expect((await payment(newId())).status).toBe(200)
    h.host.setFault('*', 'http-503')
    h.host.setFault('payment', 'delay=0')
    expect((await payment(newId())).status).toBe(200)
    expect((await h.send({ kind: 'tips', originalId: 'x', body: {} })).status).toBe(503)
  })

  it('faults given at start apply from the first request', async () => {
    const other = await startHarness({ faults: [parseFaultSpec('payment:http-503x1')] })
    try {
      expect((await other.send({ kind: 'payment', body: paymentBody(newId()) })).status).toBe(503)
      expect((await other.send({ kind: 'payment', body: paymentBody(newId()) })).status).toBe(200)
    } finally {
      await other.close()
    }
  })
})

describe('training host admin endpoint', () => {
  it('POST, GET and DELETE /admin/faults switch faults at run time', async () => {
    const posted = await h.admin('POST', '/admin/faults', { operation: 'payment', fault: 'http-503', times: 2 })
    expect(posted).toEqual({ status: 200, json: { faults: [{ operation: 'payment', fault: { kind: 'http-503' }, times: 2 }] } })
    expect((await payment(newId())).status).toBe(503)
    expect((await h.admin('GET', '/admin/faults')).json).toEqual({
      faults: [{ operation: 'payment', fault: { kind: 'http-503' }, times: 1 }],
    })
    await h.admin('POST', '/admin/faults', { operation: '*', fault: { kind: 'delay', ms: 1 } })
    expect((await h.admin('DELETE', '/admin/faults?operation=payment')).json).toEqual({
      faults: [{ operation: '*', fault: { kind: 'delay', ms: 1 } }],
    })
    expect((await h.admin('DELETE', '/admin/faults')).json).toEqual({ faults: [] })
    expect((await payment(newId())).status).toBe(200)
  })

  it('refuses a malformed fault with 400 and a reason', async () => {
    const bad = await h.admin('POST', '/admin/faults', { operation: 'refund', fault: 'http-503' })
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual({ error: expect.stringContaining('refund') })
    expect((await h.admin('POST', '/admin/faults', { operation: 'payment', fault: 'explode' })).status).toBe(400)
    expect((await h.admin('DELETE', '/admin/faults?operation=nope')).status).toBe(400)
  })

  it('GET /admin/ledger is the same view as ledger(); /admin/health answers', async () => {
    await payment(newId())
    const ledger = await h.admin('GET', '/admin/ledger')
    expect(ledger.json).toEqual(h.host.ledger())
    const health = await h.admin('GET', '/admin/health')
    expect(health).toMatchObject({ status: 200, json: { ok: true, entries: h.host.ledger().entries.length } })
    expect((await h.admin('GET', '/admin/nothing')).status).toBe(404)
  })
})
