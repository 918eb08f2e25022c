/**
 * The engine end to end with the real journal and the real training host over HTTPS; the reader is
 * scripted here (test/main/device covers the serial side on a real pty).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PosError } from '../../../src-shared/errors'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, TEN_MINUTE_RETRY, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

async function sale(reader: ScriptedCardReader, amountMinor: number, extra: Record<string, unknown> = {}) {
  harness ??= await startEngineHarness(reader)
  const started = harness.engine.txn.sales.start({ amountMinor, currency: 'USD', ...extra })
  return harness.engine.txn.waitForOutcome(started.id)
}

describe('a sale through the engine', () => {
  it('chip sale approved online: card completed, card data purged, masked PAN kept', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    const result = await sale(reader, 1234)
    expect(result).toMatchObject({ state: 'approved', maskedPan: '476173******0010', brand: 'VISA', offline: false })
    expect(result.authCode).toMatch(/^[A-Z0-9]{6}$/)
    expect(reader.answers).toEqual([{ result: 'approved', authorizationResponseCode: '00' }])
    expect(harness!.engine.journal.openCard(result.id, 'purchase')).toBeUndefined()
    expect(harness!.host.ledger().payments.find((p) => p.merchantTransID === result.id)?.status).toBe('Captured')
  })

  it('declined with the host reason; nothing queued', async () => {
    const result = await sale(new ScriptedCardReader().present({ card: TEST_CARDS.swipeMastercard() }), 1051)
    expect(result.state).toBe('declined')
    expect(result.reason).toMatch(/insufficient|51/i)
    expect(harness!.engine.forwarder.status().count).toBe(0)
  })

  it('host silent → reversal queued at once, forwarded, host shows it reversed', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('payment', 'delay=2500', 1)
    const started = harness.engine.txn.sales.start({ amountMinor: 2000, currency: 'USD' })
    const result = await harness.engine.txn.waitForOutcome(started.id)
    expect(result.state).toBe('reversalPending')
    expect(result.reason).toMatch(/no valid answer came from the bank/)
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'reversed', 8_000)
    // The reversal may overtake the slow payment at the host; either way the card is not charged.
    const atHost = await eventually(() => harness!.host.ledger().payments.find((p) => p.merchantTransID === started.id), 8_000)
    expect(['Reversed', 'Failed']).toContain(atHost.status)
  })

  it('host down → approved offline and stored → host back → forwarded', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('*', 'http-503')
    const started = harness.engine.txn.sales.start({ amountMinor: 4500, currency: 'USD' })
    const stored = await harness.engine.txn.waitForOutcome(started.id)
    expect(stored).toMatchObject({ state: 'storedOffline', offline: true })
    expect(reader.answers[0]).toMatchObject({ result: 'unableToGoOnline', authorizationResponseCode: 'Z3' })
    expect(harness.engine.forwarder.status()).toMatchObject({ storedCount: 1, storedAmountMinor: { USD: 4500 } })
    harness.host.clearFaults()
    harness.engine.forwarder.wake()
    await eventually(() => harness!.engine.txn.reads.get(started.id)?.state === 'forwarded', 8_000)
    expect(harness.engine.forwarder.status().storedCount).toBe(0)
    expect(harness.engine.journal.openCard(started.id, 'purchase')).toBeUndefined()
  })

  it('an outage ends with the first sale that reaches the bank: the stored payment goes at once, not after its backoff', async () => {
    const reader = new ScriptedCardReader()
    harness = await startEngineHarness(reader, { retry: TEN_MINUTE_RETRY })
    harness.host.setFault('*', 'http-503')
    reader.present({ card: TEST_CARDS.chipVisa() })
    const first = harness.engine.txn.sales.start({ amountMinor: 4500, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(first.id)).state).toBe('storedOffline')
    // The queue met the bank down: its payment now waits ten minutes, and so does the next probe.
    const payment = () => harness!.engine.journal.outbox.ofSale(first.id).find((i) => i.operation === 'payment')!
    await eventually(() => (payment().attempts > 0 && payment().state === 'pending') || undefined)
    expect(payment().nextAttemptAt).toBeGreaterThan(Date.now() + 60_000)
    harness.host.clearFaults()
    reader.present({ card: TEST_CARDS.chipVisa() })
    const second = harness.engine.txn.sales.start({ amountMinor: 1200, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(second.id)).state).toBe('approved')
    await eventually(() => harness!.engine.txn.reads.get(first.id)?.state === 'forwarded', 8_000)
  })

  it('swipe with the host down is declined offline (not eligible)', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.swipeMastercard() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('*', 'http-503')
    const result = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 4500, currency: 'USD' }).id)
    expect(result.state).toBe('declined')
    expect(result.reason).toMatch(/swiped card cannot be approved offline/)
  })

  it('card declines after host approval → automatic reversal', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa(), decision: 'declined' })
    const result = await sale(reader, 3000)
    expect(result.state).toBe('reversalPending')
    expect(result.reason).toMatch(/card refused the payment after the bank approved/)
    await eventually(() => harness!.engine.txn.reads.get(result.id)?.state === 'reversed', 8_000)
  })

  it('one sale at a time; the same reference returns the same sale; a different amount under it is refused', async () => {
    const reader = new ScriptedCardReader()
    harness = await startEngineHarness(reader)
    const first = harness.engine.txn.sales.start({ amountMinor: 100, currency: 'USD', reference: 'ECR-1' })
    expect(() => harness!.engine.txn.sales.start({ amountMinor: 200, currency: 'USD' })).toThrow(/still running/)
    expect(harness.engine.txn.sales.start({ amountMinor: 100, currency: 'USD', reference: 'ECR-1' }).id).toBe(first.id)
    expect(() => harness!.engine.txn.sales.start({ amountMinor: 101, currency: 'USD', reference: 'ECR-1' })).toThrow(
      /already used for a different sale/,
    )
    await harness.engine.txn.sales.cancel(first.id)
    expect((await harness.engine.txn.waitForOutcome(first.id)).state).toBe('abandoned')
  })

  it('duplicate guard: same card and amount asks the cashier; refusing charges nothing', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    const first = await sale(reader, 777)
    expect(first.state).toBe('approved')
    const second = harness!.engine.txn.sales.start({ amountMinor: 777, currency: 'USD' })
    await eventually(() => harness!.engine.txn.reads.get(second.id)?.state === 'awaitingConfirmation')
    await harness!.engine.txn.sales.confirmDuplicate(second.id, false)
    expect(harness!.engine.txn.reads.get(second.id)?.state).toBe('abandoned')
    expect(harness!.host.ledger().entries.filter((e) => e.merchantTransID === second.id)).toHaveLength(0)
  })

  it('void of an approved sale re-reads the card and cancels at the host', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    const approved = await sale(reader, 1500)
    await harness!.engine.txn.afterSale.voidSale(approved.id)
    await eventually(() => harness!.engine.txn.reads.get(approved.id)?.state === 'cancelled', 8_000)
    expect(reader.requests.map((r) => r.purpose)).toEqual(['purchase', 'void'])
    expect(harness!.host.ledger().payments.find((p) => p.merchantTransID === approved.id)?.status).toBe('Cancelled')
  })

  it('tip adjustment is sent, and a tip over tolerance needs a manager', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    const approved = await sale(reader, 5000)
    await expect(harness!.engine.txn.afterSale.adjustTip(approved.id, 1500)).rejects.toThrow(/manager/)
    await harness!.engine.txn.afterSale.adjustTip(approved.id, 800)
    await eventually(() => harness!.engine.txn.reads.get(approved.id)?.tipState === 'adjusted', 8_000)
    expect(harness!.host.ledger().payments.find((p) => p.merchantTransID === approved.id)).toMatchObject({ tipAmount: { value: '8.00' } })
  })

  it('the database file and its WAL hold no PAN, track or ICC data in clear', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('*', 'http-503')
    const stored = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 4500, currency: 'USD' }).id)
    expect(stored.state).toBe('storedOffline') // card data is sealed in the journal right now
    for (const file of readdirSync(harness.dir).filter((f) => f.startsWith('journal.sqlite'))) {
      const bytes = readFileSync(join(harness.dir, file)).toString('latin1')
      for (const secret of ['4761739001010010', '30122011143804400000', '9F2608C2F3A1B4D5'])
        expect(bytes, `${file} leaks ${secret}`).not.toContain(secret)
    }
  })
})

describe('restaurant mode close of day', () => {
  it('authorises, takes the tip, and captures base plus tip at close', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader, { restaurantMode: true })
    const sale = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 4000, currency: 'USD' }).id)
    expect(sale.state).toBe('approved')
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === sale.id)?.status).toBe('Authorised')
    await harness.engine.txn.afterSale.adjustTip(sale.id, 600)
    const report = await harness.engine.txn.day.close()
    expect(report.batch.closedAt).toBeDefined()
    await eventually(() => harness!.engine.txn.reads.get(sale.id)?.state === 'captured', 8_000)
    expect(harness.host.ledger().payments.find((p) => p.merchantTransID === sale.id)).toMatchObject({
      status: 'Captured',
      tipAmount: { value: '6.00' },
    })
    const capture = harness.host.ledger().entries.find((e) => e.operation === 'capture' && e.originalMerchantTransID === sale.id)
    expect(capture?.amount).toEqual({ currency: 'USD', value: '46.00' })
  })
})

describe('data key missing while encrypted rows exist', () => {
  it('raises an alarm, keeps the rows, stops offline payments, still sells online, and forwards once the key is back', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    harness.host.setFault('*', 'http-503')
    const stored = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 4500, currency: 'USD' }).id)
    expect(stored.state).toBe('storedOffline')
    const account = 'data-key/T1'
    const savedKey = await harness.secrets.get(account)
    await harness.secrets.delete(account)

    reader.present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.swipeMastercard() })
    const engine = await harness.restart()
    expect(engine.alarms).toEqual([
      { code: 'DATA_KEY_MISSING', message: expect.stringMatching(/offline payments are stopped and those rows are kept/) },
    ])
    expect(engine.journal.sealedRowCount()).toBeGreaterThan(0)
    expect(engine.journal.outbox.lockedCount()).toBe(1)
    const refused = await engine.txn.waitForOutcome(engine.txn.sales.start({ amountMinor: 1200, currency: 'USD' }).id)
    expect(refused).toMatchObject({ state: 'declined', reason: expect.stringMatching(/offline payments are switched off/) })
    harness.host.clearFaults()
    const online = await engine.txn.waitForOutcome(engine.txn.sales.start({ amountMinor: 1300, currency: 'USD' }).id)
    expect(online.state).toBe('approved')
    expect(await harness.secrets.get(account)).toBeUndefined() // the missing key was not replaced behind the manager's back
    expect(engine.txn.reads.get(stored.id)?.state).toBe('storedOffline')

    await harness.secrets.set(account, savedKey!)
    const restored = await harness.restart()
    expect(restored.alarms).toEqual([])
    await eventually(() => restored.txn.reads.get(stored.id)?.state === 'forwarded', 8_000)
  })
})

describe('optional payment fields from the integrator', () => {
  it('are sent to the host, and a field breaking the rules is refused before the card is asked for', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    expect(() => harness!.engine.txn.sales.start({ amountMinor: 900, currency: 'USD', options: { metadata: 'é'.repeat(257) } })).toThrow(
      /not started: metadata must be at most 512 bytes/,
    )
    expect(() =>
      harness!.engine.txn.sales.start({
        amountMinor: 900,
        currency: 'USD',
        options: { DCCBillingAmount: { currency: 'EUR', value: '8.00' } },
      }),
    ).toThrow(/origMerchantTransInfo is required/)
    expect(reader.requests).toHaveLength(0)
    const sale = await harness.engine.txn.waitForOutcome(
      harness.engine.txn.sales.start({
        amountMinor: 900,
        currency: 'USD',
        options: { metadata: 'order 77 — café', webhook: 'https://merchant.example/hook', merchantOrderReference: 'ORD-77' },
      }).id,
    )
    expect(sale.state).toBe('approved')
    expect(harness.host.ledger().payments.some((p) => p.merchantTransID === sale.id)).toBe(true)
  })
})

describe('a sale request the terminal refuses before the card is asked for', () => {
  /** The refusal thrown by startSale; fails the test when the sale started instead. */
  function refusal(start: () => unknown): PosError {
    try {
      start()
    } catch (error) {
      expect(error).toBeInstanceOf(PosError)
      return error as PosError
    }
    throw new Error('the sale started')
  }

  it.each([
    [
      'a currency the terminal is not set up for',
      { amountMinor: 1234, currency: 'EUR' },
      'CURRENCY_NOT_ACCEPTED',
      /takes USD, the sale is in EUR/,
    ],
    [
      'more than the card reader can carry',
      { amountMinor: 99_999_999_999_999, currency: 'USD' },
      'AMOUNT_TOO_LARGE',
      /at most USD 9999999999\.99/,
    ],
    [
      'one minor unit more than the card reader can carry',
      { amountMinor: 1_000_000_000_000, currency: 'USD' },
      'AMOUNT_TOO_LARGE',
      /can carry/,
    ],
    [
      'above the configured maximum',
      { amountMinor: 999_999_999, currency: 'USD' },
      'AMOUNT_ABOVE_LIMIT',
      /USD 9999999\.99 is above .* USD 10000\.00/,
    ],
    [
      'one cent above the maximum, even confirmed',
      { amountMinor: 1_000_001, currency: 'USD', amountConfirmed: true },
      'AMOUNT_ABOVE_LIMIT',
      /maximum/,
    ],
    [
      'above the confirmation amount, not confirmed',
      { amountMinor: 100_001, currency: 'USD' },
      'AMOUNT_NEEDS_CONFIRMATION',
      /USD 1000\.01 is above USD 1000\.00/,
    ],
    [
      'above the confirmation amount, confirmed false',
      { amountMinor: 250_000, currency: 'USD', amountConfirmed: false },
      'AMOUNT_NEEDS_CONFIRMATION',
      /confirmed/,
    ],
  ] as const)('%s: refused with its code, nothing journaled, no card asked for', async (_, request, code, message) => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    const error = refusal(() => harness!.engine.txn.sales.start(request))
    expect(error).toMatchObject({ code, retryable: false })
    expect(error.message).toMatch(message)
    expect(reader.requests).toHaveLength(0)
    expect(harness.engine.txn.day.report().sales).toEqual([])
    // The counter is free and the refused request took no sequence number: the next sale is the first.
    const next = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 1234, currency: 'USD' }).id)
    expect(next).toMatchObject({ id: expect.stringMatching(/^T1-[0-9A-Z]{8}-00000001$/), state: 'approved' })
    expect(harness.host.ledger().entries.map((e) => e.merchantTransID)).toEqual([next.id])
  })

  it('a large amount starts once confirmed, and is charged once; up to the confirmation amount needs no confirmation', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader, { duplicateWindowMs: 0 })
    const asked = refusal(() => harness!.engine.txn.sales.start({ amountMinor: 123_400, currency: 'USD', reference: 'ECR-9' }))
    expect(asked.code).toBe('AMOUNT_NEEDS_CONFIRMATION')
    const confirmed = harness.engine.txn.sales.start({ amountMinor: 123_400, currency: 'USD', reference: 'ECR-9', amountConfirmed: true })
    expect((await harness.engine.txn.waitForOutcome(confirmed.id)).state).toBe('approved')
    // The reference names the sale whether or not the repeat says it was confirmed: never a second charge.
    expect(harness.engine.txn.sales.start({ amountMinor: 123_400, currency: 'USD', reference: 'ECR-9' }).id).toBe(confirmed.id)
    const atLimit = harness.engine.txn.sales.start({ amountMinor: 100_000, currency: 'USD' })
    expect((await harness.engine.txn.waitForOutcome(atLimit.id)).state).toBe('approved')
    expect(harness.host.ledger().payments.map((p) => [p.merchantTransID, p.status])).toEqual([
      [confirmed.id, 'Captured'],
      [atLimit.id, 'Captured'],
    ])
    expect(reader.requests.map((r) => r.amountMinor)).toEqual([123_400, 100_000])
  })

  it('limits follow the configured currency: a JPY terminal refuses USD and counts yen', async () => {
    const reader = new ScriptedCardReader()
    harness = await startEngineHarness(reader, { currency: 'JPY', limits: { maxSaleMinor: 1_000_000, confirmAboveMinor: 100_000 } })
    expect(refusal(() => harness!.engine.txn.sales.start({ amountMinor: 1234, currency: 'USD' })).code).toBe('CURRENCY_NOT_ACCEPTED')
    expect(refusal(() => harness!.engine.txn.sales.start({ amountMinor: 1_000_001, currency: 'JPY' })).message).toMatch(
      /JPY 1000001 is above .* JPY 1000000/,
    )
    expect(reader.requests).toHaveLength(0)
  })
})
