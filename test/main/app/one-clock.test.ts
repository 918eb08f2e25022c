/**
 * One clock (src-shared/clock.ts): the runtime holds it and the composition root hands it on, so a
 * sale, its journal, its queued copies, the receipts and the nexo answers are dated by it, not each
 * by the computer's clock of its own. The whole agent in training mode, with a clock set years ahead.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openRuntime, readerFactory, startAgent } from '../../../src-main/app'
import { ReceiptDesk, type ReceiptPrinter } from '../../../src-main/receipts'
import { INSTALLATION_GRANT } from '../../../src-main/service'
import type { DayReportView } from '../../../src-shared/contract'

const dir = mkdtempSync(join(tmpdir(), 'pos-clock-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the runtime’s clock', () => {
  it('dates what the agent does: a sale rung up and the day it belongs to', async () => {
    const at = Date.parse('2031-03-04T10:00:00Z')
    const runtime = await openRuntime({ dataDirFlag: dir, env: { HOME: dir, PATH: process.env.PATH ?? '' }, clock: { now: () => at } })
    expect(runtime.clock.now()).toBe(at)
    // No card comes: the sale waits at the card prompt, dated when it was rung up.
    const agent = await startAgent(runtime, readerFactory({ autoPresentMs: 600_000, cardReadMs: 100, pinEntryMs: 200 }))
    try {
      const pos = { door: 'pos' as const, token: INSTALLATION_GRANT }
      const sale = await agent.service.call(pos, 'startSale', { amountMinor: 1200 })
      expect(sale.createdAt).toBe(at)
      expect(sale.businessDay).toBe('2031-03-04')
      await agent.service.call(pos, 'cancelSale', { id: sale.id })
      const report: DayReportView = await agent.service.call(pos, 'dayReport', {})
      expect(report.businessDay).toBe('2031-03-04')
    } finally {
      await agent.close()
    }
  }, 60_000)

  it('dates what the receipt desk learns of its printer', async () => {
    const at = Date.parse('2031-03-04T10:00:00Z')
    const printer: ReceiptPrinter = { paper: 80, status: async () => 'ready', lastKnown: () => ({ state: 'ready' }), print: async () => {} }
    const desk = new ReceiptDesk(
      { name: 'Corner Cafe', addressLines: [], merchantId: 'M1', terminalId: 'T1', training: true },
      printer,
      undefined,
      { now: () => at },
    )
    expect(await desk.printerStatus(true)).toMatchObject({ state: 'ready', checkedAt: at })
  })
})
