/**
 * What the audit trail is told, in one place, the trail's one writer (the agent's service, the
 * owner's command line and the setup page all write through it): who (the operator), how (the door
 * and the window or token, src-main/service/caller.ts), what, and whether it was done. Records go to
 * the journal's append-only, sealed table (journal/audit-store.ts); a failure to record is the
 * writer's `failed` to tell (the agent logs it, never turning it into a refusal of what already
 * happened; a command fails with it).
 */
import { csvCell } from '../../src-shared/csv-cell'
import type { AuditEntry, AuditHead, AuditRecord, AuditStore, AuditVerdict } from '../journal'
import { viaOf, type Caller } from './caller'

export class AuditTrail {
  constructor(
    private readonly store: Pick<AuditStore, 'append' | 'between' | 'verify' | 'head' | 'headAt'>,
    private readonly failed: (error: unknown, entry: AuditEntry) => void,
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
      this.failed(error, entry)
    }
  }

  between(from: number, to: number, afterSeq?: number, limit?: number): AuditRecord[] {
    return this.store.between(from, to, afterSeq, limit)
  }

  /** The whole trail read against its key and the head kept outside the file; `perRecord` names each record that fails. */
  verdict(perRecord = false): AuditVerdict & { broken?: ReadonlySet<number> } {
    return this.store.verify({ perRecord })
  }

  intact(): boolean {
    return this.verdict().intact
  }

  /** The head now, or as it stood at `time` (a batch's close), as a day report carries it. */
  headAt(time?: number): { seq: number; check: string } | undefined {
    const head = time === undefined ? this.store.head() : this.store.headAt(time)
    return head ? { seq: head.seq, check: auditCheckValue(head) } : undefined
  }
}

/** A head's short check value, as the Z-report prints it: the first 8 hex digits of its seal. */
export function auditCheckValue(head: AuditHead): string {
  return head.mac.slice(0, 8).toUpperCase()
}

const AUDIT_CSV_COLUMNS = ['seq', 'timeUtc', 'action', 'ok', 'door', 'via', 'operator', 'subject', 'detail', 'intact'] as const

/**
 * The audit trail as CSV, after the day's sales in a day export (a spreadsheet never runs a cell as a
 * formula: csvCell). `intact` says of each record whether it checks out: `no` for a record changed after it was
 * written, or one the trail's key cannot vouch for (`broken`, from the check of the whole trail).
 */
export function auditCsv(records: readonly AuditRecord[], broken: ReadonlySet<number>): string {
  const lines = [AUDIT_CSV_COLUMNS.join(',')]
  for (const r of records) {
    const cells = [String(r.seq), new Date(r.at).toISOString(), r.action, r.ok ? 'yes' : 'no', r.door, r.via ?? '', r.actor ?? '']
    cells.push(r.subject ?? '', r.detail ?? '', broken.has(r.seq) ? 'no' : 'yes')
    lines.push(cells.map(csvCell).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}
