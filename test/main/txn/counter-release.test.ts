/**
 * One sale at a time, and never a counter left held: every operation that refuses, fails or throws
 * releases what it took, so the next sale starts. The real journal and training host; a scripted reader.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness'
import type { SaleView } from '../../../src-main/txn/sale-view'

let harness: EngineHarness
let reader: ScriptedCardReader
let declined: SaleView
/** A new amount for every sale (no duplicate guard), never ending in .05 or .51 (the training host declines those). */
let amount = 500
const nextAmount = () => (amount += 10)

beforeAll(async () => {
  reader = new ScriptedCardReader()
  harness = await startEngineHarness(reader)
  reader.present({ card: TEST_CARDS.swipeMastercard() })
  const started = harness.engine.txn.sales.start({ amountMinor: 1051, currency: 'USD' })
  declined = await harness.engine.txn.waitForOutcome(started.id)
  expect(declined.state).toBe('declined')
})
afterAll(() => harness.close())

/** Each operation a cashier or the POS can call, called where it must be refused. */
const refusals: Array<[string, () => unknown]> = [
  ['voidSale of an unknown sale', () => harness.engine.txn.afterSale.voidSale('T1-99999999')],
  ['voidSale of a declined sale', () => harness.engine.txn.afterSale.voidSale(declined.id)],
  ['cancelSale of an unknown sale', () => harness.engine.txn.sales.cancel('T1-99999999')],
  ['cancelSale of a finished sale', () => harness.engine.txn.sales.cancel(declined.id)],
  ['confirmDuplicate of an unknown sale', () => harness.engine.txn.sales.confirmDuplicate('T1-99999999', true)],
  ['confirmDuplicate of a sale not waiting for it', () => harness.engine.txn.sales.confirmDuplicate(declined.id, true)],
  ['adjustTip of an unknown sale', () => harness.engine.txn.afterSale.adjustTip('T1-99999999', 100)],
  ['adjustTip of a declined sale', () => harness.engine.txn.afterSale.adjustTip(declined.id, 100)],
  ['capture of an unknown sale', () => harness.engine.txn.afterSale.capture('T1-99999999')],
  ['managerRetry of an unknown sale', () => harness.engine.txn.afterSale.managerRetry('T1-99999999')],
  ['managerRetry of a sale not needing it', () => harness.engine.txn.afterSale.managerRetry(declined.id)],
  [
    'startSale with options the gateway refuses',
    () => harness.engine.txn.sales.start({ amountMinor: 100, currency: 'USD', options: { metadata: 'x'.repeat(5000) } }),
  ],
]

describe('every refusal releases the counter', () => {
  it.each(refusals)('%s is refused, and the next sale still runs', async (_name, call) => {
    await expect(Promise.resolve().then(call)).rejects.toThrow()
    reader.present({ card: TEST_CARDS.chipVisa() })
    const next = harness.engine.txn.sales.start({ amountMinor: nextAmount(), currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(next.id)).state).toBe('approved')
  })
})
