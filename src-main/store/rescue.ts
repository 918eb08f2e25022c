/**
 * The rescue of a dead terminal's queue, from any lane of the store: read and open each copy with the
 * store's recovery key and the terminal's enrolled keys, apply the terminal's own rules, fence the
 * terminal, send each approved copy to the bank under its own id (the same message the terminal would
 * have sent: the host answers a repeat with its first answer, and a reversal is idempotent,
 * host-contract §3), erase the copy once the bank answered, and report each item for the merchant's
 * books. A sale's items go in the terminal's order (its reversal first, then by age); an item the bank
 * did not answer keeps its copy and holds back the later items of its sale, for the next run. A second
 * run finds only what the first left: it sends nothing twice.
 *
 * A copy that does not open, is not the terminal's own, breaks its rules, or sits at a subject of the
 * wrong shape is a line of the report, never the end of the run; it stays at the store untouched. A
 * withdrawal (the terminal voided the item) is honoured: nothing is sent, and it is erased.
 */
import { answerWords, type GatewayAnswer } from '../gateway'
import { fenceTerminal, type FenceRecord } from './fence'
import type { CopyRecord, QueueCopy, QueueTombstone } from './queue-replica'
import { maskedCardOf, RescueRuleBook, type RescueRules } from './rescue-rules'
import type { CopyOpener } from './sealed-copy'
import type { StoreConnection } from './store-connection'
import { itemOfSubject } from './store-names'

/**
 * Sends one copy to the bank, as the terminal would have sent it, and says what came back (the
 * gateway's one reduction, gateway/outcome.ts): approved or declined erases the copy; refused (nothing
 * recorded at the bank) or no answer keeps it for another run.
 */
export interface RescueSender {
  send(copy: QueueCopy): Promise<GatewayAnswer>
}

export type RescueResult = 'approved' | 'declined' | 'refused' | 'not sent' | 'copy refused' | 'withdrawn' | 'gone'

export interface RescueLine {
  saleId: string
  operation: string
  messageId: string
  amountMinor: number
  currency: string | null
  /** The card as receipts print it (first six and last four digits at most), or ''. */
  card: string
  queuedAt: string
  result: RescueResult
  /** The bank's answer, or why nothing was sent, in plain words. */
  bankSaid: string
  authCode?: string | undefined
}

/** A copy the rescue may send: opened, the terminal's own, within its rules. */
export interface RescueItem {
  subject: string
  seq: number
  copy: QueueCopy
  card: string
}

/** What the store holds for a terminal, read and checked. */
export interface QueueReading {
  items: RescueItem[]
  withdrawn: Array<{ subject: string; seq: number; tombstone: QueueTombstone }>
  /** Copies that are not sent, each with why (they stay at the store untouched). */
  refused: Array<{ subject: string; line: RescueLine }>
  /** What could not be read at all (the store's old shared stream), in plain words. */
  notes: string[]
}

export interface ReadOptions {
  connection: StoreConnection
  storeId: string
  terminalId: string
  opener: CopyOpener
  /** The terminal's enrolled copy keys (newest first): a copy no one of them sealed is refused. */
  senderPublicKeys: string[]
  rules: RescueRules
  timeoutMs: number
  /** Copies opened at once. */
  concurrency?: number
  /**
   * Copies already opened, by subject, with the stream sequence they were read at: the reading after
   * the fence opens again only what changed since the listing (a stream sequence names one message
   * for good), so a rescue decrypts and authenticates each copy once.
   */
  opened?: Map<string, { seq: number; record: CopyRecord }>
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
  /** Copies still at the store to be sent by another run (not answered, held back, or new since the listing). */
  left: number
  /** Copies refused (not the terminal's, unreadable, against its rules): left at the store, untouched. */
  refusedCopies: number
}

export interface RescueOptions extends ReadOptions {
  sender: RescueSender
  /** Which lane or machine runs the rescue (recorded in the fence). */
  by: string
  rescueId: string
  now: () => Date
  /**
   * The copies a manager approved from the listing (subject → stream sequence). Only these are sent:
   * one that appeared or changed since is listed and left for the next run. Without it, every copy that
   * passes is sent.
   */
  approved?: ReadonlyMap<string, number>
  /**
   * How long after the fence a copy may still reach the store: an offline approval that read "no
   * fence" just before it was put publishes its copy until its own deadline (the lanes'
   * `store.ackTimeoutMs`), and the lane learns of the fence through a watch a moment after it is put.
   * The copies are read once this has passed since the fence, so such a copy is in the report (and,
   * when the manager approved a listing, listed as left for the next run) instead of missed by it.
   * LATE_COPY_MS unless set.
   */
  lateCopyMs?: number
}

/** The default `store.ackTimeoutMs` (config/config.ts) and a second for the fence watch to reach the lane (`lateCopyMsOf`). */
export const LATE_COPY_MS = 1_500 + 1_000

/**
 * How long the rescue still waits for late copies, given when the fence was put. Never more than
 * `lateCopyMs`: an earlier fence may come from another machine whose clock is ahead, and its time
 * must not hold the rescue for hours.
 */
