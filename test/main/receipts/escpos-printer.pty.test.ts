/**
 * The receipt printer driver against a simulated ESC/POS printer, over the real serialport stack on a
 * socat pty pair and over TCP on 127.0.0.1 (as a network printer on port 9100 would be): what comes
 * out of the printer is read back from the bytes it received. Skips without socat on a developer
 * machine; fails under CI=true.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { errorView, type PosError } from '../../../src-shared/errors'
import { EscPosPrinter, printerLink, ReceiptDesk } from '../../../src-main/receipts'
import { startNetworkPrinterSim, startPrinterSim, type PrinterSim } from '../../../src-main/training/printer'
import { commandAvailable, INSTALL, requireComponent } from '../../support/system'
import { CHIP_SALE, MERCHANT } from '../../support/receipt-fixtures'

const hasSocat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)
const sims: PrinterSim[] = []

afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.stop()
})

async function rig(kind: 'serial' | 'network'): Promise<{ sim: PrinterSim; desk: ReceiptDesk; printer: EscPosPrinter }> {
  if (kind === 'serial') {
    const sim = await startPrinterSim()
    sims.push(sim)
    const printer = new EscPosPrinter({
      open: printerLink({ kind: 'serial', path: sim.path, baudRate: 115_200 }, 2_000),
      paper: 58,
      answerTimeoutMs: 400,
    })
    return { sim, printer, desk: new ReceiptDesk(MERCHANT, printer) }
  }
  const sim = await startNetworkPrinterSim()
  sims.push(sim)
  const printer = new EscPosPrinter({
    open: printerLink({ kind: 'network', host: sim.host, port: sim.port }, 2_000),
    paper: 80,
    answerTimeoutMs: 400,
  })
  return { sim, printer, desk: new ReceiptDesk(MERCHANT, printer) }
}

describe.each(['serial', 'network'] as const)('a receipt printer over %s', (kind) => {
  const needs = kind === 'serial' ? hasSocat : true
  it.skipIf(!needs)('prints the merchant copy then the customer copy, each cut, and again when asked', { timeout: 15_000 }, async () => {
    const { sim, desk } = await rig(kind)
    await desk.print(CHIP_SALE)
    await expect.poll(() => sim.slips().length, { timeout: 5_000 }).toBe(2)
    const [merchant, customer] = sim.slips()
    expect(merchant).toContain('MERCHANT COPY')
    expect(merchant).toContain('Cardholder signature')
    expect(customer).toContain('CUSTOMER COPY')
    expect(customer).toContain('SIGNATURE ON MERCHANT COPY')
    for (const slip of sim.slips()) {
      expect(slip).toContain('Corner Cafe')
      expect(slip).toMatch(/TOTAL\s+USD 1,234\.56/)
      expect(slip).toContain('476173******0010')
    }
    // A reprint of the customer's copy only.
    await desk.print(CHIP_SALE, 'customer')
    await expect.poll(() => sim.slips().length, { timeout: 5_000 }).toBe(3)
    expect(sim.slips()[2]).toContain('CUSTOMER COPY')
    expect(await desk.printerStatus(true)).toMatchObject({ configured: true, state: 'ready' })
  })

  it.skipIf(!needs)(
    'refuses in plain words when out of paper, the cover open or switched off, and prints nothing',
    { timeout: 15_000 },
    async () => {
      const { sim, desk, printer } = await rig(kind)
      const cases = [
        [{ paper: 'out' }, 'PRINTER_PAPER_OUT', /out of paper/, 'paperOut'],
        [{ coverOpen: true }, 'PRINTER_COVER_OPEN', /cover is open/, 'coverOpen'],
        [{ powered: false }, 'PRINTER_OFFLINE', /not answering/, 'offline'],
      ] as const
      for (const [state, code, words, known] of cases) {
        sim.set({ paper: 'ok', coverOpen: false, powered: true, ...state })
        const refusal = await desk.print(CHIP_SALE).then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(refusal).toMatchObject({ code })
        // What the cashier reads: the catalogue's words for the code.
        expect(errorView(refusal as PosError).words).toMatch(words)
        expect(printer.lastKnown().state).toBe(known)
      }
      expect(sim.slips()).toEqual([])
      // Paper low still prints, and says so.
      sim.set({ paper: 'low', coverOpen: false, powered: true })
      await desk.print(CHIP_SALE, 'merchant')
      await expect.poll(() => sim.slips().length, { timeout: 5_000 }).toBe(1)
      expect(await desk.printerStatus(false)).toMatchObject({ state: 'paperLow' })
    },
  )
})

describe('a serial receipt printer unplugged mid-job', () => {
  it.skipIf(!hasSocat)('fails the job it was printing and the agent carries on', { timeout: 15_000 }, async () => {
    const sim = await startPrinterSim()
    sims.push(sim)
    const link = await printerLink({ kind: 'serial', path: sim.path, baudRate: 115_200 }, 2_000)()
    await link.write(Buffer.from('before\n'))
    await expect.poll(() => sim.bytes().toString(), { timeout: 5_000 }).toContain('before')
    await sim.unplug()
    // The port now reads and writes EIO. The write is refused; the stream's 'error' that follows must
    // not reach the process as an uncaught exception (the test run would report it and fail).
    await expect(link.write(Buffer.from('after\n'))).rejects.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 200))
    await link.close()
  })
})

describe('no receipt printer', () => {
  it('says so in plain words', async () => {
    const desk = new ReceiptDesk(MERCHANT)
    await expect(desk.print(CHIP_SALE)).rejects.toMatchObject({ code: 'PRINTER_NOT_CONFIGURED' })
    expect(await desk.printerStatus(true)).toEqual({ configured: false, state: 'notConfigured' })
  })
})
