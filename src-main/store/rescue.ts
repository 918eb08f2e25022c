/**
 * The rescue of a dead terminal's queue, from any lane of the store: fence the terminal first, then
 * open each copy with the store's recovery key, send it to the bank under its own id (the same
 * message the terminal would have sent: the host answers a repeat with its first answer, and a
 * reversal is idempotent, host-contract §3), erase the copy once the bank answered, and report each
 * item for the merchant's books. A sale's items go in the terminal's order (its reversal first, then
 * by age); an item the bank did not answer keeps its copy and holds back the later items of its
 * sale, for the next run. A second run finds only what the first left: it sends nothing twice.
 */
import { fenceTerminal, type FenceRecord } from './fence'
import type { QueueCopy } from './queue-replica'
import type { CopyOpener } from './sealed-copy'
import type { StoreConnection } from './store-connection'
import { itemOfSubject } from './store-names'

export type RescueAnswer =
  | { kind: 'approved'; authCode?: string | undefined }
  | { kind: 'declined'; reason: string }
  /** The bank refused the message itself (nothing recorded there): kept for another run. */
  | { kind: 'refused'; reason: string }
  /** No answer came back: kept for another run. */
  | { kind: 'notSent'; reason: string }

export interface RescueSender {
  send(copy: QueueCopy): Promise<RescueAnswer>
}

export interface RescueLine {
  saleId: string
  operation: string
  messageId: string
  amountMinor: number
  currency: string | null
  queuedAt: string
  result: 'approved' | 'declined' | 'refused' | 'not sent' | 'unreadable' | 'withdrawn'
  /** The bank's answer, or why nothing was sent, in plain words. */
  bankSaid: string
  authCode?: string | undefined
}

export interface RescueReport {
  storeId: string
  terminalId: string
  fence: FenceRecord
  /** An earlier rescue of this terminal had fenced it already (this run continues it). */
  continued: boolean
  startedAt: string
  endedAt: string
  lines: RescueLine[]
  /** Copies still at the store after this run (not answered, or unreadable): run it again. */
  left: number
}

export interface RescueOptions {
  connection: StoreConnection
  storeId: string
  terminalId: string
  opener: CopyOpener
  /** The terminal's enrolled copy keys (newest first): a copy no one of them sealed is refused. */
  senderPublicKeys: string[]
  sender: RescueSender
  /** Which lane or machine runs the rescue (recorded in the fence). */
  by: string
  rescueId: string
  timeoutMs: number
  now: () => Date
  /** Sales sent at once (a sale's own items always one after another). */
  concurrency?: number
}

/** A reversal goes before anything else of its sale, as in the terminal's queue (journal/outbox-store.ts). */
const PRIORITY: Readonly<Record<string, number>> = { reversal: 0 }

