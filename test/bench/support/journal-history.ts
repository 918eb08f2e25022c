/** Years of trading in a journal, written straight through SQL: the benches' large journal. */
import { join } from 'node:path'
import { JOURNAL_FILE } from '../../../src-main/app/compose'
import { JOURNAL_MIGRATIONS, openJournalDatabase } from '../../../src-main/journal'

/** The schema version the filled journals are made at: a cached journal of another version is made again. */
export const JOURNAL_SCHEMA_VERSION = Math.max(...JOURNAL_MIGRATIONS.map((m) => m.version))

/**
 * Fills `dir`'s journal with `count` historical sales (one in twenty declined), 90 s apart over the
 * last three years. Their ids start with `idPrefix`-: a terminal's own sales carry its terminal id.
 */
export function fillHistory(dir: string, count: number, idPrefix = 'H1'): void {
  const db = openJournalDatabase(join(dir, JOURNAL_FILE), { migrations: JOURNAL_MIGRATIONS })
  const insertSale =
    db.prepare(`INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture, offline, chip, masked_pan, brand, read_method, card_fingerprint, auth_code)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'USD', 1, 0, 1, '476173******0010', 'VISA', 'chip', ?, 'A1B2C3')`)
  const insertEvent = db.prepare(
    "INSERT INTO sale_event (sale_id, at, type, from_state, to_state) VALUES (?, ?, 'paymentAnswered', 'sending', ?)",
  )
  const start = Date.now() - 3 * 365 * 86_400_000
  const chunk = 50_000
  for (let base = 0; base < count; base += chunk) {
    db.transaction(() => {
      for (let i = base; i < Math.min(count, base + chunk); i++) {
        const at = start + i * 90_000
        const id = `${idPrefix}-${String(i).padStart(9, '0')}`
        const state = i % 20 === 0 ? 'declined' : 'approved'
        insertSale.run(
          id,
          state,
          at,
          at,
          new Date(at).toISOString().slice(0, 10),
          new Date(at).toISOString(),
          1_000 + (i % 9_000),
          `fp${i % 200_000}`,
        )
        insertEvent.run(id, at, state)
      }
    })()
  }
  db.prepare("INSERT INTO counter (name, value) VALUES ('merchantTransID', 0) ON CONFLICT DO NOTHING").run()
  db.close()
}
