/**
 * Returns end to end with the real parts: the journal file, the gateway client over HTTPS and the
 * training host's ledger. A credit is journaled before it is sent, sent until answered, credited once,
 * never more in total than was charged, only to the card the sale was paid with, and its card data
 * is gone once the bank answered.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ReturnRequest } from '../../../src-main/txn'
import { PosError } from '../../../src-shared/pos-error'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { DEFAULT_OFFLINE_LIMITS } from '../../../src-main/txn/offline-policy'
import { eventually, startEngineHarness, TEST_SALE_LIMITS, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const visa = () => ({ card: TEST_CARDS.chipVisa() })

async function chargedSale(h: EngineHarness, amountMinor: number): Promise<string> {
  const started = h.engine.txn.sales.start({ amountMinor, currency: 'USD' })
  expect((await h.engine.txn.waitForOutcome(started.id)).state).toBe('approved')
  return started.id
}

/** A return asked of the engine: journaled, the card read; resolves once the card step is over. */
async function returnOf(h: EngineHarness, request: Partial<ReturnRequest> & { amountMinor: number }) {
  const started = h.engine.txn.returns.start({ currency: 'USD', managerApproved: true, ...request })
  expect(started).toMatchObject({ kind: 'return', state: 'returnReadingCard' })
  return h.engine.txn.waitForOutcome(started.id)
}

function creditsAtHost(h: EngineHarness, id: string) {
  return h.host.ledger().entries.filter((e) => e.operation === 'merchandiseCredit' && e.merchantTransID === id)
}

function refusal(run: () => unknown): string | undefined {
  try {
    run()
  } catch (error) {
    if (error instanceof PosError) return error.code
    throw error
  }
  return undefined
}

