/**
 * Fault paths where a charge and the journal could disagree, each reproduced against the training
 * host over real HTTPS with a real journal: the sale must end known, and match the host's ledger.
 */
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { composeEngine } from '../../../src-main/app/compose'
import type { HostClient } from '../../../src-main/gateway'
import type { QueueAttention } from '../../../src-main/txn'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, TEN_MINUTE_RETRY, testSettings, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

describe('an unsigned HTTP 503 is not proof that nothing was recorded', () => {
  it.each([
    ['requireOnline', 'chip'],
    ['preferOnline', 'chip'],
    ['requireOnline', 'swipe'],
  ] as const)('%s, %s card: a proxy 503 after the host charged → reversed, never charged twice', async (offlinePolicy, method) => {
    const reader = new ScriptedCardReader().present({ card: method === 'chip' ? TEST_CARDS.chipVisa() : TEST_CARDS.swipeMastercard() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('payment', 'proxy-503-after-processing', 1)
    const started = harness.engine.txn.sales.start({ amountMinor: 3100, currency: 'USD', offlinePolicy })
    const result = await harness.engine.txn.waitForOutcome(started.id)
    expect(result.state).toBe('reversalPending')
    expect(result.offline).toBe(false)
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'reversed', 8_000)
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === started.id)?.status).toBe('Reversed')
  })

  it("the host's own signed 503 still means not delivered: stored offline, then forwarded once", async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('payment', 'http-503', 1)
    const started = harness.engine.txn.sales.start({ amountMinor: 3200, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('storedOffline')
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'forwarded', 8_000)
    expect(harness.host.ledger().payments.filter((p) => p.merchantTransID === started.id)).toHaveLength(1)
  })
})

describe('a void withdraws locally only what provably never left the terminal', () => {
  it('a stored payment whose forward ended unknown (the host charged it, the answer was lost) is reversed, not withdrawn', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    // A long backoff keeps the payment waiting after its first, lost, answer: the void comes in between.
    harness = await startEngineHarness(reader, {
      retry: {
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        maxAttempts: 50,
        maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
      },
    })
    // The queue is driven by hand here, so the void lands exactly between the lost answer and a resend.
    await harness.engine.forwarder.stop()
    harness.host.setFault('payment', 'http-503', 1)
    const started = harness.engine.txn.sales.start({ amountMinor: 3300, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('storedOffline')
    // The forward reaches the host, which charges it, but no answer comes back.
    harness.host.setFault('payment', 'process-then-drop', 1)
    await harness.engine.forwarder.drainOnce()
    await eventually(() => harness!.host.ledger().payments.find((p) => p.merchantTransID === started.id))
    expect(harness.engine.journal.outbox.ofSale(started.id).find((i) => i.operation === 'payment')?.state).toBe('pending')

    const voided = await harness.engine.txn.afterSale.voidSale(started.id)
    expect(voided.state).toBe('cancelPending')
    await harness.engine.forwarder.drainOnce()
    expect(harness.engine.txn.reads.get(started.id)?.state).toBe('cancelled')
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === started.id)?.status).toBe('Reversed')
    expect(harness.engine.journal.outbox.ofSale(started.id).find((i) => i.operation === 'payment')?.state).toBe('withdrawn')
  })

  it('a stored payment never handed to the network is withdrawn at once and never reaches the host', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader, {
      retry: {
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        maxAttempts: 50,
        maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
      },
    })
    await harness.engine.forwarder.stop()
    const started = harness.engine.txn.sales.start({ amountMinor: 3400, currency: 'USD', offlinePolicy: 'forceOffline' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('storedOffline')
    expect((await harness.engine.txn.afterSale.voidSale(started.id)).state).toBe('cancelled')
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === started.id)).toBeUndefined()
  })
})

