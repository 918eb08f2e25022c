/**
 * What the nexo door must remember to answer the same after a restart (journal version 12): which
 * POS is logged in, which payments a POS stopped with an Abort, and which sale each Reversal's
 * ServiceID was about (a void, or the return it started). The money itself is in the sale rows;
 * these are nexo's own bookkeeping around them.
 */
import type Database from 'better-sqlite3'

export type NexoReversalKind = 'void' | 'return'

export class NexoStore {
  private readonly sql

  constructor(
    db: Database.Database,
    private readonly now: () => number,
  ) {
    this.sql = {
      login: db.prepare(
        'INSERT INTO nexo_login (sale_id, operator_id, at) VALUES (?, ?, ?) ON CONFLICT (sale_id) DO UPDATE SET operator_id = excluded.operator_id, at = excluded.at',
      ),
      logout: db.prepare('DELETE FROM nexo_login WHERE sale_id = ?'),
      loggedIn: db.prepare('SELECT sale_id FROM nexo_login ORDER BY at, sale_id').pluck(),
      abort: db.prepare('INSERT OR IGNORE INTO nexo_abort (sale, pos_sale_id, at) VALUES (?, ?, ?)'),
      aborted: db.prepare('SELECT 1 FROM nexo_abort WHERE sale = ?').pluck(),
      reversal: db.prepare('INSERT OR IGNORE INTO nexo_reversal (pos_sale_id, service_id, sale, kind, at) VALUES (?, ?, ?, ?, ?)'),
      reversalOf: db.prepare('SELECT sale, kind FROM nexo_reversal WHERE pos_sale_id = ? AND service_id = ?'),
    }
  }

  login(posSaleId: string, operatorId: string | undefined): void {
    this.sql.login.run(posSaleId, operatorId ?? null, this.now())
  }

  logout(posSaleId: string): void {
    this.sql.logout.run(posSaleId)
  }

  loggedIn(): string[] {
    return this.sql.loggedIn.all() as string[]
  }

  /** A payment stopped by a POS's Abort (kept once, the first POS's). */
  recordAbort(saleId: string, posSaleId: string): void {
    this.sql.abort.run(saleId, posSaleId, this.now())
  }

  wasAborted(saleId: string): boolean {
    return this.sql.aborted.get(saleId) !== undefined
  }

  /** What a Reversal's ServiceID was about; a repeat keeps the first. */
  recordReversal(posSaleId: string, serviceId: string, saleId: string, kind: NexoReversalKind): { saleId: string; kind: NexoReversalKind } {
    this.sql.reversal.run(posSaleId, serviceId, saleId, kind, this.now())
    return this.reversalOf(posSaleId, serviceId)!
  }

  reversalOf(posSaleId: string, serviceId: string): { saleId: string; kind: NexoReversalKind } | undefined {
    const row = this.sql.reversalOf.get(posSaleId, serviceId) as { sale: string; kind: NexoReversalKind } | undefined
    return row ? { saleId: row.sale, kind: row.kind } : undefined
  }
}
