/**
 * Fault paths where a charge and the journal could disagree, each reproduced against the training
 * host over real HTTPS with a real journal: the sale must end known, and match the host's ledger.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, type EngineHarness } from '../../support/engine-harness'

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
    const started = harness.engine.txn.startSale({ amountMinor: 3100, currency: 'USD', offlinePolicy })
    const result = await harness.engine.txn.waitForOutcome(started.id)
    expect(result.state).toBe('reversalPending')
    expect(result.offline).toBe(false)
    await eventually(() => harness!.engine.txn.get(started.id)?.state === 'reversed', 8_000)
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === started.id)?.status).toBe('Reversed')
  })

  it("the host's own signed 503 still means not delivered: stored offline, then forwarded once", async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('payment', 'http-503', 1)
    const started = harness.engine.txn.startSale({ amountMinor: 3200, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(started.id)).state).toBe('storedOffline')
    await eventually(() => harness!.engine.txn.get(started.id)?.state === 'forwarded', 8_000)
    expect(harness.host.ledger().payments.filter((p) => p.merchantTransID === started.id)).toHaveLength(1)
  })
})