describe('card data does not wait with a reversal', () => {
  it('no answer from the host: the reversal is queued and the card data purged in the same commit', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('payment', 'delay=2500', 1)
    harness.host.setFault('reversal', 'http-503')
    const started = harness.engine.txn.sales.start({ amountMinor: 3500, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('reversalPending')
    expect(harness.engine.journal.openCard(started.id, 'purchase')).toBeUndefined()
    expect(harness.engine.journal.sealedRowCount()).toBe(1) // the reversal's own queued body, nothing of the card
    harness.host.clearFaults()
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'reversed', 8_000)
  })
})

describe('"forward now" forwards now', () => {
  it('after an outage, every waiting item is sent at once, whatever its backoff said, in order per sale', async () => {
    const reader = new ScriptedCardReader()
    harness = await startEngineHarness(reader, { retry: TEN_MINUTE_RETRY })
    harness.host.setFault('*', 'http-503')
    const ids: string[] = []
    for (const amountMinor of [3600, 3700]) {
      reader.present({ card: TEST_CARDS.chipVisa() })
      const started = harness.engine.txn.sales.start({ amountMinor, currency: 'USD' })
      expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('storedOffline')
      ids.push(started.id)
    }
    await harness.engine.txn.afterSale.adjustTip(ids[0]!, 300)
    // The first forward failed while the host was down: that payment waits ten minutes for its next
    // try, and the queue probes the outage on the same backoff, so the other items wait as long.
    const paymentOf = (id: string) => harness!.engine.journal.outbox.ofSale(id).find((i) => i.operation === 'payment')!
    await eventually(() => (paymentOf(ids[0]!).attempts > 0 && paymentOf(ids[0]!).state === 'pending') || undefined)
    expect(paymentOf(ids[0]!).nextAttemptAt).toBeGreaterThan(Date.now() + 60_000)
    expect(ids.map((id) => harness!.engine.txn.reads.get(id)?.state)).toEqual(['storedOffline', 'storedOffline'])
    harness.host.clearFaults()
    await harness.engine.forwarder.forwardNow()
    expect(ids.map((id) => harness!.engine.txn.reads.get(id)?.state)).toEqual(['forwarded', 'forwarded'])
    expect(harness.engine.txn.reads.get(ids[0]!)?.tipState).toBe('adjusted')
  })
})

describe('a stored payment the bank declines later is never a silent loss', () => {
  it('raises an alarm, counts as needing a manager, blocks the close until acknowledged, and stays in the report as money not received', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    await harness.engine.forwarder.stop()
    const alarms: QueueAttention[] = []
    harness.engine.forwarder.on('attention', (_item, why) => alarms.push(why))
    // Stored offline, then declined by the bank when forwarded (amount ending in 51: insufficient funds).
    const started = harness.engine.txn.sales.start({ amountMinor: 4151, currency: 'USD', offlinePolicy: 'forceOffline' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('storedOffline')
    await harness.engine.forwarder.drainOnce()
    expect(harness.engine.txn.reads.get(started.id)?.state).toBe('needsAttention')
    expect(alarms).toEqual([{ failure: 'declined', detail: expect.stringMatching(/declined by the bank/) }])
    expect(harness.engine.forwarder.status().attentionCount).toBe(1)

    const blocked = harness.engine.txn.day.report()
    expect(blocked).toMatchObject({ closable: false, overridable: true, blockedReason: expect.stringMatching(/needs a manager/) })
    expect((await harness.engine.txn.day.close()).batch.closedAt).toBeUndefined()
    await expect(harness.engine.txn.afterSale.managerRetry(started.id)).rejects.toThrow()

    expect((await harness.engine.txn.afterSale.acknowledge(started.id)).state).toBe('notReceived')
    const report = await harness.engine.txn.day.close()
    expect(report).toMatchObject({ batch: { number: 1 }, counts: { notReceived: 1, approved: 0 }, notReceivedMinor: { USD: 4151 } })
    expect(report.batch.closedAt).toBeDefined()
    expect(harness.engine.forwarder.status().attentionCount).toBe(0)
  })
})

describe('a reversal that gave up blocks the close', () => {
  it('until a manager resolves it; a manager may close anyway, and that is recorded on the sale', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader, {
      retry: {
        baseDelayMs: 1,
        maxDelayMs: 1,
        maxAttempts: 1,
        maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
      },
    })
    harness.host.setFault('payment', 'process-then-drop', 1)
    harness.host.setFault('reversal', 'http-503')
    const started = harness.engine.txn.sales.start({ amountMinor: 4200, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('reversalPending')
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'needsAttention', 8_000)
    // The charge may still stand at the bank: the day does not close over it.
    expect(harness.engine.txn.day.report()).toMatchObject({ closable: false, overridable: true })
    expect((await harness.engine.txn.day.close()).batch.closedAt).toBeUndefined()

    const closed = await harness.engine.txn.day.close(undefined, true)
    expect(closed.batch).toMatchObject({ number: 1, managerOverride: true })
    expect(closed.sales.find((s) => s.id === started.id)?.state).toBe('needsAttention')
    expect(harness.engine.journal.events(started.id).map((e) => e.type)).toContain('closeOverridden')
  })
})

