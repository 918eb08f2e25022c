/**
 * The sale vocabulary is declared once (src-shared/sale); what repeats it elsewhere, because it must
 * (a shipped migration, a document), is checked against it here, so a new state cannot drift.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { JOURNAL_MIGRATIONS, openJournalDatabase } from '../../src-main/journal'
import { OPEN_SALE_PREDICATE } from '../../src-main/journal/schema'
import { CHARGED, COUNTER_BUSY, FINAL, READING_CARD, SALE_STATES, SETTLED, STANDING_PAYMENT } from '../../src-shared/sale'
import { transition } from '../../src-main/txn/txn-machine'

describe('the state classes', () => {
  it('docs/transactions.md lists every state once, and its "counter waits" column is COUNTER_BUSY', () => {
    const rows = [...readFileSync('docs/transactions.md', 'utf8').matchAll(/^\| `(\w+)` +\| [^|]+\| (yes|no) +\|$/gm)]
    expect(rows.map((r) => r[1])).toEqual([...SALE_STATES])
    expect(new Set(rows.filter((r) => r[2] === 'yes').map((r) => r[1]))).toEqual(COUNTER_BUSY)
  })

  it('READING_CARD is exactly the states the machine enters when it asks the reader for a card, all at the counter', () => {
    const entered = new Set<string>()
    const base = { id: 'S', amountMinor: 100, tipMinor: 0, currency: 'USD', autoCapture: true }
    for (const [state, event] of [
      ['created', { type: 'readCard' }],
      ['created', { type: 'returnRequested' }],
      ['approved', { type: 'voidRequested', paymentQueue: 'none' }],
    ] as const) {
      const result = transition({ ...base, state } as never, event)
      if (result.ok && result.effects.some((effect) => effect.type === 'readCard')) entered.add(result.sale.state)
    }
    expect(entered).toEqual(READING_CARD)
    for (const state of READING_CARD) expect(COUNTER_BUSY.has(state)).toBe(true)
  })

  it('a final sale is settled and never at the counter; a standing payment is charged', () => {
    for (const state of FINAL) {
      expect(SETTLED.has(state)).toBe(true)
      expect(COUNTER_BUSY.has(state)).toBe(false)
    }
    for (const state of STANDING_PAYMENT) expect(CHARGED.has(state)).toBe(true)
    for (const state of COUNTER_BUSY) expect(SETTLED.has(state) || CHARGED.has(state)).toBe(false)
  })

  it('the open-sale predicate (index sale_open and the recovery query) names exactly the states not SETTLED', () => {
    const named = [...OPEN_SALE_PREDICATE.matchAll(/'(\w+)'/g)].map((m) => m[1])
    expect(OPEN_SALE_PREDICATE).toMatch(/^state NOT IN \(/)
    expect(new Set(named)).toEqual(SETTLED)
    const dir = mkdtempSync(join(tmpdir(), 'pos-vocabulary-'))
    try {
      const db = openJournalDatabase(join(dir, 'journal.sqlite'), { migrations: JOURNAL_MIGRATIONS })
      const planOf = (where: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM sale WHERE ${where}`).all() as Array<{ detail: string }>).map((r) => r.detail).join()
      // The recovery query, and the queue's count of sales that need a manager (outbox-store.ts totals).
      const plans = [planOf(OPEN_SALE_PREDICATE), planOf(`state = 'needsAttention' AND ${OPEN_SALE_PREDICATE}`)]
      db.close()
      for (const plan of plans) expect(plan).toMatch(/USING INDEX sale_open/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
