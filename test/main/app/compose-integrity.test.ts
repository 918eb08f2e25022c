/**
 * A large journal starts on a structural check and has its full check aside (journal-integrity.ts):
 * when that check finds damage, the engine raises the manager's alarm and the journal takes no more
 * payments, on a real journal file damaged deep inside (a leaf page of the audit trail, which the
 * start itself never reads).
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { composeEngine, JOURNAL_DAMAGED_WORDS, JOURNAL_FILE } from '../../../src-main/app/compose'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { startEngineHarness, testSettings, type EngineHarness } from '../../support/engine-harness'
import pino from 'pino'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/**
 * Fills the audit trail past a few pages and zeroes the cell pointers of its last leaf page (they
 * start 8 bytes in: https://sqlite.org/fileformat.html, "B-tree Pages"), which a full check always
 * reads; bytes further in may be the page's free space, depending on how full it is.
 */
function damageAuditLeaf(file: string): void {
  const db = new Database(file)
  const insert = db.prepare("INSERT INTO audit (at, action, door, ok, detail, prev_hash, hash) VALUES (?, 'test', 'api', 1, ?, 'x', 'y')")
  db.transaction(() => {
    for (let i = 0; i < 2_000; i++) insert.run(i, 'd'.repeat(80))
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  const pageSize = db.pragma('page_size', { simple: true }) as number
  const leaf = db.prepare("SELECT max(pageno) FROM dbstat WHERE name = 'audit' AND pagetype = 'leaf'").pluck().get() as number
  db.close()
  const fd = openSync(file, 'r+')
  writeSync(fd, Buffer.alloc(40, 0), 0, 40, (leaf - 1) * pageSize + 8)
  closeSync(fd)
}

describe('the integrity check aside', () => {
  it('damage found after start: the alarm in plain words, and no new sale is written', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    harness = await startEngineHarness(reader)
    const first = await harness.engine.txn.waitForOutcome(harness.engine.txn.sales.start({ amountMinor: 1200, currency: 'USD' }).id)
    expect(first.state).toBe('approved')
    await harness.engine.close()
    damageAuditLeaf(join(harness.dir, JOURNAL_FILE))

    harness.engine = await composeEngine(testSettings(harness.dir, { journalFullCheckAtOpenMaxBytes: 0 }), {
      reader,
      host: harness.client,
      secrets: harness.secrets,
      logger: pino({ level: 'silent' }),
    })
    // The start itself went through: the sale taken before is there to look up.
    expect(harness.engine.journal.get(first.id)?.state).toBe('approved')
    const deadline = Date.now() + 15_000
    while (!harness.engine.alarms.some((a) => a.code === 'JOURNAL_DAMAGED') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20))
    expect(harness.engine.alarms).toContainEqual({ code: 'JOURNAL_DAMAGED', message: JOURNAL_DAMAGED_WORDS })
    reader.present({ card: TEST_CARDS.chipVisa() })
    expect(() => harness!.engine.txn.sales.start({ amountMinor: 500, currency: 'USD' })).toThrow(
      expect.objectContaining({ code: 'JOURNAL_CORRUPT' }),
    )
    expect(harness.engine.journal.get(first.id)?.state).toBe('approved')
  })
})
