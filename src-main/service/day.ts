/**
 * The day: the open batch's running report, the close (a numbered batch), closed batches, and the
 * export for the books, with the audit trail of the same time when a manager asks for it.
 */
import type { AuditTrailView, DayReportView } from '../../src-shared/contract'
import { dayReportCsv } from '../txn'
import { auditCsv } from './audit-trail'
import type { Handlers, ServiceParts } from './service-parts'

export function dayHandlers(parts: ServiceParts): Handlers<'dayReport' | 'closeDay' | 'listBatches' | 'exportDay'> {
  const { day } = parts.deps.engine.txn
  return {
    dayReport: (r) => withAuditHead(parts, day.report(r.batch)),
    closeDay: async (r, { caller, actor }) => {
      const report = await day.close(r.batch, r.managerOverride ?? false, actor)
      // The close ended the open shift; whoever stays signed in works on into the next batch.
      if (report.batch.closedAt !== undefined)
        parts.sessions.continueAfterClose(caller.door === 'counter' ? caller.session : undefined, report.batch.closedAt)
      return withAuditHead(parts, report)
    },
    listBatches: () => day.batches(),
    exportDay: (r) => {
      const report = withAuditHead(parts, day.report(r.batch))
      const audit = r.audit ? auditOfBatchChecked(parts, report) : undefined
      const name = `pos-agent-${report.businessDay}-batch-${report.batch.number}${report.batch.closedAt === undefined ? '-open' : ''}`
      if (r.format === 'csv') {
        const content = dayReportCsv(report) + (audit ? `\r\n${auditCsv(audit.view.records, audit.broken)}` : '')
        return { filename: `${name}.csv`, contentType: 'text/csv; charset=utf-8', content }
      }
      return {
        filename: `${name}.json`,
        contentType: 'application/json; charset=utf-8',
        content: JSON.stringify(audit ? { ...report, auditTrail: audit.view } : report, null, 2),
      }
    },
  }
}

/**
 * A day report with the audit trail's head: as it stood at the batch's close (the Z-report keeps it
 * outside the terminal once printed), or now for the open batch.
 */
export function withAuditHead(parts: ServiceParts, report: DayReportView): DayReportView {
  const head = parts.audit.headAt(report.batch.closedAt)
  return head ? { ...report, auditHead: head } : report
}

/** The audit trail of a batch's time: from the close before it (or the start) to its own close (or now). */
export function auditOfBatch(parts: ServiceParts, report: Pick<DayReportView, 'batch'>, afterSeq = 0, limit = 5000): AuditTrailView {
  return auditOfBatchChecked(parts, report, afterSeq, limit).view
}

/** The same, with the records the check of the whole trail found failing (the CSV's `intact` column). */
function auditOfBatchChecked(
  parts: ServiceParts,
  report: Pick<DayReportView, 'batch'>,
  afterSeq = 0,
  limit = 5000,
): { view: AuditTrailView; broken: ReadonlySet<number> } {
  const closed = parts.deps.engine.txn.day.batches()
  const previous = closed.find((batch) => batch.number === report.batch.number - 1)
  const from = previous?.closedAt ?? 0
  const to = report.batch.closedAt !== undefined ? report.batch.closedAt + 1 : Number.MAX_SAFE_INTEGER
  const verdict = parts.audit.verdict(true)
  const view: AuditTrailView = {
    records: parts.audit.between(from, to, afterSeq, limit),
    intact: verdict.intact,
    ...(verdict.intact ? {} : { problems: verdict.problems.map((p) => p.words) }),
  }
  return { view, broken: verdict.broken ?? new Set() }
}
