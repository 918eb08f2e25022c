/**
 * Where a return meets another flow, with the real parts (the journal file, the gateway client over
 * HTTPS, the training host's ledger): a tip changed, a void or another card while the return waits for
 * its card; what the host credits for a sale never passes what it holds for it (ledger-checks.ts).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { overCredited } from '../../../src-main/training/host'
import { PosError } from '../../../src-shared/pos-error'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, TEST_SALE_LIMITS, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/** A card the customer presents only once `release()` is called: the return waits at the reader meanwhile. */
function heldCard(card = TEST_CARDS.chipVisa()) {
  let release!: () => void
  const after = new Promise<void>((resolve) => (release = resolve))
  return { presentation: { card, after }, release }
}

async function tippedSale(h: EngineHarness, amountMinor: number, tipMinor: number): Promise<string> {
  const started = h.engine.txn.sales.start({ amountMinor, currency: 'USD' })
  expect((await h.engine.txn.waitForOutcome(started.id)).state).toBe('approved')
  if (tipMinor > 0) {
    await h.engine.txn.afterSale.adjustTip(started.id, tipMinor, true)
    await eventually(() => h.engine.txn.reads.get(started.id)?.tipState === 'adjusted')
  }
  return started.id
}

function creditedAtHost(h: EngineHarness, id: string): number {
  return h.host
    .ledger()
    .entries.filter((e) => e.operation === 'merchandiseCredit' && e.merchantTransID === id && e.status === 'Success' && !e.replayed)
    .reduce((sum, e) => sum + Math.round(Number(e.amount?.value ?? 0) * 100), 0)
}

describe('a tip changed while a return waits for its card', () => {
  it('cannot go below what the return at the counter asks: the return of everything credits only what the host holds', async () => {
    const card = heldCard()
    harness = await startEngineHarness(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, card.presentation))
    const h = harness
    const saleId = await tippedSale(h, 10_000, 2_000)
    const ret = h.engine.txn.returns.start({ originalId: saleId, amountMinor: 12_000, currency: 'USD', managerApproved: true })
    expect(ret.state).toBe('returnReadingCard')
    // The tip is lowered while the customer looks for the card: refused in plain words.
    await expect(h.engine.txn.afterSale.adjustTip(saleId, 0, true)).rejects.toThrow(/about to credit USD 120\.00/)
    card.release()
    await eventually(() => h.engine.txn.reads.get(ret.id)?.state === 'credited')
    expect(creditedAtHost(h, ret.id)).toBe(12_000)
    expect(overCredited(h.host.ledger())).toEqual([])
    expect(h.host.ledger().payments.find((p) => p.merchantTransID === saleId)?.tipAmount?.value).toBe('20.00')
  })

  it('the commit that queues the credit reads what is left again: a tip no longer confirmed by the bank is not credited', async () => {
    const card = heldCard()
    harness = await startEngineHarness(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, card.presentation))
    const h = harness
    const saleId = await tippedSale(h, 10_000, 2_000)
    const ret = h.engine.txn.returns.start({ originalId: saleId, amountMinor: 12_000, currency: 'USD', managerApproved: true })
    // A new tip (higher, so the guard lets it through) waits for the bank: until it answers, the bank
    // is known to hold the amount only, and the tip refused would leave it at that.
    await h.engine.forwarder.stop()
    await h.engine.txn.afterSale.adjustTip(saleId, 3_000, true)
    card.release()
    await eventually(() => h.engine.txn.reads.get(ret.id)?.state === 'abandoned')
    expect(h.engine.txn.reads.get(ret.id)?.reason).toBe('not returned: only USD 100.00 is left to return of this sale')
    expect(creditedAtHost(h, ret.id)).toBe(0)
    expect(h.engine.journal.outbox.ofSale(ret.id)).toEqual([])
    expect(h.engine.journal.sealedRowCount()).toBeGreaterThan(0) // the tip's queued body, not the return's card
    expect(h.engine.journal.events(ret.id).at(-1)).toMatchObject({ type: 'returnCardRead', toState: 'abandoned' })
  })
})

