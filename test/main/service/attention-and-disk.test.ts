/**
 * Contract operations on a real engine: a queued message past its limits raises an alarm and the
 * sale needs attention; a manager's retry forwards it once the host is back.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { COUNTER, testService } from '../../support/service-harness'
import type { PosEvent } from '../../../src-shared/contract'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => harness?.close())

describe('needs attention', () => {
  it('raises an alarm, shows the item, and a manager retry forwards it', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    const retry = {
      baseDelayMs: 10,
      maxDelayMs: 20,
      maxAttempts: 1,
      maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
    }
    harness = await startEngineHarness(reader, { retry })
    const ops = testService(harness, reader, { retry })
    const events: PosEvent[] = []
    ops.on('event', (e: PosEvent) => events.push(e))
    harness.host.setFault('*', 'http-503')
    const started = await ops.dispatch(COUNTER, 'startSale', { amountMinor: 3000 })
    expect(started.ok).toBe(true)
    const id = (started as { value: { id: string } }).value.id
    await eventually(() => harness!.engine.txn.reads.get(id)?.state === 'needsAttention', 8_000)
    const alarm = events.find((e) => e.type === 'alarm' && e.alarm.code === 'NEEDS_ATTENTION' && e.alarm.message.includes(id))
    // The alarm is in a manager's words: what, which sale, why; the technical cause is in the log.
    expect(alarm).toMatchObject({ alarm: { message: `The payment of sale ${id} needs a manager. The bank could not be reached.` } })
    const items = await ops.dispatch(COUNTER, 'queueItems', {})
    expect(items).toMatchObject({
      ok: true,
      value: [
        {
          saleId: id,
          operation: 'payment',
          state: 'attention',
          lastFailure: 'bankUnreachable',
          lastError: expect.stringMatching(/did not confirm the payment after 1 try.*HTTP 503/),
        },
      ],
    })
    expect(await ops.dispatch(COUNTER, 'queueStatus', {})).toMatchObject({ ok: true, value: { attentionCount: 1, storedCount: 1 } })
    // A window opened (or reloaded) after the alarm went out still sees it, for as long as the item
    // waits for a manager: in the terminal's alarms and in a stream's snapshot.
    const standing = { code: 'NEEDS_ATTENTION', message: 'A queued message needs a manager: see the Queue screen.' }
    expect(await ops.dispatch(COUNTER, 'appInfo', {})).toMatchObject({ ok: true, value: { alarms: [standing] } })
    expect(await ops.dispatch(COUNTER, 'snapshot', {})).toMatchObject({ ok: true, value: { alarms: [standing] } })

    harness.host.clearFaults()
    expect(await ops.dispatch(COUNTER, 'retryAttention', { id })).toMatchObject({ ok: true, value: { state: 'storedOffline' } })
    await eventually(() => harness!.engine.txn.reads.get(id)?.state === 'forwarded', 8_000)
    // Handled: the alarm is over for every window.
    expect(await ops.dispatch(COUNTER, 'appInfo', {})).toMatchObject({ ok: true, value: { alarms: [] } })
    expect(await ops.dispatch(COUNTER, 'snapshot', {})).toMatchObject({ ok: true, value: { alarms: [] } })
    ops.close()
  })
})

describe('a full disk', () => {
  it('refuses a new sale with a clear typed error, and the earlier sales stay intact', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    const ops = testService(harness, reader)
    const first = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 1500, currency: 'USD' }).id)
    expect(first.state).toBe('approved')
    // the real SQLite file stops growing: its next write fails with SQLITE_FULL
    const db = (
      harness.engine.journal as unknown as {
        db: { pragma(s: string, o?: object): unknown; prepare(s: string): { run(...a: unknown[]): unknown } }
      }
    ).db
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`)
    // fill every free byte, in the sales table and its history too, so the next sale cannot be written
    const fillSale = db.prepare(
      "INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture, reason) VALUES (?, 'abandoned', 0, 0, '2000-01-01', 'x', 1, 'USD', 1, ?)",
    )
    const fillEvent = db.prepare("INSERT INTO sale_event (sale_id, at, type, to_state, detail) VALUES (?, 0, 'filler', 'abandoned', ?)")
    let full = false
    for (let n = 0; n < 100_000 && !full; n++) {
      try {
        fillSale.run(`FILL-${n}`, 'x'.repeat(64))
        fillEvent.run(`FILL-${n}`, 'x'.repeat(64))
      } catch (error) {
        full = (error as { code?: string }).code === 'SQLITE_FULL'
      }
    }
    expect(full).toBe(true)
    const refused = await ops.dispatch(COUNTER, 'startSale', { amountMinor: 2000 })
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'JOURNAL_DISK_FULL', message: expect.stringMatching(/disk holding the journal is full/) },
    })
    expect(harness.engine.txn.reads.get(first.id)?.state).toBe('approved')
    ops.close()
  })
})
