/**
 * The engine with everything real: the NEO 2 driver talking to the simulated PIN pad over a socat
 * pty pair, the journal in SQLite, the training host over HTTPS. One test per row of the outcome
 * list (docs/transactions.md) and per fault of the training host.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Neo2CardReader, SerialReaderTransport } from '../../../src-main/device'
import { startPtyPinpadSim, type PtyPinpadSim } from '../../../src-main/training/pinpad'
import { eventually, startEngineHarness, type EngineHarness } from '../../support/engine-harness'
import { commandAvailable, INSTALL, requireComponent } from '../../support/system'

const socat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)

describe.runIf(socat)('sales over a real pty with the simulated PIN pad', () => {
  let sim: PtyPinpadSim
  let reader: Neo2CardReader
  let harness: EngineHarness

  beforeAll(async () => {
    sim = await startPtyPinpadSim({ cardReadMs: 20, pinEntryMs: 20 })
    reader = await Neo2CardReader.open({ transport: new SerialReaderTransport({ path: sim.hostPath }) })
    harness = await startEngineHarness(reader, { duplicateWindowMs: 0 })
  })
  afterAll(async () => {
    await harness.close()
    await reader.close()
    await sim.close()
  })
  beforeEach(() => harness.host.clearFaults())

  let amount = 1_000
  async function sell(card: string, value?: number) {
    amount += 10
    const sale = harness.engine.txn.sales.start({ amountMinor: value ?? amount, currency: 'USD' })
    sim.present(card)
    return harness.engine.txn.waitForOutcome(sale.id)
  }
  const atHost = (id: string) => harness.host.ledger().payments.find((p) => p.merchantTransID === id)

  it('approved: chip sale, TC, charged once', async () => {
    const sale = await sell('chip-visa')
    expect(sale).toMatchObject({
      state: 'approved',
      readMethod: 'chip',
      maskedPan: '476173******0010',
      applicationLabel: expect.any(String),
    })
    expect(atHost(sale.id)?.status).toBe('Captured')
  })

  it('approved with online PIN: the encrypted PIN block reaches the host', async () => {
    const sale = await sell('pin-tdes')
    expect(sale.state).toBe('approved')
  })

  it('declined: reason from the host', async () => {
    const sale = await sell('swipe-magstripe', 1051)
    expect(sale).toMatchObject({ state: 'declined', reason: expect.stringMatching(/Insufficient funds/i) })
  })

  it('card declines after approval (AAC): reversed automatically', async () => {
    const sale = await sell('aac-after-approval')
    expect(sale.state).toBe('reversalPending')
    await eventually(() => harness.engine.txn.reads.get(sale.id)?.state === 'reversed', 8_000)
    expect(atHost(sale.id)?.status).toBe('Reversed')
  })

  it('notDelivered and eligible: approved offline, stored, forwarded when the host is back', async () => {
    harness.host.setFault('*', 'http-503')
    const sale = await sell('chip-visa')
    expect(sale, JSON.stringify(sale)).toMatchObject({ state: 'storedOffline', offline: true })
    harness.host.clearFaults()
    harness.engine.forwarder.wake()
    await eventually(() => harness.engine.txn.reads.get(sale.id)?.state === 'forwarded', 8_000)
    expect(atHost(sale.id)?.status).toBe('Captured')
  })

  it('notDelivered and not eligible (swipe): declined offline with the reason', async () => {
    harness.host.setFault('*', 'http-503')
    const sale = await sell('swipe-magstripe')
    expect(sale).toMatchObject({ state: 'declined', reason: expect.stringMatching(/swiped card cannot be approved offline/) })
  })

  it.each([
    ['process-then-drop', true],
    ['drop-before-processing', false],
    ['bad-signature', true],
    ['garbage-body', true],
    ['delay=2500', true],
  ])('unknown (%s): not completed, reversed, never charged', async (fault, reachedHost) => {
    harness.host.setFault('payment', fault, 1)
    const sale = await sell('chip-visa')
    expect(sale, JSON.stringify(sale)).toMatchObject({
      state: 'reversalPending',
      reason: expect.stringMatching(/no valid answer came from the bank/),
    })
    await eventually(() => harness.engine.txn.reads.get(sale.id)?.state === 'reversed', 10_000)
    if (reachedHost) {
      const payment = await eventually(() => atHost(sale.id), 5_000)
      expect(['Reversed', 'Failed']).toContain(payment.status)
    } else expect(atHost(sale.id)).toBeUndefined()
  })

  it('a card number that fails the Luhn check: refused at the terminal, abandoned, nothing sent to the host', async () => {
    const sale = await sell('luhn-invalid')
    expect(sale).toMatchObject({ state: 'abandoned', reason: 'The card number is not valid. Try another card.' })
    expect(sale.maskedPan).toBeUndefined()
    expect(harness.host.ledger().entries.filter((e) => e.merchantTransID === sale.id)).toEqual([])
    expect(harness.engine.journal.openCard(sale.id, 'purchase')).toBeUndefined()
  })

  it('cashier cancels while the reader waits: abandoned, nothing sent', async () => {
    const sale = harness.engine.txn.sales.start({ amountMinor: 777, currency: 'USD' })
    await new Promise((r) => setTimeout(r, 200))
    await harness.engine.txn.sales.cancel(sale.id)
    const done = await harness.engine.txn.waitForOutcome(sale.id)
    expect(done.state).toBe('abandoned')
    expect(harness.host.ledger().entries.some((e) => e.merchantTransID === sale.id)).toBe(false)
  })

  it('after the flows, the journal, its WAL and the logs hold no test card data in clear', () => {
    const secrets = [
      '4761739001010010',
      '4111111111111111',
      '4111111111111112',
      '5413330089010434',
      '4012345678909',
      '4000000000000002',
      '=4912',
    ]
    const files = readdirSync(harness.dir, { recursive: true, withFileTypes: true }).filter(
      (f) => f.isFile() && /journal\.sqlite|\.log/.test(f.name),
    )
    expect(files.length).toBeGreaterThan(0)
    for (const f of files) {
      const bytes = readFileSync(join(f.parentPath, f.name)).toString('latin1')
      for (const secret of secrets) expect(bytes, `${f.name} leaks ${secret}`).not.toContain(secret)
    }
  })
})