export function lateCopyWaitMs(fencedAt: string, lateCopyMs: number, now: Date): number {
  const left = Date.parse(fencedAt) + lateCopyMs - now.getTime()
  return Number.isFinite(left) ? Math.min(lateCopyMs, Math.max(0, left)) : lateCopyMs
}

/** A reversal goes before anything else of its sale, as in the terminal's queue (journal/outbox-store.ts). */
const PRIORITY: Readonly<Record<string, number>> = { reversal: 0 }

/** Reads every copy of the terminal at the store, opens it and checks it; never throws for one copy. */
export async function readRescueQueue(options: ReadOptions): Promise<QueueReading> {
  const { connection, terminalId, opener, timeoutMs } = options
  const subjects = await connection.copySubjects(terminalId, timeoutMs)
  const stored = await connection.readCopies(terminalId, subjects.length, timeoutMs)
  const opened: Array<{ subject: string; seq: number; copy: QueueCopy }> = []
  const reading: QueueReading = { items: [], withdrawn: [], refused: [], notes: [] }
  // Copies left in the store's old shared stream were made before copies were authenticated: anyone
  // with store credentials could have put them there, so none is sent; each is a line.
  try {
    for (const { subject } of await connection.readLegacyCopies(terminalId, timeoutMs))
      reading.refused.push({
        subject,
        line: refusedLine(
          subject,
          "it is in the store's old shared stream, made before copies proved which terminal made them, so it cannot be trusted",
        ),
      })
  } catch (error) {
    reading.notes.push(
      `the store's old shared stream could not be read (${error instanceof Error ? error.message : String(error)}): copies there, if any, are not listed`,
    )
  }
  let read = 0
  const openOne = async () => {
    while (read < stored.length) {
      const { subject, seq, data } = stored[read++]!
      try {
        const known = options.opened?.get(subject)
        const record = known !== undefined && known.seq === seq ? known.record : await opener.open(data, subject, options.senderPublicKeys)
        options.opened?.set(subject, { seq, record })
        if (record.storeId !== options.storeId || record.terminalId !== terminalId)
          reading.refused.push({ subject, line: refusedLine(subject, 'it names another terminal than the one rescued') })
        else if (record.kind === 'withdrawn') reading.withdrawn.push({ subject, seq, tombstone: record })
        else opened.push({ subject, seq, copy: record })
      } catch (error) {
        reading.refused.push({ subject, line: refusedLine(subject, error instanceof Error ? error.message : String(error)) })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 16) }, openOne))
  // The rules' running totals follow the order the terminal queued its items in.
  opened.sort((a, b) => a.copy.queuedAt - b.copy.queuedAt || a.subject.localeCompare(b.subject))
  const book = new RescueRuleBook(options.rules, terminalId)
  for (const { subject, seq, copy } of opened) {
    const why = book.refusal(copy)
    if (why === undefined) reading.items.push({ subject, seq, copy, card: maskedCardOf(copy.body) })
    else reading.refused.push({ subject, line: lineOf(copy, maskedCardOf(copy.body), 'copy refused', `not sent: ${why}`) })
  }
  reading.refused.sort((a, b) => a.line.queuedAt.localeCompare(b.line.queuedAt) || a.subject.localeCompare(b.subject))
  return reading
}

/**
 * Fences the terminal, reads its copies again, and sends what is to be sent. With `approved`, a copy
 * that is not exactly one the manager approved is listed and kept for the next run.
 */
export async function rescueTerminal(options: RescueOptions): Promise<RescueReport> {
  const { connection, storeId, terminalId, timeoutMs, now } = options
  const startedAt = now().toISOString()
  const { fence, earlier } = await fenceTerminal(
    connection,
    { storeId, terminalId, rescuedAt: startedAt, by: options.by, rescueId: options.rescueId },
    timeoutMs,
  )
  // Read after the fence, once a copy the terminal began before it learned of the fence has landed:
  // from then on the terminal publishes nothing more. A fence put long ago needs no wait.
  const settled = lateCopyWaitMs(fence.rescuedAt, options.lateCopyMs ?? LATE_COPY_MS, now())
  if (settled > 0) await new Promise((resolve) => setTimeout(resolve, settled))
  const reading = await readRescueQueue(options)
  const lines: RescueLine[] = reading.refused.map(({ line }) => line)
  for (const { subject, seq, tombstone } of reading.withdrawn) {
    // Withdrawn by the terminal (a void): nothing to send, and the withdrawal's work is done.
    await connection.erase(subject, timeoutMs, seq)
    const when = new Date(tombstone.withdrawnAt).toISOString().slice(0, 16).replace('T', ' ')
    lines.push(
      lineOf(
        { ...tombstone, amountMinor: 0, currency: null, queuedAt: tombstone.withdrawnAt },
        '',
        'withdrawn',
        `withdrawn by the terminal on ${when}: not sent`,
      ),
    )
  }
  let toSend = reading.items
  if (options.approved) {
    const approved = options.approved
    toSend = reading.items.filter((item) => approved.get(item.subject) === item.seq)
    for (const item of reading.items)
      if (approved.get(item.subject) !== item.seq)
        lines.push(
          lineOf(
            item.copy,
            item.card,
            'not sent',
            'not sent: it reached the store after the listing you approved; run the rescue again to send it',
          ),
        )
    const present = new Set([...reading.items, ...reading.withdrawn, ...reading.refused].map((item) => item.subject))
    for (const subject of approved.keys())
      if (!present.has(subject)) lines.push(subjectLine(subject, 'gone', 'not sent: it was no longer at the store when the rescue sent'))
  }
  lines.push(...(await sendItems(connection, toSend, options.sender, timeoutMs, options.concurrency)))
  lines.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || a.messageId.localeCompare(b.messageId))
  const left = lines.filter((line) => line.result === 'not sent' || line.result === 'refused').length
  const refusedCopies = lines.filter((line) => line.result === 'copy refused').length
  return { storeId, terminalId, fence, continued: earlier, startedAt, endedAt: now().toISOString(), lines, left, refusedCopies }
}