describe('a referenced return', () => {
  it('credits part, then the rest up to amount plus tip, and refuses a third; the day report nets them', async () => {
    const reader = new ScriptedCardReader().present(visa(), visa(), visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await chargedSale(h, 5000)
    await h.engine.txn.afterSale.adjustTip(saleId, 500)
    await eventually(() => h.engine.txn.reads.get(saleId)?.tipState === 'adjusted')
    expect(h.engine.txn.reads.get(saleId)?.returnableMinor).toBe(5500)

    const first = await returnOf(h, { originalId: saleId, amountMinor: 2000 })
    expect(first.state).toBe('creditPending')
    expect(h.engine.txn.reads.get(saleId)?.returnableMinor).toBe(3500)
    await eventually(() => h.engine.txn.reads.get(first.id)?.state === 'credited')

    const second = await returnOf(h, { originalId: saleId, amountMinor: 3500 })
    await eventually(() => h.engine.txn.reads.get(second.id)?.state === 'credited')
    expect(h.engine.txn.reads.get(saleId)).toMatchObject({ state: 'approved', returnableMinor: 0 })

    expect(refusal(() => h.engine.txn.returns.start({ originalId: saleId, amountMinor: 1, currency: 'USD', managerApproved: true }))).toBe(
      'RETURN_TOO_LARGE',
    )
    for (const id of [first.id, second.id]) {
      const credits = creditsAtHost(h, id)
      expect(credits).toHaveLength(1)
      expect(credits[0]).toMatchObject({ status: 'Success', amount: { currency: 'USD' } })
    }
    expect(creditsAtHost(h, first.id)[0]?.amount?.value).toBe('20.00')

    const report = h.engine.txn.day.report()
    expect(report.counts).toMatchObject({ approved: 1, returns: 2 })
    expect(report.returnsMinor).toEqual({ USD: 5500 })
    expect(report.grandTotalMinor).toEqual({ USD: 0 })
  })

  it('takes only the card the sale was paid with: another card ends it, nothing sent or kept', async () => {
    const reader = new ScriptedCardReader().present(visa(), { card: TEST_CARDS.swipeMastercard() })
    harness = await startEngineHarness(reader)
    const saleId = await chargedSale(harness, 4000)
    const refused = await returnOf(harness, { originalId: saleId, amountMinor: 1000 })
    expect(refused.state).toBe('abandoned')
    expect(refused.reason).toContain('not the card the sale was paid with')
    expect(creditsAtHost(harness, refused.id)).toHaveLength(0)
    expect(harness.engine.journal.sealedRowCount()).toBe(0)
    expect(harness.engine.txn.reads.get(saleId)?.returnableMinor).toBe(4000)
  })

  it('refuses a sale that does not stand at the bank (voided), and a return of a return', async () => {
    const reader = new ScriptedCardReader().present(visa(), visa(), visa(), visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const kept = await chargedSale(h, 3000)
    const credit = await returnOf(h, { originalId: kept, amountMinor: 1000 })
    expect(
      refusal(() => h.engine.txn.returns.start({ originalId: credit.id, amountMinor: 1, currency: 'USD', managerApproved: true })),
    ).toBe('NOT_RETURNABLE')
    const voided = await chargedSale(h, 2000)
    await h.engine.txn.afterSale.voidSale(voided)
    await eventually(() => h.engine.txn.reads.get(voided)?.state === 'cancelled')
    expect(refusal(() => h.engine.txn.returns.start({ originalId: voided, amountMinor: 1, currency: 'USD', managerApproved: true }))).toBe(
      'NOT_RETURNABLE',
    )
  })
})

describe('a sale with a return against it keeps what the return credited', () => {
  it('is not voided once a return credited part of it: the host keeps the payment the credit came out of', async () => {
    const reader = new ScriptedCardReader().present(visa(), visa(), visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await chargedSale(h, 4100)
    const credit = await returnOf(h, { originalId: saleId, amountMinor: 1100 })
    await eventually(() => h.engine.txn.reads.get(credit.id)?.state === 'credited')
    await expect(h.engine.txn.afterSale.voidSale(saleId)).rejects.toThrow(/return/)
    expect(h.engine.txn.reads.get(saleId)).toMatchObject({ state: 'approved', returnableMinor: 3000 })
    await h.engine.forwarder.forwardNow()
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === saleId)?.status).toBe('Captured')
    expect(h.host.ledger().entries.filter((e) => e.operation === 'cancel')).toHaveLength(0)
    // what is left is still returned the way back: a return
    const rest = await returnOf(h, { originalId: saleId, amountMinor: 3000 })
    await eventually(() => h.engine.txn.reads.get(rest.id)?.state === 'credited')
  })

  it('a sale whose return ended at the reader is voided as usual', async () => {
    const reader = new ScriptedCardReader().present(visa(), { card: TEST_CARDS.swipeMastercard() }, visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await chargedSale(h, 2000)
    expect((await returnOf(h, { originalId: saleId, amountMinor: 2000 })).state).toBe('abandoned')
    await h.engine.txn.afterSale.voidSale(saleId)
    await eventually(() => h.engine.txn.reads.get(saleId)?.state === 'cancelled')
  })

  it('keeps its tip at least what the returns credited beyond the amount', async () => {
    const reader = new ScriptedCardReader().present(visa(), visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await chargedSale(h, 1000)
    await h.engine.txn.afterSale.adjustTip(saleId, 300, true)
    await eventually(() => h.engine.txn.reads.get(saleId)?.tipState === 'adjusted')
    const credit = await returnOf(h, { originalId: saleId, amountMinor: 1200 })
    await eventually(() => h.engine.txn.reads.get(credit.id)?.state === 'credited')
    await expect(h.engine.txn.afterSale.adjustTip(saleId, 100, true)).rejects.toThrow(/return/)
    await h.engine.txn.afterSale.adjustTip(saleId, 200, true)
    await eventually(() => h.engine.txn.reads.get(saleId)?.tipState === 'adjusted')
    const payment = h.host.ledger().payments.find((p) => p.merchantTransID === saleId)
    expect(payment?.tipAmount?.value).toBe('2.00')
    expect(h.engine.txn.reads.get(saleId)?.returnableMinor).toBe(0)
  })
})

describe('a credit is sent until the bank answers, and credited once', () => {
  it('the bank unreachable: the credit is stored, forwarded when it is back, credited once; card data purged after the answer', async () => {
    const reader = new ScriptedCardReader().present(visa(), visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await chargedSale(h, 6000)
    h.host.setFault('merchandiseCredit', 'http-503', 3)
    const pending = await returnOf(h, { originalId: saleId, amountMinor: 6000 })
    expect(pending.state).toBe('creditPending')
    // Sealed while owed to the bank: the queued body carries the card.
    expect(h.engine.journal.sealedRowCount()).toBeGreaterThan(0)
    await eventually(() => h.engine.txn.reads.get(pending.id)?.state === 'credited', 8_000)
    const credits = creditsAtHost(h, pending.id)
    expect(credits.filter((e) => e.status === 'Success')).toHaveLength(1)
    expect(h.engine.journal.sealedRowCount()).toBe(0)
    expect(h.engine.journal.outbox.ofSale(pending.id).map((i) => [i.operation, i.state])).toEqual([['merchandiseCredit', 'done']])
  })

  it("the bank's answer lost: the same credit is sent again and the host answers with the first; credited once", async () => {
    const reader = new ScriptedCardReader().present(visa(), visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await chargedSale(h, 2500)
    h.host.setFault('merchandiseCredit', 'process-then-drop', 1)
    const pending = await returnOf(h, { originalId: saleId, amountMinor: 2500 })
    await eventually(() => h.engine.txn.reads.get(pending.id)?.state === 'credited', 8_000)
    const credits = creditsAtHost(h, pending.id)
    expect(credits.length).toBeGreaterThanOrEqual(2)
    expect(credits.filter((e) => e.replayed !== true)).toHaveLength(1)
    expect(credits.every((e) => e.status === 'Success' && e.svcTransID === credits[0]?.svcTransID)).toBe(true)
  })

  it('the terminal restarts with the answer lost: recovery sends the same credit again, credited once', async () => {
    const reader = new ScriptedCardReader().present(visa(), visa())
    harness = await startEngineHarness(reader, {
      retry: {
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        maxAttempts: 50,
        maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
      },
    })
    const h = harness
    const saleId = await chargedSale(h, 1800)
    await h.engine.forwarder.stop()
    const pending = await returnOf(h, { originalId: saleId, amountMinor: 1800 })
    h.host.setFault('merchandiseCredit', 'process-then-drop', 1)
    await h.engine.forwarder.drainOnce()
    expect(creditsAtHost(h, pending.id)).toHaveLength(1)
    expect(h.engine.txn.reads.get(pending.id)?.state).toBe('creditPending')

    const engine = await h.restart(new ScriptedCardReader())
    await engine.forwarder.forwardNow()
    await eventually(() => engine.txn.reads.get(pending.id)?.state === 'credited', 8_000)
    expect(creditsAtHost(h, pending.id).filter((e) => e.replayed !== true)).toHaveLength(1)
    expect(engine.journal.sealedRowCount()).toBe(0)
  })

  it('a return cut by a restart while the card was asked for ends without a credit', async () => {
    const reader = new ScriptedCardReader().present(visa())
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await chargedSale(h, 1200)
    // No card is presented: the return waits at the reader when the terminal stops.
    const started = h.engine.txn.returns.start({ originalId: saleId, amountMinor: 1200, currency: 'USD', managerApproved: true })
    const engine = await h.restart(new ScriptedCardReader())
    expect(engine.txn.reads.get(started.id)).toMatchObject({ state: 'abandoned' })
    expect(creditsAtHost(h, started.id)).toHaveLength(0)
    expect(engine.txn.reads.get(saleId)?.returnableMinor).toBe(1200)
  })
})

describe('a return without a sale on this terminal', () => {
  it('needs a manager and stays within its own limit', async () => {
    const reader = new ScriptedCardReader().present(visa())
    harness = await startEngineHarness(reader, { limits: { ...TEST_SALE_LIMITS, unreferencedReturnMaxMinor: 5000 } })
    const h = harness
    expect(refusal(() => h.engine.txn.returns.start({ amountMinor: 1000, currency: 'USD', managerApproved: false }))).toBe(
      'MANAGER_REQUIRED',
    )
    expect(refusal(() => h.engine.txn.returns.start({ amountMinor: 5001, currency: 'USD', managerApproved: true }))).toBe(
      'RETURN_ABOVE_LIMIT',
    )
    const credit = await returnOf(h, { amountMinor: 5000 })
    await eventually(() => h.engine.txn.reads.get(credit.id)?.state === 'credited')
    expect(creditsAtHost(h, credit.id)).toHaveLength(1)
  })

  it("is refused in any currency but the terminal's, before the card is asked: nothing is journaled or credited", async () => {
    const reader = new ScriptedCardReader().present(visa())
    harness = await startEngineHarness(reader, { limits: { ...TEST_SALE_LIMITS, unreferencedReturnMaxMinor: 10_000 } })
    const h = harness
    for (const currency of ['EUR', 'GBP', 'CHF', 'CAD', 'JPY']) {
      let refused: unknown
      try {
        h.engine.txn.returns.start({ amountMinor: 10_000, currency, managerApproved: true })
      } catch (error) {
        refused = error
      }
      expect(refused).toMatchObject({
        code: 'CURRENCY_NOT_ACCEPTED',
        message: `not returned: this terminal credits in USD only, the return asks for ${currency}`,
      })
    }
    expect(h.engine.txn.day.report().counts.returns).toBe(0)
    expect(h.host.ledger().entries.filter((e) => e.operation === 'merchandiseCredit')).toEqual([])
    // The card was never asked for: the one presented is still there for a return in USD.
    const credit = await returnOf(h, { amountMinor: 10_000 })
    await eventually(() => h.engine.txn.reads.get(credit.id)?.state === 'credited')
  })

  it("counts every credit of the day against its limits: one made in another currency (before the terminal's changed) at its face value", async () => {
    const reader = new ScriptedCardReader().present(visa(), visa())
    const limits = {
      ...TEST_SALE_LIMITS,
      unreferencedReturnMaxMinor: 10_000,
      unreferencedReturnPerCardDayMinor: 15_000,
      unreferencedReturnPerDayMinor: 50_000,
    }
    harness = await startEngineHarness(reader, { currency: 'EUR', offline: DEFAULT_OFFLINE_LIMITS('EUR', 100), limits })
    const h = harness
    const euros = h.engine.txn.returns.start({ amountMinor: 10_000, currency: 'EUR', managerApproved: true })
    await eventually(() => h.engine.txn.reads.get(euros.id)?.state === 'credited')
    // The same terminal, its currency now USD, the same business day and card.
    await h.restart(reader, { currency: 'USD', offline: DEFAULT_OFFLINE_LIMITS('USD', 100) })
    const dollars = h.engine.txn.returns.start({ amountMinor: 10_000, currency: 'USD', managerApproved: true })
    await eventually(() => h.engine.txn.reads.get(dollars.id)?.state === 'abandoned')
    expect(h.engine.txn.reads.get(dollars.id)?.reason).toBe(
      'not returned: only USD 50.00 is left to return to this card today without a sale',
    )
    expect(creditsAtHost(h, dollars.id)).toHaveLength(0)
  })

  it('is not allowed at all where no limit is configured', async () => {
    harness = await startEngineHarness(new ScriptedCardReader())
    const h = harness
    expect(refusal(() => h.engine.txn.returns.start({ amountMinor: 100, currency: 'USD', managerApproved: true }))).toBe(
      'RETURN_ABOVE_LIMIT',
    )
  })
})
