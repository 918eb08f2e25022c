/**
 * What the audit trail is told, in one place: who (the operator), how (the door and the window or
 * token, src-main/service/caller.ts), what, and whether it was done. Records go to the journal's
 * append-only, hash-chained table (journal/audit-store.ts); a failure to record is logged, never
 * turned into a refusal of what already happened.
 */
import type { Logger } from 'pino'
import { csvCell } from '../../src-shared/csv-cell'
import type { AuditEntry, AuditRecord, AuditStore } from '../journal'
import { viaOf, type Caller } from './caller'

export class AuditTrail {
  constructor(
    private readonly store: Pick<AuditStore, 'append' | 'between' | 'verify'>,
    private readonly logger: Logger,
  ) {}

  /** Records what `caller` did (or was refused). */
  record(caller: Caller, entry: Omit<AuditEntry, 'door' | 'via'>): void {
    this.append({ ...entry, door: caller.door, via: viaOf(caller) })
  }

  /** Records something that came through no caller's call (a window that ended by itself). */
  append(entry: AuditEntry): void {
    try {
      this.store.append(entry)
    } catch (error) {
      this.logger.error({ err: error, action: entry.action }, 'could not write the audit trail')
    }
  }

  between(from: number, to: number, afterSeq?: number, limit?: number): AuditRecord[] {
    return this.store.between(from, to, afterSeq, limit)
  }

  intact(): boolean {
    return this.store.verify()
  }
}

const AUDIT_CSV_COLUMNS = ['seq', 'timeUtc', 'action', 'ok', 'door', 'via', 'operator', 'subject', 'detail'] as const

/** The audit trail as CSV, after the day's sales in a day export (a spreadsheet never runs a cell as a formula). */
export function auditCsv(records: readonly AuditRecord[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(',')]
  for (const r of records) {
    const cells = [String(r.seq), new Date(r.at).toISOString(), r.action, r.ok ? 'yes' : 'no', r.door, r.via ?? '', r.actor ?? '']
    cells.push(r.subject ?? '', r.detail ?? '')
    lines.push(cells.map(csvCell).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}
