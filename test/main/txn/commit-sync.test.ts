/**
 * Which commits of a sale wait for the disk (docs/performance.md): the sale's creation and the chip's
 * question are synced with the next commit; the card read (before the bank is called) and every
 * result, decline and queue item are synced on their own. Each relaxed commit is seen as the switch
 * to synchronous=NORMAL that precedes it (database.ts), on a real journal and training host.
 */
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness'

describe('a sale in fewer durable commits', () => {
  let harness: EngineHarness | undefined
  let levels: string[] = []

  beforeEach(() => {
    levels = []
    const pragma = Database.prototype.pragma
    vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (
      this: Database.Database,
      source: string,
      options?: Database.PragmaOptions,
    ) {
      if (/^synchronous = \d$/.test(source)) levels.push(source)
      return pragma.call(this, source, options)
    })
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await harness?.close()
    harness = undefined
  })

  async function sale(card: ReturnType<typeof TEST_CARDS.chipVisa>, amountMinor: number) {
    const reader = new ScriptedCardReader().present({ card })
    harness = await startEngineHarness(reader)
    levels = []
    const started = harness.engine.txn.sales.start({ amountMinor, currency: 'USD' })
    const outcome = await harness.engine.txn.waitForOutcome(started.id)
    return { outcome, events: harness.engine.journal.events(started.id).map((e) => e.toState) }
  }

  it('a chip approved by the bank: the creation and the chip question are synced with the next commit', async () => {
    const { outcome, events } = await sale(TEST_CARDS.chipVisa(), 2_000)
    expect(outcome.state).toBe('approved')
    expect(events).toEqual(['created', 'readingCard', 'sending', 'completingCard', 'approved'])
    // The chip's answer is taken only while the sale waits for it, asked by its state alone.
    expect(harness?.engine.journal.stateOf(outcome.id)).toBe('approved')
    expect(harness?.engine.journal.stateOf('T1-none-1')).toBeUndefined()
    // Two relaxed commits, each followed by the switch back to FULL; the other two are durable.
    expect(levels).toEqual(['synchronous = 1', 'synchronous = 2', 'synchronous = 1', 'synchronous = 2'])
  })

  it('a swipe: only the creation is synced with the next commit', async () => {
    const { outcome } = await sale(TEST_CARDS.swipeMastercard(), 2_000)
    expect(outcome.state).toBe('approved')
    expect(levels).toEqual(['synchronous = 1', 'synchronous = 2'])
  })

  it('a chip declined by the bank: the decline is durable before the chip is told', async () => {
    const { outcome, events } = await sale(TEST_CARDS.chipVisa(), 1_051)
    expect(outcome.state).toBe('declined')
    expect(events).toEqual(['created', 'readingCard', 'sending', 'declined'])
    expect(levels).toEqual(['synchronous = 1', 'synchronous = 2'])
  })
})
