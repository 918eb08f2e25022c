/**
 * Receipts through the local API, as a POS or the cashier window asks for them, on a real engine
 * (journal file, HTTPS training host) with a simulated ESC/POS printer on a socat pty: a sale's
 * receipt and its reprint, and the day report: the Z-report of a closed batch prints the same figures
 * however many sales come after it. Skips without socat on a developer machine; fails under CI=true.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { EscPosPrinter, printerLink, ReceiptDesk } from '../../../src-main/receipts'
import { startPrinterSim, type PrinterSim } from '../../../src-main/training/printer'
import { TEST_CARDS } from '../../fakes/scripted-card-reader'
import { commandAvailable, INSTALL, requireComponent } from '../../support/system'
import { MERCHANT } from '../../support/receipt-fixtures'
import { startApiHarness, type ApiHarness } from './api-harness'

const hasSocat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)
let api: ApiHarness | undefined
let sim: PrinterSim | undefined

afterEach(async () => {
  await api?.close()
  await sim?.stop()
  api = undefined
  sim = undefined
})

/** The slip without its "Printed" line: the time it came out of the printer is the only thing allowed to differ. */
const figures = (slip: string) =>
  slip
    .split('\n')
    .filter((line) => !line.startsWith('Printed'))
    .join('\n')

describe.runIf(hasSocat)('receipts through the local API', () => {
  it("prints a sale's receipt and reprints it; the Z-report of a closed batch never changes", { timeout: 40_000 }, async () => {
    sim = await startPrinterSim()
    const printer = new EscPosPrinter({ open: printerLink({ kind: 'serial', path: sim.path, baudRate: 115_200 }, 2_000), paper: 80 })
    api = await startApiHarness({ receipts: new ReceiptDesk(MERCHANT, printer) })
    const { txn } = api.engine.engine

    const sell = async (amountMinor: number) => {
      api!.reader.present({ card: TEST_CARDS.chipVisa() })
      const started = await api!.op('startSale', { amountMinor })
      expect((await txn.waitForOutcome(started.json.value.id)).state).toBe('approved')
      return started.json.value.id
    }
    const first = await sell(1_250)
    const second = await sell(2_000)

    expect((await api.op('printReceipt', { id: first })).json).toMatchObject({ ok: true, value: { configured: true, state: 'ready' } })
    await expect.poll(() => sim!.slips().length, { timeout: 5_000 }).toBe(2)
    expect(await api.op('printReceipt', { id: first, copies: 'customer' })).toMatchObject({ status: 200 })
    await expect.poll(() => sim!.slips().length, { timeout: 5_000 }).toBe(3)
    expect(sim.slips()[2]).toBe(sim.slips()[1]) // a reprint is the same receipt

    // The open batch prints as an X-report with its running totals.
    expect(await api.op('printDayReport', {})).toMatchObject({ status: 200 })
    await expect.poll(() => sim!.slips().length, { timeout: 5_000 }).toBe(4)
    expect(sim.slips()[3]).toContain('X-REPORT (BATCH STILL OPEN)')

    const closed = await api.op('closeDay', {})
    expect(closed.json.ok).toBe(true)
    expect(await api.op('printDayReport', { batch: 1 })).toMatchObject({ status: 200 })
    await expect.poll(() => sim!.slips().length, { timeout: 5_000 }).toBe(5)
    const zReport = sim.slips()[4]!
    expect(zReport).toContain('Z-REPORT')
    expect(zReport).toMatch(/Batch\s+1/)
    expect(zReport).toMatch(/GRAND TOTAL\s+USD 32\.50/)
    expect(zReport).toMatch(/Approved\s+2/)

    // Later sales go to batch 2; batch 1's Z-report is printed again with the same figures.
    await sell(999)
    expect(await api.op('printDayReport', { batch: 1 })).toMatchObject({ status: 200 })
    await expect.poll(() => sim!.slips().length, { timeout: 5_000 }).toBe(6)
    expect(figures(sim.slips()[5]!)).toBe(figures(zReport))
    expect(second).not.toBe(first)

    // Out of paper: refused in plain words, nothing printed.
    sim.set({ paper: 'out' })
    const refused = await api.op('printReceipt', { id: second })
    expect(refused.status).toBe(500)
    expect(refused.json).toMatchObject({ ok: false, error: { code: 'PRINTER_PAPER_OUT', words: expect.stringMatching(/out of paper/) } })
    expect(sim.slips()).toHaveLength(6)
  })
})