export async function rescueTerminal(options: RescueOptions): Promise<RescueReport> {
  const { connection, storeId, terminalId, opener, timeoutMs, now } = options
  const startedAt = now().toISOString()
  const { fence, earlier } = await fenceTerminal(
    connection,
    { storeId, terminalId, rescuedAt: startedAt, by: options.by, rescueId: options.rescueId },
    timeoutMs,
  )
  const lines: RescueLine[] = []
  const sales = new Map<string, Array<{ subject: string; seq: number; copy: QueueCopy }>>()
  const subjects = await connection.copySubjects(terminalId, timeoutMs)
  const stored = await connection.readCopies(terminalId, subjects.length, timeoutMs)
  let read = 0
  const openOne = async () => {
    while (read < stored.length) {
      const { subject, seq, data } = stored[read++]!
      try {
        const copy = await opener.open(data, subject, options.senderPublicKeys)
        if (copy.terminalId !== terminalId || copy.storeId !== storeId) throw new Error('the copy names another terminal')
        if (copy.kind === 'withdrawn') {
          // Withdrawn by the terminal (a void): nothing to send, and the tombstone's work is done.
          await connection.erase(subject, timeoutMs, seq)
          const when = new Date(copy.withdrawnAt).toISOString()
          lines.push(
            lineOf(
              { ...copy, amountMinor: 0, currency: null, queuedAt: copy.withdrawnAt },
              'withdrawn',
              `withdrawn by the terminal on ${when}: not sent`,
            ),
          )
          continue
        }
        sales.set(copy.saleId, [...(sales.get(copy.saleId) ?? []), { subject, seq, copy }])
      } catch (error) {
        const item = itemOfSubject(subject)
        lines.push({
          saleId: '',
          operation: item.operation,
          messageId: item.messageId,
          amountMinor: 0,
          currency: null,
          queuedAt: '',
          result: 'unreadable',
          bankSaid: `not sent: ${error instanceof Error ? error.message : String(error)}`,
        })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 16) }, openOne))
  const queue = [...sales.values()].map((items) =>
    items.sort(
      (a, b) =>
        (PRIORITY[a.copy.operation] ?? 1) - (PRIORITY[b.copy.operation] ?? 1) ||
        a.copy.queuedAt - b.copy.queuedAt ||
        a.copy.messageId.localeCompare(b.copy.messageId),
    ),
  )
  let next = 0
  const erasures: Array<Promise<unknown>> = []
  let eraseFailure: unknown
  const worker = async () => {
    while (next < queue.length) {
      const items = queue[next++]!
      let held: string | undefined
      // The previous item's erasure: awaited before the sale's next item is sent, so an interruption
      // resends at most one item of a sale; a sale's last erasure runs on while the next sale is sent.
      let erasing: Promise<unknown> = Promise.resolve()
      for (const { subject, seq, copy } of items) {
        await erasing
        if (held !== undefined) {
          lines.push(lineOf(copy, 'not sent', `not sent: it waits behind an earlier message of the same sale (${held})`))
          continue
        }
        const answer = await options.sender.send(copy)
        if (answer.kind === 'notSent' || answer.kind === 'refused') {
          held = answer.reason
          lines.push(lineOf(copy, answer.kind === 'notSent' ? 'not sent' : 'refused', answer.reason))
          continue
        }
        // Answered: the copy's work is done.
        erasing = connection.erase(subject, timeoutMs, seq).catch((error: unknown) => (eraseFailure ??= error))
        erasures.push(erasing)
        lines.push(
          answer.kind === 'approved'
            ? { ...lineOf(copy, 'approved', 'approved'), authCode: answer.authCode }
            : lineOf(copy, 'declined', `declined: ${answer.reason}`),
        )
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 16) }, worker))
  await Promise.all(erasures)
  // A copy answered but not erased would be sent again by the next run (answered with its first answer): said, not hidden.
  if (eraseFailure !== undefined) throw eraseFailure
  lines.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || a.messageId.localeCompare(b.messageId))
  const left = lines.filter((line) => line.result === 'not sent' || line.result === 'refused' || line.result === 'unreadable').length
  return { storeId, terminalId, fence, continued: earlier, startedAt, endedAt: now().toISOString(), lines, left }
}

function lineOf(
  copy: Pick<QueueCopy, 'saleId' | 'operation' | 'messageId' | 'amountMinor' | 'currency' | 'queuedAt'>,
  result: RescueLine['result'],
  bankSaid: string,
): RescueLine {
  return {
    saleId: copy.saleId,
    operation: copy.operation,
    messageId: copy.messageId,
    amountMinor: copy.amountMinor,
    currency: copy.currency,
    queuedAt: new Date(copy.queuedAt).toISOString(),
    result,
    bankSaid,
  }
}

/** The report as CSV for the merchant's books: one line per item, no card data. */
export function rescueCsv(report: RescueReport): string {
  const head = 'sale,what,message,amount_minor,currency,queued_at,result,bank_said,auth_code'
  const cell = (value: unknown) => {
    const text = value === undefined || value === null ? '' : String(value)
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
  }
  const rows = report.lines.map((l) =>
    [l.saleId, l.operation, l.messageId, l.amountMinor, l.currency, l.queuedAt, l.result, l.bankSaid, l.authCode].map(cell).join(','),
  )
  return `${[head, ...rows].join('\n')}\n`
}
