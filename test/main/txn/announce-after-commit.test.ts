/**
 * Nobody learns of a change a failed commit took back. A sale's new state reaches the screens and the
 * event stream (txn `update`), the counter is set free and the queue's alarms go out only once the
 * journal committed it; inside the forwarder's batch, that is when the whole batch commits. Here the
 * batch's commit fails (as on a full disk): before, the screens were told "forwarded" for a payment
 * the journal still had stored, and the event stream gave that state an id a later event reused.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { SaleView } from '../../../src-shared/contract'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

describe('a change is announced once it is committed, never when its batch rolls back', () => {
  it('a stored payment forwarded in a batch whose commit fails: no "forwarded" is told; the next batch tells it once', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    const { engine } = harness
    await engine.forwarder.stop()
    harness.host.setFault('payment', 'http-503', 1)
    const started = engine.txn.sales.start({ amountMinor: 4100, currency: 'USD' })
    expect((await engine.txn.waitForOutcome(started.id)).state).toBe('storedOffline')

    const told: SaleView[] = []
    const forwardedItems: unknown[] = []
    engine.txn.on('update', (update: { sale: SaleView }) => told.push(update.sale))
    engine.forwarder.on('forwarded', (item) => forwardedItems.push(item))

    // The batch's work runs, then its commit fails: everything it wrote is rolled back.
    const journal = engine.journal
    const batch = journal.batch.bind(journal)
    journal.batch = <T>(work: () => T): T =>
      batch(() => {
        work()
        throw new Error('SQLITE_FULL: database or disk is full')
      })
    await expect(engine.forwarder.drainOnce()).rejects.toThrow(/disk is full/)
    expect(engine.txn.reads.get(started.id)?.state).toBe('storedOffline')
    expect(told).toEqual([])
    expect(forwardedItems).toEqual([])

    journal.batch = batch
    await engine.forwarder.drainOnce()
    await eventually(() => engine.txn.reads.get(started.id)?.state === 'forwarded')
    expect(told.map((sale) => sale.state)).toEqual(['forwarded'])
    expect(forwardedItems).toHaveLength(1)
    // The host has it once: the rolled-back answer was for a message it de-duplicates.
    expect(harness.host.ledger().payments.filter((p) => p.merchantTransID === started.id)).toHaveLength(1)
  })

  it('along a sale approved, one stored and forwarded, a void and a tip: no announcement is made with a transaction open', async () => {
    const reader = new ScriptedCardReader()
      .present({ card: TEST_CARDS.chipVisa() })
      .present({ card: TEST_CARDS.chipVisa() })
      .present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    const { engine } = harness
    const openWhenTold: string[] = []
    const watch = (what: string) => () => {
      if (engine.journal.inTransaction) openWhenTold.push(what)
    }
    engine.txn.on('update', watch('sale update'))
    engine.forwarder.on('forwarded', watch('forwarded'))
    engine.forwarder.on('attention', watch('attention'))
    engine.forwarder.on('status', watch('queue status'))

    const online = engine.txn.sales.start({ amountMinor: 4200, currency: 'USD' })
    expect((await engine.txn.waitForOutcome(online.id)).state).toBe('approved')
    harness.host.setFault('payment', 'http-503', 1)
    const stored = engine.txn.sales.start({ amountMinor: 4300, currency: 'USD' })
    expect((await engine.txn.waitForOutcome(stored.id)).state).toBe('storedOffline')
    await eventually(() => engine.txn.reads.get(stored.id)?.state === 'forwarded', 8_000)
    await engine.txn.afterSale.adjustTip(stored.id, 500)
    await engine.txn.afterSale.voidSale(online.id)
    await eventually(() => ['cancelled', 'reversed'].includes(engine.txn.reads.get(online.id)?.state ?? ''), 8_000)
    await eventually(() => engine.txn.reads.get(stored.id)?.tipState === 'adjusted', 8_000)
    expect(openWhenTold).toEqual([])
  })
})