describe('restaurant close does not skip stored authorisations', () => {
  it('a payment stored while the bank was down is captured for base plus tip once it is forwarded', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader, { restaurantMode: true })
    harness.host.setFault('*', 'http-503')
    const sale = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 4300, currency: 'USD' }).id)
    expect(sale.state).toBe('storedOffline')
    await harness.engine.txn.afterSale.adjustTip(sale.id, 500)
    const report = await harness.engine.txn.day.close()
    expect(report.batch.closedAt).toBeDefined()
    // The capture waits behind the payment in the queue.
    expect(harness.engine.txn.reads.get(sale.id)?.state).toBe('capturePending')
    harness.host.clearFaults()
    await harness.engine.forwarder.forwardNow()
    await eventually(() => harness!.engine.txn.reads.get(sale.id)?.state === 'captured', 8_000)
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === sale.id)).toMatchObject({
      status: 'Captured',
      tipAmount: { value: '5.00' },
    })
    const capture = harness.host.ledger().entries.find((e) => e.operation === 'capture' && e.originalMerchantTransID === sale.id)
    expect(capture?.amount).toEqual({ currency: 'USD', value: '48.00' })
  })
})

describe('a reversal the bank refuses is never stranded', () => {
  it('it is parked for a manager, whose retry sends it again until the bank confirms', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    // The real client to the training host, except that the first answer to a reversal reads refused.
    const client = harness.client
    let refuseNext = true
    const host: HostClient = {
      send: (...args) => client.send(...args),
      sendUnchecked: async (kind, body, originalId) => {
        const outcome = await client.sendUnchecked(kind, body, originalId)
        if (kind !== 'reversal' || !refuseNext || outcome.kind !== 'approved') return outcome
        refuseNext = false
        return { ...outcome, kind: 'declined', reason: 'refused by the bank' }
      },
      close: async () => undefined,
    }
    await harness.engine.close()
    harness.engine = await composeEngine(testSettings(harness.dir), {
      reader,
      host,
      secrets: harness.secrets,
      logger: pino({ level: 'silent' }),
    })
    harness.host.setFault('payment', 'delay=2500', 1)
    const started = harness.engine.txn.sales.start({ amountMinor: 4400, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('reversalPending')
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'needsAttention', 8_000)
    expect(harness.engine.journal.outbox.ofSale(started.id).find((i) => i.operation === 'reversal')?.state).toBe('attention')
    expect(harness.engine.txn.day.report()).toMatchObject({ closable: false })

    await harness.engine.txn.afterSale.managerRetry(started.id)
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'reversed', 8_000)
    // The reversal may overtake the slow payment at the host; either way the card is not charged.
    const atHost = await eventually(() => harness!.host.ledger().payments.find((p) => p.merchantTransID === started.id), 8_000)
    expect(['Reversed', 'Failed']).toContain(atHost.status)
  })
})

