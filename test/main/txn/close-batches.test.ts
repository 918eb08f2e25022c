/**
 * A closed day never reopens: close of day closes a numbered batch whose totals never change; later
 * sales go to the next batch; a restart, a repeated close or a late answer from the bank changes
 * nothing of it. Real journal, training host over real HTTPS.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

async function sale(amountMinor: number) {
  const txn = harness!.engine.txn
  return txn.waitForOutcome(txn.sales.start({ amountMinor, currency: 'USD' }).id)
}

describe('close of day closes a numbered batch that never changes', () => {
  it('a sale after the close goes to the next batch; the closed one keeps its totals, across a restart', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.swipeMastercard() })
    harness = await startEngineHarness(reader)
    const first = await sale(1000)
    expect(first.state).toBe('approved')

    const closed = await harness.engine.txn.day.close()
    expect(closed.batch).toMatchObject({ number: 1, closedAt: expect.any(Number) })
    expect(closed.totals).toEqual([{ currency: 'USD', brand: 'VISA', count: 1, amountMinor: 1000, tipMinor: 0 }])

    // Before batches, this sale landed in the closed day and changed its totals.
    const second = await sale(2500)
    expect(second.state).toBe('approved')
    const open = harness.engine.txn.day.report()
    expect(open.batch).toEqual({ number: 2 })
    expect(open.sales.map((s) => s.id)).toEqual([second.id])
    expect(harness.engine.txn.day.report(1)).toMatchObject({ totals: closed.totals, counts: closed.counts, closable: false })
    expect(harness.engine.txn.day.report(1).sales.map((s) => s.id)).toEqual([first.id])

    // After a reload, the closed batch does not close again: the next close is batch 2, with its own sale only.
    await harness.restart(new ScriptedCardReader())
    expect(harness.engine.txn.day.report()).toMatchObject({ batch: { number: 2 }, closable: true })
    const again = await harness.engine.txn.day.close()
    expect(again.batch.number).toBe(2)
    expect(again.totals).toEqual([{ currency: 'USD', brand: 'MASTERCARD', count: 1, amountMinor: 2500, tipMinor: 0 }])
    expect(harness.engine.txn.day.report(1).totals).toEqual(closed.totals)
    expect(harness.engine.txn.day.batches().map((b) => [b.number, b.saleCount, b.totalMinor])).toEqual([
      [2, 1, { USD: 2500 }],
      [1, 1, { USD: 1000 }],
    ])
  })

  it('an empty batch does not close, and a repeated close returns the batch it closed without closing another', async () => {
    harness = await startEngineHarness(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }))
    expect(await harness.engine.txn.day.close()).toMatchObject({ closable: false, blockedReason: 'there are no sales to close yet' })
    await sale(1200)
    const closed = await harness.engine.txn.day.close(1)
    expect(closed.batch.number).toBe(1)
    // The POS did not hear the answer and sends the same close again.
    const repeat = await harness.engine.txn.day.close(1)
    expect(repeat.batch).toEqual(closed.batch)
    expect(harness.engine.txn.day.batches()).toHaveLength(1)
    expect(await harness.engine.txn.day.close()).toMatchObject({
      batch: { number: 2 },
      closable: false,
      blockedReason: 'there are no sales since the last close (batch 1)',
    })
    await expect(harness.engine.txn.day.close(3)).rejects.toMatchObject({ code: 'NO_SUCH_BATCH' })
    expect(() => harness!.engine.txn.day.report(7)).toThrow(expect.objectContaining({ code: 'NO_SUCH_BATCH' }))
  })

  it('a sale of a closed batch can no longer be voided or tipped, and the counter stays free', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    const paid = await sale(1500)
    await harness.engine.txn.day.close()
    await expect(harness.engine.txn.afterSale.voidSale(paid.id)).rejects.toMatchObject({ code: 'BATCH_CLOSED' })
    await expect(harness.engine.txn.afterSale.adjustTip(paid.id, 100)).rejects.toMatchObject({ code: 'BATCH_CLOSED' })
    expect(harness.engine.txn.reads.get(paid.id)).toMatchObject({ state: 'approved', tipMinor: 0 })
    reader.present({ card: TEST_CARDS.swipeMastercard() })
    expect((await sale(300)).state).toBe('approved')
  })

  it("a stored payment forwarded after the close keeps the closed batch's totals as closed", async () => {
    harness = await startEngineHarness(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }))
    await harness.engine.forwarder.stop()
    harness.host.setFault('*', 'http-503')
    const stored = await sale(4300)
    expect(stored.state).toBe('storedOffline')
    const closed = await harness.engine.txn.day.close()
    expect(closed.counts).toMatchObject({ approved: 1, stored: 1 })

    harness.host.clearFaults()
    await harness.engine.forwarder.drainOnce()
    await eventually(() => harness!.engine.txn.reads.get(stored.id)?.state === 'forwarded')
    const later = harness.engine.txn.day.report(closed.batch.number)
    expect(later.counts).toEqual(closed.counts)
    expect(later.sales.find((s) => s.id === stored.id)?.state).toBe('forwarded')
    expect(harness.engine.txn.day.report().sales).toEqual([])
  })
})
