/**
 * What a manager holds of the audit trail outside the terminal and in the books: the day report and
 * its Z-report carry the trail's head (its last record and a short check value of its seal) as the
 * batch closed, the same on every reprint; the audit export says of each record whether it checks out
 * (`intact` column), and the trail read through the API says where it breaks. On a real journal,
 * with a record changed around SQLite's triggers through a second connection.
 */
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { JOURNAL_FILE } from '../../../src-main/app/compose'
import { Operators } from '../../../src-main/operators'
import type { AgentService, Caller } from '../../../src-main/service'
import { dayReportSlip } from '../../../src-shared/receipt'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness'
import { testService } from '../../support/service-harness'

const MANAGER = { operatorId: '9', pin: '4321' }
const WINDOW: Caller = { door: 'counter', session: 'counter-window' }

let harness: EngineHarness | undefined
let service: AgentService | undefined
afterEach(async () => {
  service?.close()
  await harness?.close()
})

async function start() {
  const reader = new ScriptedCardReader()
  harness = await startEngineHarness(reader)
  await new Operators(harness.engine.journal.operators, Date.now, { N: 2 ** 10, r: 8, p: 1 }).add({
    ...MANAGER,
    name: 'Maria',
    role: 'manager',
  })
  service = testService(harness, reader)
  expect((await service.dispatch(WINDOW, 'signIn', MANAGER)).ok).toBe(true)
  reader.present({ card: TEST_CARDS.chipVisa() })
  const sale = harness.engine.txn.sales.start({ amountMinor: 1200, currency: 'USD' })
  await harness.engine.txn.waitForOutcome(sale.id)
  return { service, reader }
}

const value = <T>(result: unknown) => (result as { ok: true; value: T }).value

describe('the audit trail kept by the manager', () => {
  it('the day report and its Z-report carry the head as the batch closed, the same on a reprint', async () => {
    const { service } = await start()
    const open = value<{ auditHead: { seq: number; check: string } }>(await service.dispatch(WINDOW, 'dayReport', {}))
    const head = harness!.engine.journal.audit.head()!
    expect(open.auditHead).toEqual({ seq: head.seq, check: head.mac.slice(0, 8).toUpperCase() })
    const closed = value<{ batch: { number: number; closedAt: number }; auditHead: { seq: number; check: string } }>(
      await service.dispatch(WINDOW, 'closeDay', {}),
    )
    expect(closed.batch.closedAt).toBeGreaterThan(0)
    // More records after the close (a sign-in elsewhere) leave the closed batch's head as it was.
    harness!.engine.journal.audit.append({ action: 'signIn', door: 'counter', subject: '9', ok: true })
    const reprint = value<{ auditHead: { seq: number; check: string } }>(
      await service.dispatch(WINDOW, 'dayReport', { batch: closed.batch.number }),
    )
    expect(reprint.auditHead).toEqual(closed.auditHead)
    expect(harness!.engine.journal.audit.head()!.seq).toBeGreaterThan(closed.auditHead.seq)
    const slip = dayReportSlip(
      reprint as never,
      { name: 'Shop', addressLines: [], merchantId: 'M1', terminalId: 'T1', training: false },
      Date.now(),
    )
    expect(slip.lines).toContainEqual({
      kind: 'field',
      label: 'Audit trail',
      value: `record ${closed.auditHead.seq}, check ${closed.auditHead.check}`,
    })
  })

  it('the export says of each record whether it checks out, and the trail where it breaks', async () => {
    const { service } = await start()
    const exportCsv = async () =>
      value<{ content: string }>(await service.dispatch(WINDOW, 'exportDay', { format: 'csv', audit: true })).content
    const before = await exportCsv()
    const header = before.split('\r\n').find((line) => line.startsWith('seq,'))!
    expect(header).toBe('seq,timeUtc,action,ok,door,via,operator,subject,detail,intact')
    const auditLines = (text: string) => text.split('\r\n').filter((line) => /^\d+,\d{4}-/.test(line))
    expect(auditLines(before).length).toBeGreaterThan(1)
    expect(auditLines(before).every((line) => line.endsWith(',yes'))).toBe(true)

    // Someone with the file changes the sign-in record: the triggers dropped and put back.
    const db = new Database(join(harness!.dir, JOURNAL_FILE), { timeout: 10_000 })
    const signIn = db.prepare("SELECT seq FROM audit WHERE action = 'signIn' AND ok = 1").pluck().get() as number
    db.exec('DROP TRIGGER audit_never_changes')
    db.prepare("UPDATE audit SET actor = '17' WHERE seq = ?").run(signIn)
    db.exec("CREATE TRIGGER audit_never_changes BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;")
    db.close()

    const after = auditLines(await exportCsv())
    expect(after.filter((line) => line.endsWith(',no')).map((line) => Number(line.split(',')[0]))).toEqual([signIn])
    const trail = value<{ intact: boolean; problems: string[] }>(await service.dispatch(WINDOW, 'auditTrail', {}))
    expect(trail.intact).toBe(false)
    expect(trail.problems).toEqual([`record ${signIn} was changed after it was written`])
  })
})