/** The items grouped by sale in the terminal's order: a sale's reversal first, then by age. */
export function salesInOrder(items: RescueItem[]): RescueItem[][] {
  const sales = new Map<string, RescueItem[]>()
  for (const item of items) sales.set(item.copy.saleId, [...(sales.get(item.copy.saleId) ?? []), item])
  return [...sales.values()].map((group) =>
    group.sort(
      (a, b) =>
        (PRIORITY[a.copy.operation] ?? 1) - (PRIORITY[b.copy.operation] ?? 1) ||
        a.copy.queuedAt - b.copy.queuedAt ||
        a.copy.messageId.localeCompare(b.copy.messageId),
    ),
  )
}

async function sendItems(
  connection: StoreConnection,
  items: RescueItem[],
  sender: RescueSender,
  timeoutMs: number,
  concurrency = 16,
): Promise<RescueLine[]> {
  const queue = salesInOrder(items)
  const lines: RescueLine[] = []
  let next = 0
  const erasures: Array<Promise<unknown>> = []
  let eraseFailure: unknown
  const worker = async () => {
    while (next < queue.length) {
      const group = queue[next++]!
      let held: string | undefined
      // The previous item's erasure: awaited before the sale's next item is sent, so an interruption
      // resends at most one item of a sale; a sale's last erasure runs on while the next sale is sent.
      let erasing: Promise<unknown> = Promise.resolve()
      for (const { subject, seq, copy, card } of group) {
        await erasing
        if (held !== undefined) {
          lines.push(lineOf(copy, card, 'not sent', `not sent: it waits behind an earlier message of the same sale (${held})`))
          continue
        }
        const answer = await sender.send(copy)
        if (answer.kind !== 'approved' && answer.kind !== 'declined') {
          // Refused before the bank recorded it, or no answer: the copy waits for another run. Only
          // a message that provably never reached the bank is said to be "not sent".
          const words = answer.kind === 'notDelivered' ? `not sent: ${answerWords(answer)}` : answerWords(answer)
          held = words
          lines.push(lineOf(copy, card, answer.kind === 'rejected' ? 'refused' : 'not sent', words))
          continue
        }
        // Answered: the copy's work is done.
        erasing = connection.erase(subject, timeoutMs, seq).catch((error: unknown) => (eraseFailure ??= error))
        erasures.push(erasing)
        lines.push(
          answer.kind === 'approved'
            ? { ...lineOf(copy, card, 'approved', answerWords(answer)), authCode: answer.authCode }
            : lineOf(copy, card, 'declined', answerWords(answer)),
        )
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker))
  await Promise.all(erasures)
  // A copy answered but not erased would be sent again by the next run (answered with its first answer): said, not hidden.
  if (eraseFailure !== undefined) throw eraseFailure
  return lines
}

function lineOf(
  copy: Pick<QueueCopy, 'saleId' | 'operation' | 'messageId' | 'amountMinor' | 'currency' | 'queuedAt'>,
  card: string,
  result: RescueResult,
  bankSaid: string,
): RescueLine {
  return {
    saleId: copy.saleId,
    operation: copy.operation,
    messageId: copy.messageId,
    amountMinor: copy.amountMinor,
    currency: copy.currency,
    card,
    queuedAt: new Date(copy.queuedAt).toISOString(),
    result,
    bankSaid,
  }
}

/** A line for a copy known only by its subject (it did not open, or its subject is not a copy's). */
function subjectLine(subject: string, result: RescueResult, words: string): RescueLine {
  let item: { operation: string; messageId: string }
  try {
    item = itemOfSubject(subject)
  } catch {
    item = { operation: '', messageId: subject }
  }
  return {
    saleId: '',
    operation: item.operation,
    messageId: item.messageId,
    amountMinor: 0,
    currency: null,
    card: '',
    queuedAt: '',
    result,
    bankSaid: words,
  }
}

function refusedLine(subject: string, why: string): RescueLine {
  return subjectLine(subject, 'copy refused', why.startsWith('not sent') ? why : `not sent: ${why}`)
}
