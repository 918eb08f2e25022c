/**
 * The paired windows' rows (schema.ts version 11): a window by the SHA-256 of its secret, its view,
 * what opened it, when it was last seen and when it ended. Persistence only: the rules (what ends a
 * window, how long it may stay unused) are src-main/service/windows.ts.
 */
import type Database from 'better-sqlite3'

export interface WindowRecord {
  hash: string
  view: 'cashier' | 'customer'
  /** JSON of what opened it (service/windows.ts WindowOpener). */
  openedBy: string
  createdAt: number
  lastSeenAt: number
}

interface WindowRow {
  hash: string
  view: 'cashier' | 'customer'
  opened_by: string
  created_at: number
  last_seen_at: number
}

const fromRow = (row: WindowRow): WindowRecord => ({
  hash: row.hash,
  view: row.view,
  openedBy: row.opened_by,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
})

export class WindowStore {
  private readonly statements

  constructor(db: Database.Database) {
    this.statements = {
      insert: db.prepare('INSERT INTO window_session (hash, view, opened_by, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)'),
      live: db.prepare('SELECT * FROM window_session WHERE ended_at IS NULL ORDER BY created_at'),
      seen: db.prepare('UPDATE window_session SET last_seen_at = ? WHERE hash = ? AND ended_at IS NULL'),
      end: db.prepare('UPDATE window_session SET ended_at = ?, ended_why = ? WHERE hash = ? AND ended_at IS NULL'),
    }
  }

  add(record: WindowRecord): void {
    this.statements.insert.run(record.hash, record.view, record.openedBy, record.createdAt, record.lastSeenAt)
  }

  /** The windows not ended, oldest first. */
  live(): WindowRecord[] {
    return (this.statements.live.all() as WindowRow[]).map(fromRow)
  }

  seen(hash: string, at: number): void {
    this.statements.seen.run(at, hash)
  }

  end(hash: string, at: number, why: string): void {
    this.statements.end.run(at, why, hash)
  }
}
