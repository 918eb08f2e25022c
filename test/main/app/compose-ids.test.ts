/**
 * The engine as compose.ts builds it takes a new merchantTransID epoch from the keychain at every
 * start: a journal deleted between starts does not make the next sale reuse an id the host already
 * holds (it would answer B0031 to the new body, docs/gateway.md §5), end to end with the training
 * host over HTTPS.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { composeEngine, JOURNAL_FILE } from '../../../src-main/app/compose'
import { installIdAccount } from '../../../src-main/keychain'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startEngineHarness, testSettings, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

describe('merchantTransIDs across journals', () => {
  it('a journal deleted between starts: the next sale gets a new id and the host takes it', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    const first = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 1200, currency: 'USD' }).id)
    expect(first).toMatchObject({ id: expect.stringMatching(/^T1-[0-9A-Z]{5}001-00000001$/), state: 'approved' })
    await harness.engine.close()
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(harness.dir, `${JOURNAL_FILE}${suffix}`), { force: true })

    harness.engine = await composeEngine(testSettings(harness.dir), {
      reader,
      host: harness.client,
      secrets: harness.secrets,
      logger: pino({ level: 'silent' }),
    })
    const second = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 3400, currency: 'USD' }).id)
    expect(second).toMatchObject({ id: expect.stringMatching(/^T1-[0-9A-Z]{5}002-00000001$/), state: 'approved' })
    expect(second.id.slice(0, 8)).toBe(first.id.slice(0, 8)) // the same installation, the next epoch
    expect(harness.host.ledger().payments.map((p) => [p.merchantTransID, p.status])).toEqual([
      [first.id, 'Captured'],
      [second.id, 'Captured'],
    ])
    expect(JSON.parse((await harness.secrets.get(installIdAccount('T1')))!)).toMatchObject({ epoch: 2 })
  })
})