describe('limits no override lifts', () => {
  it('a tip of 90,071,992,547,409.91 on a 1.00 sale is refused even with a manager, and nothing can be returned from it', async () => {
    harness = await startEngineHarness(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }))
    const h = harness
    const saleId = await tippedSale(h, 100, 0)
    await expect(h.engine.txn.afterSale.adjustTip(saleId, 9_007_199_254_740_991, true)).rejects.toMatchObject({
      code: 'TIP_INVALID',
      message: expect.stringMatching(/may not exceed USD 10000\.00, even with a manager/),
    })
    // The most a manager may approve: amount plus tip at the terminal's maximum sale.
    await expect(h.engine.txn.afterSale.adjustTip(saleId, TEST_SALE_LIMITS.maxSaleMinor - 99, true)).rejects.toMatchObject({
      code: 'TIP_INVALID',
    })
    await h.engine.txn.afterSale.adjustTip(saleId, TEST_SALE_LIMITS.maxSaleMinor - 100, true)
    await eventually(() => h.engine.txn.reads.get(saleId)?.tipState === 'adjusted')
    expect(() =>
      h.engine.txn.returns.start({ originalId: saleId, amountMinor: 10_000_000_000, currency: 'USD', managerApproved: true }),
    ).toThrow(expect.objectContaining({ code: 'RETURN_TOO_LARGE' }))
    expect(
      h.host
        .ledger()
        .entries.filter((e) => e.operation === 'tips')
        .map((e) => e.amount?.value),
    ).toEqual(['9999.00'])
  })
})

describe('a void checks the card before anything is sent', () => {
  it('another card ends the void: nothing sent, the payment stands', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.swipeMastercard() })
    harness = await startEngineHarness(reader)
    const h = harness
    const saleId = await tippedSale(h, 4_000, 0)
    await h.engine.txn.afterSale.voidSale(saleId)
    await eventually(() => h.engine.txn.reads.get(saleId)?.state === 'approved')
    expect(h.engine.txn.reads.get(saleId)?.reason).toBe('not voided: this is not the card the sale was paid with')
    expect(h.host.ledger().entries.filter((e) => e.operation === 'cancel')).toHaveLength(0)
    expect(h.engine.journal.outbox.ofSale(saleId).filter((i) => i.operation === 'cancel')).toEqual([])
    expect(h.engine.journal.sealedRowCount()).toBe(0)
  })
})

describe('returns without a sale are limited per card and per day, not only per return', () => {
  const limits = {
    ...TEST_SALE_LIMITS,
    unreferencedReturnMaxMinor: 10_000,
    unreferencedReturnPerCardDayMinor: 15_000,
    unreferencedReturnPerDayMinor: 25_000,
  }

  it('a second 100.00 to the same card the same day is refused when the card is read; another card still gets its own; the day stops at its limit', async () => {
    const visa = () => ({ card: TEST_CARDS.chipVisa() })
    const reader = new ScriptedCardReader().present(visa(), visa(), { card: TEST_CARDS.swipeMastercard() })
    harness = await startEngineHarness(reader, { limits })
    const h = harness
    const unreferenced = (amountMinor: number) => h.engine.txn.returns.start({ amountMinor, currency: 'USD', managerApproved: true })

    const first = unreferenced(10_000)
    await eventually(() => h.engine.txn.reads.get(first.id)?.state === 'credited')
    const second = unreferenced(10_000)
    await eventually(() => h.engine.txn.reads.get(second.id)?.state === 'abandoned')
    expect(h.engine.txn.reads.get(second.id)?.reason).toBe(
      'not returned: only USD 50.00 is left to return to this card today without a sale',
    )
    expect(creditedAtHost(h, second.id)).toBe(0)

    const other = unreferenced(10_000)
    await eventually(() => h.engine.txn.reads.get(other.id)?.state === 'credited')
    let refused: unknown
    try {
      unreferenced(5_001)
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(PosError)
    expect(refused).toMatchObject({ code: 'RETURN_ABOVE_LIMIT', message: expect.stringMatching(/USD 50\.00 today/) })
  })
})
