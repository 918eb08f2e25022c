/**
 * A POS's `reference` is its idempotency key: a retry with the same reference must get its sale, never
 * a second charge. On a real journal file, bytes of the reference's unique index are changed on disk
 * (its page found through SQLite's dbstat) the way a failing disk or a hand edit would: SQLite's
 * quick_check still says "ok", so the start lets the file through. The retry still finds the first
 * sale (the second reference index, journal-store.ts byReference), the bank sees one payment, and the
 * journal's check at idle (integrity_check, indexes included) raises the damage alarm.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { composeEngine, JOURNAL_DAMAGED_WORDS, JOURNAL_FILE } from '../../../src-main/app/compose'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, testSettings, type EngineHarness } from '../../support/engine-harness'

let harness: EngineHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/** The unique index SQLite made for `sale.reference` (its name is SQLite's own, sqlite_autoindex_sale_N). */
function referenceIndexOf(db: Database.Database): string {
  const indexes = db.prepare("SELECT name FROM pragma_index_list('sale') WHERE origin = 'u'").pluck().all() as string[]
  const name = indexes.find((index) => {
    const columns = db.prepare('SELECT name FROM pragma_index_info(?)').pluck().all(index) as string[]
    return columns.length === 1 && columns[0] === 'reference'
  })
  if (!name) throw new Error('no unique index on sale.reference')
  return name
}

/** Changes `from` to `to` (same length) wherever it stands in the pages of the reference's unique index. */
function damageReferenceIndex(file: string, from: string, to: string): void {
  const db = new Database(file)
  db.pragma('wal_checkpoint(TRUNCATE)')
  const pageSize = db.pragma('page_size', { simple: true }) as number
  const pages = db.prepare('SELECT pageno FROM dbstat WHERE name = ?').pluck().all(referenceIndexOf(db)) as number[]
  db.close()
  expect(pages.length).toBeGreaterThan(0)
  const fd = openSync(file, 'r+')
  let changed = 0
  try {
    for (const page of pages) {
      const bytes = Buffer.alloc(pageSize)
      readSync(fd, bytes, 0, pageSize, (page - 1) * pageSize)
      for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1)) {
        writeSync(fd, Buffer.from(to), 0, to.length, (page - 1) * pageSize + at)
        changed++
      }
    }
  } finally {
    closeSync(fd)
  }
  expect(changed).toBe(1)
}

async function damagedJournal(): Promise<{ first: string; file: string; reader: ScriptedCardReader }> {
  const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
  harness = await startEngineHarness(reader)
  const first = await harness.engine.txn.waitForOutcome(
    harness.engine.txn.sales.start({ amountMinor: 2222, currency: 'USD', reference: 'DUP-1' }).id,
  )
  expect(first.state).toBe('approved')
  await harness.engine.close()
  const file = join(harness.dir, JOURNAL_FILE)
  damageReferenceIndex(file, 'DUP-1', 'DUP-9')
  // The damage is of the kind quick_check does not see, and integrity_check does.
  const look = new Database(file, { readonly: true })
  expect(look.pragma('quick_check', { simple: true })).toBe('ok')
  expect(look.pragma('integrity_check', { simple: true })).not.toBe('ok')
  look.close()
  return { first: first.id, file, reader }
}

async function restart(reader: ScriptedCardReader, idleMs: number) {
  harness!.engine = await composeEngine(testSettings(harness!.dir, { journalWatch: { idleMs, everyMs: 60_000, pollMs: 20 } }), {
    reader,
    host: harness!.client,
    secrets: harness!.secrets,
    logger: pino({ level: 'silent' }),
  })
  return harness!.engine
}

describe('a damaged reference index', () => {
  it('a POS retry with the same reference gets the first sale; the bank sees one payment', async () => {
    const { first, reader } = await damagedJournal()
    const payments = () => harness!.host.ledger().entries.filter((e) => e.operation === 'payment').length
    expect(payments()).toBe(1)
    // No idle check before the retry: what finds the sale is the lookup itself.
    const engine = await restart(reader, 3_600_000)
    reader.present({ card: TEST_CARDS.chipVisa() })
    const retry = engine.txn.sales.start({ amountMinor: 2222, currency: 'USD', reference: 'DUP-1' })
    expect(retry.id).toBe(first)
    expect(retry.state).toBe('approved')
    expect(engine.journal.searchSales({}).map((s) => s.id)).toEqual([first])
    expect(payments()).toBe(1)
    // Finding it only the second way says the index is damaged: the full check runs at once.
    await eventually(() => engine.alarms.some((a) => a.code === 'JOURNAL_DAMAGED'), 15_000)
  })

  it('the journal check at idle compares indexes with their tables, and raises the damage alarm', async () => {
    const { first, reader } = await damagedJournal()
    const engine = await restart(reader, 100)
    await eventually(() => engine.alarms.some((a) => a.code === 'JOURNAL_DAMAGED'), 15_000)
    expect(engine.alarms).toContainEqual({ code: 'JOURNAL_DAMAGED', message: JOURNAL_DAMAGED_WORDS })
    // The journal takes no more sales, and what it holds still reads.
    expect(() => engine.txn.sales.start({ amountMinor: 500, currency: 'USD' })).toThrow(
      expect.objectContaining({ code: 'JOURNAL_CORRUPT' }),
    )
    expect(engine.journal.get(first)?.state).toBe('approved')
  })
})