describe('a lost data key does not strand a reversal', () => {
  it('the reversal goes without the card data it cannot open, and the charge is reversed at the bank', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    // The queue waits, so the reversal is still queued when the keychain loses the data key.
    await harness.engine.forwarder.stop()
    harness.host.setFault('payment', 'process-then-drop', 1)
    const started = harness.engine.txn.sales.start({ amountMinor: 4400, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('reversalPending')
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === started.id)?.status).toBe('Captured')
    await harness.secrets.delete('data-key/T1')

    const engine = await harness.restart()
    expect(engine.alarms.map((a) => a.code)).toEqual(['DATA_KEY_MISSING'])
    // Nothing the agent owes the bank is locked away: the reversal has its card-free copy.
    expect(engine.journal.outbox.lockedCount()).toBe(0)
    await eventually(() => engine.txn.reads.get(started.id)?.state === 'reversed', 8_000)
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === started.id)?.status).toBe('Reversed')
    const reversal = harness.host.ledger().entries.find((e) => e.operation === 'reversal' && e.originalMerchantTransID === started.id)
    expect(reversal?.status).toBe('Success')
  })
})

describe('an answer about another request is not an answer', () => {
  it.each(['answer-other-id', 'answer-other-amount'] as const)(
    'a payment answered by a signed record with %s is reversed, never approved',
    async (fault) => {
      harness = await startEngineHarness(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }))
      const h = harness
      h.host.setFault('payment', fault, 1)
      const started = h.engine.txn.sales.start({ amountMinor: 2_700, currency: 'USD' })
      expect((await h.engine.txn.waitForOutcome(started.id)).state).toBe('reversalPending')
      await eventually(() => h.engine.txn.reads.get(started.id)?.state === 'reversed', 8_000)
      expect(h.host.ledger().payments.find((p) => p.merchantTransID === started.id)?.status).toBe('Reversed')
      const answered = h.engine.journal.events(started.id).find((e) => e.type === 'paymentAnswered')
      expect(JSON.parse(answered?.detail ?? '{}')).toMatchObject({
        kind: 'unknown',
        reason: expect.stringMatching(/not an answer to this request/),
      })
    },
  )
})

describe('a host that answers reversals with a bare record (host contract §1)', () => {
  it.each([
    ['process-then-drop', 'the answer lost'],
    ['proxy-503-after-processing', 'an unsigned 503 after the host charged'],
    ['answer-other-id', 'a record about another payment'],
  ] as const)('a payment with %s (%s) ends reversed, not left reversalPending', async (fault, _how) => {
    harness = await startEngineHarness(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }))
    const h = harness
    h.host.setFault('payment', fault, 1)
    // Every reversal answered in the bare form: status and svcTransInfo, no id, no payment.
    h.host.setFault('reversal', 'answer-bare-record')
    const started = h.engine.txn.sales.start({ amountMinor: 2_900, currency: 'USD' })
    expect((await h.engine.txn.waitForOutcome(started.id)).state).toBe('reversalPending')
    await eventually(() => h.engine.txn.reads.get(started.id)?.state === 'reversed', 8_000)
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === started.id)?.status).toBe('Reversed')
    const reversals = h.host.ledger().entries.filter((e) => e.operation === 'reversal' && e.originalMerchantTransID === started.id)
    // Acknowledged at its first answer: not asked again and again.
    expect(reversals).toHaveLength(1)
    expect(reversals[0]).toMatchObject({ status: 'Success', fault: 'answer-bare-record' })
    expect(
      h.engine.journal.outbox
        .ofSale(started.id)
        .filter((i) => i.operation === 'reversal' && ['pending', 'inflight', 'attention'].includes(i.state)),
    ).toEqual([])
  })
})
