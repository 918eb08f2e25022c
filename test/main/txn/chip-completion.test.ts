/**
 * An offline chip approval is forwarded with the card's final cryptogram (docs/card-reader.md §2.5):
 * the NEO 2 driver on a socat pty pair with the simulated PIN pad, the journal in SQLite, the training
 * host over HTTPS. With the host down the engine asks the card to decide offline (8A Z3); the stored
 * payment must reach the host carrying the card's TC (9F27 40) and 8A Y3, not the ARQC of the read,
 * and the sale's history must keep the cryptogram as evidence.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  Neo2CardReader,
  SerialReaderTransport,
  type CardCompletion,
  type CardData,
  type CardReader,
  type DeviceEvent,
  type HostAnswerForCard,
  type ReadCardRequest,
  type ReadCardResult,
} from '../../../src-main/device'
import { decodeTlv } from '../../../src-main/device/card-data'
import { startPtyPinpadSim, type PtyPinpadSim } from '../../../src-main/training/pinpad'
import { eventually, startEngineHarness, type EngineHarness } from '../../support/engine-harness'
import { commandAvailable, INSTALL, requireComponent } from '../../support/system'

const socat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)

/** The real reader, with what the card said at each step kept for the test to compare. */
class RecordingReader implements CardReader {
  readonly reads: CardData[] = []
  readonly completions: CardCompletion[] = []
  constructor(private readonly inner: CardReader) {}

  async readCard(request: ReadCardRequest): Promise<ReadCardResult> {
    const result = await this.inner.readCard(request)
    if (result.kind === 'card') this.reads.push(result.card)
    return result
  }

  async completeCard(answer: HostAnswerForCard): Promise<CardCompletion> {
    const completion = await this.inner.completeCard(answer)
    this.completions.push(completion)
    return completion
  }

  cancel(): Promise<void> {
    return this.inner.cancel()
  }

  onEvent(listener: (event: DeviceEvent) => void): () => void {
    return this.inner.onEvent(listener)
  }

  status() {
    return this.inner.status()
  }

  close(): Promise<void> {
    return this.inner.close()
  }
}

/** Tag → upper-case hex value of an icCardData. */
function tagsOf(icCardData: string | undefined): Record<string, string> {
  return Object.fromEntries(decodeTlv(Buffer.from(icCardData ?? '', 'hex')).map((t) => [t.tag, t.value.toString('hex').toUpperCase()]))
}

describe.runIf(socat)('offline chip approval: the TC is forwarded, and kept as evidence', () => {
  let sim: PtyPinpadSim
  let driver: Neo2CardReader
  let reader: RecordingReader
  let harness: EngineHarness

  beforeAll(async () => {
    sim = await startPtyPinpadSim({ cardReadMs: 20, pinEntryMs: 20 })
    driver = await Neo2CardReader.open({ transport: new SerialReaderTransport({ path: sim.hostPath }) })
    reader = new RecordingReader(driver)
    harness = await startEngineHarness(reader, { duplicateWindowMs: 0 })
  })
  afterAll(async () => {
    await harness.close()
    await driver.close()
    await sim.close()
  })
  beforeEach(() => harness.host.clearFaults())

  async function sellWithHostDown(card: string, amountMinor: number) {
    harness.host.setFault('*', 'http-503')
    const started = harness.engine.txn.sales.start({ amountMinor, currency: 'USD' })
    sim.present(card)
    const sale = await harness.engine.txn.waitForOutcome(started.id)
    return { sale, read: tagsOf(reader.reads.at(-1)?.icCardData), completion: tagsOf(reader.completions.at(-1)?.icCardData) }
  }

  const history = (id: string) =>
    harness.engine.journal
      .events(id)
      .map((e) => ({ type: e.type, detail: e.detail === null ? undefined : (JSON.parse(e.detail) as unknown) }))

  it('stored after Z3, forwarded with 9F27 40, the card’s TC, the read’s ATC and 8A Y3', async () => {
    const { sale, read, completion } = await sellWithHostDown('chip-visa', 2_345)
    expect(sale, JSON.stringify(sale)).toMatchObject({ state: 'storedOffline', offline: true })
    expect(read['9F27']).toBe('80')
    expect(completion).toMatchObject({ '9F27': '40', '8A': '5933' })
    expect(completion['9F26']).not.toBe(read['9F26'])

    // The history keeps the card's final word: the TC, its counter and the final response code.
    expect(history(sale.id)).toContainEqual({
      type: 'cardCompleted',
      detail: { decision: 'approved', evidence: { cid: '40', cryptogram: completion['9F26'], atc: read['9F36'], responseCode: 'Y3' } },
    })
    // The receipt prints the card's final TVR and TSI (from the 2nd GENERATE AC), and how the cardholder was verified.
    expect(sale).toMatchObject({
      tvr: completion['95'],
      tsi: completion['9B'],
      cvm: expect.stringMatching(/^(pin|signature|pinAndSignature|none)$/),
    })
    expect(completion['9B']).toBeDefined()
    // The sealed copy of the card, which a later reversal would be built from, carries the TC too.
    expect(tagsOf(harness.engine.journal.openCard<CardData>(sale.id, 'purchase')?.icCardData)['9F27']).toBe('40')

    harness.host.clearFaults()
    harness.engine.forwarder.wake()
    await eventually(() => harness.engine.txn.reads.get(sale.id)?.state === 'forwarded', 8_000)
    const entry = harness.host.ledger().entries.find((e) => e.operation === 'payment' && e.merchantTransID === sale.id)
    const forwarded = tagsOf(entry?.icCardData)
    expect(forwarded).toMatchObject({
      '9F27': '40',
      '9F26': completion['9F26'],
      '9F36': read['9F36'],
      '8A': '5933',
      '9B': completion['9B'],
      // The read's other tags travel unchanged.
      '9F02': read['9F02'],
      '9F37': read['9F37'],
    })
    expect(forwarded['9F26']).not.toBe(read['9F26'])
    for (const sad of ['56', '57', '5A', '5F20', '5F24', '99', '9F1F', '9F20']) expect(forwarded).not.toHaveProperty(sad)
  })

  it('a card that declines offline: declined, nothing sent, its AAC and Z3 in the history', async () => {
    const { sale, completion } = await sellWithHostDown('offline-decline', 2_346)
    expect(sale).toMatchObject({
      state: 'declined',
      reason: expect.stringMatching(/card refused the payment while the bank could not be reached/),
    })
    expect(history(sale.id)).toContainEqual({
      type: 'cardCompleted',
      detail: {
        decision: 'declined',
        evidence: { cid: '00', cryptogram: completion['9F26'], atc: completion['9F36'], responseCode: 'Z3' },
      },
    })
    expect(harness.engine.journal.openCard(sale.id, 'purchase')).toBeUndefined()
    expect(harness.host.ledger().entries.filter((e) => e.merchantTransID === sale.id && e.operation === 'payment')).toEqual([])
  })
})
