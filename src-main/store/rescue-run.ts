/**
 * `pos-agent rescue` as a whole (docs/store.md "The rescue"), from the recovery key to the audit
 * record; the command line only reads its options and the passphrase, asks, and prints. In order:
 *
 * 1. the recovery key is opened and must be this store's (`store.recoveryPublicKey`): anything else
 *    changes nothing, not even a fence;
 * 2. the terminal's last heartbeat must be older than `store.rescueAfterSeconds`, unless the manager
 *    states that the terminal is off (`--terminal-is-off`, recorded): a rescue beside a living lane
 *    could send what that lane just voided;
 * 3. every copy is opened with the terminal's enrolled keys and checked against its rules, and what
 *    would be sent is listed (masked card, age, sale, totals per kind of message) with every refused
 *    copy and why;
 * 4. `--dry-run` ends here; otherwise the manager confirms (`yes`, or `--yes`), the terminal is fenced,
 *    its copies are read again (what changed since the listing is not sent, and is listed), sent,
 *    erased, and the report is written (folder 0700, file 0600, cells never formulas);
 * 5. every run, refused or done, is a record in the audit trail of the lane it ran on.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { hostname, userInfo } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { csvCell } from '../../src-shared/csv-cell'
import { agreeing, counted } from '../../src-shared/counted'
import { displayAmount } from '../../src-shared/money'
import { PosError } from '../../src-shared/pos-error'
import { QUEUE_OPERATION_NOUNS, type QueueOperation } from '../../src-shared/sale'
import { enrolledKeys } from './enrolment'
import { readEnrolmentHistory } from './enrolment-history'
import { openRecoveryPrivateKey, rewrapNote, type OpenedRecoveryKey } from './recovery-key'
import type { CopyRecord } from './queue-replica'
import { readRescueQueue, rescueTerminal, type RescueItem, type RescueLine, type RescueReport, type RescueSender } from './rescue'
import type { RescueRules } from './rescue-rules'
import { CopyOpener } from './sealed-copy'
import { StoreConnection, type StoreConnectionSettings } from './store-connection'
import { parseHeartbeat } from './fleet'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

/** What the audit trail is told (the command line appends it to the lane's journal). */
export interface RescueAuditEntry {
  action: string
  subject: string
  actor?: string | undefined
  ok: boolean
  detail: string
}

/** A terminal's last heartbeat as far as the rescue needs it; `unreadable` when the record does not parse. */
export type LastHeartbeat = { lastSeen: number; heartbeatSeconds: number } | 'none' | 'unreadable'

export interface RescueRunInput {
  connection: Omit<StoreConnectionSettings, 'name'>
  terminalId: string
  /** `store.recoveryPublicKey` of the lane it runs on. */
  recoveryPublicKey: string
  /** The key file's name (for the words) and content, and its passphrase. */
  keyFile: string
  keyPem: string
  passphrase: string
  rules: RescueRules
  /** How long the terminal's heartbeat must have been silent (`store.rescueAfterSeconds`, or its default). */
  rescueAfterSeconds: number
  /** The manager states that the terminal is off: the heartbeat is not waited for. */
  terminalIsOff: boolean
  dryRun: boolean
  /** Asks the question; true only for a plain yes (always true with `--yes`). */
  confirm: (question: string) => Promise<boolean>
  sender: RescueSender
  reportDir: string
  /** Whether `reportDir` is the data folder's own (made owner-only even if it was there before). */
  reportDirIsDefault: boolean
  /** The lane the rescue runs on (its terminal id): in the fence, the audit record and the report. */
  lane: string
  audit: (entry: RescueAuditEntry) => void
  print: (text: string) => void
  warn: (text: string) => void
  json?: boolean
  timeoutMs?: number
  /** How long after the fence a lane's copy may still land (`rescueTerminal`'s `lateCopyMs`); `lateCopyMsOf` of the store's settings. */
  lateCopyMs?: number
  /** How long a request no server answers is asked again (StoreConnection `electionMs`); ELECTION_MS unless set. */
  electionMs?: number
  now?: () => Date
  /** Where the terminal's enrolment history is read (the store's `pos_enrol` bucket by default). */
  enrolmentHistory?: (connection: StoreConnection, storeId: string, terminalId: string, ms: number) => Promise<Uint8Array[]>
  /** Where the terminal's last heartbeat is read (the store's `pos_fleet` bucket by default). */
  lastHeartbeat?: (connection: StoreConnection, storeId: string, terminalId: string, ms: number) => Promise<LastHeartbeat>
}

export interface RescueRunResult {
  code: number
  report?: RescueReport | undefined
  file?: string | undefined
}

/** Exit codes (README "Exit codes"): the same numbers as the command line's. */
const EXIT = { ok: 0, failure: 1, usage: 2, config: 3 } as const
/**
 * How long the rescue asks again a request no store server answers: the servers left of a
 * three-server store elect a stream's new leader within seconds of losing one (docs/store.md).
 */
const ELECTION_MS = 30_000

/** A lane's copy can land until its `store.ackTimeoutMs` has passed, plus a second for the fence watch to reach it. */
export function lateCopyMsOf(store: { ackTimeoutMs: number }): number {
  return store.ackTimeoutMs + 1_000
}

/** `store.rescueAfterSeconds`, or four heartbeats and at least a minute. */
export function rescueAfterSecondsOf(store: { heartbeatSeconds: number; rescueAfterSeconds?: number | undefined }): number {
  return store.rescueAfterSeconds ?? Math.max(60, 4 * store.heartbeatSeconds)
}

/**
 * The last heartbeat at the store, timed by the store server's clock (when it took the record), not
 * by the lane's own: a lane whose clock is wrong is not taken for silent. A record that does not parse
 * is `unreadable`, never an exception.
 */
export async function readLastHeartbeat(
  connection: StoreConnection,
  storeId: string,
  terminalId: string,
  ms: number,
): Promise<LastHeartbeat> {
  const found = await connection.readHeartbeatRaw(terminalId, ms)
  if (!found || found.raw.length === 0) return 'none'
  const beat = parseHeartbeat(found.raw, storeId, terminalId)
  if (!beat) return 'unreadable'
  return { lastSeen: found.at, heartbeatSeconds: beat.heartbeatSeconds }
}

export async function runRescue(input: RescueRunInput): Promise<RescueRunResult> {
  const { terminalId, audit } = input
  const storeId = input.connection.storeId
  const subject = `${storeId}/${terminalId}`
  const now = input.now ?? (() => new Date(SYSTEM_CLOCK.now()))
  const timeoutMs = input.timeoutMs ?? 5_000
  const actor = osUser()
  const record = (ok: boolean, detail: string) => audit({ action: 'rescue', subject, actor, ok, detail: `from ${input.lane}: ${detail}` })

  // 1. The key first: a wrong one changes nothing.
  let key: OpenedRecoveryKey
  try {
    key = openRecoveryPrivateKey(input.keyPem, input.passphrase)
  } catch (error) {
    record(false, 'the recovery key did not open')
    input.warn(`${error instanceof PosError ? error.message : String(error)}: nothing was changed`)
    return { code: EXIT.usage }
  }
  if (key.publicKey !== input.recoveryPublicKey) {
    record(false, "not this store's recovery key")
    input.warn(`this is not the recovery key of store ${storeId} (it does not match store.recoveryPublicKey): nothing was changed`)
    return { code: EXIT.config }
  }
  if (key.legacy) input.warn(rewrapNote(input.keyFile))

  // A rescue follows a lost terminal, often a lost server too: each read waits out a leader's election.
  const connection = new StoreConnection({
    ...input.connection,
    electionMs: input.electionMs ?? ELECTION_MS,
    name: `pos-agent rescue on ${hostname()}`,
  })
  try {
    // 2. A terminal heard from lately may be alive: its queue is not taken from under it.
    const beat = await (input.lastHeartbeat ?? readLastHeartbeat)(connection, storeId, terminalId, timeoutMs)
    const silence = silenceWords(beat, input.rescueAfterSeconds, now())
    if (!silence.ok && !input.terminalIsOff) {
      record(false, `refused: ${silence.words}`)
      input.warn(
        `${silence.words}: it may still be running, and a rescue beside it could send what it has just voided. Nothing was changed. ${silence.until ? `Run the rescue again after ${silence.until}, or` : 'If'} you know the terminal is off, say so with --terminal-is-off.`,
      )
      return { code: EXIT.failure }
    }
    const offWords = input.terminalIsOff ? `; the manager stated that the terminal is off (${silence.words})` : ''

    // 3. What would be sent, and what not.
    const history = await (input.enrolmentHistory ?? readEnrolmentHistory)(connection, storeId, terminalId, timeoutMs)
    const enrolled = enrolledKeys(key.jwk, history, { storeId, terminalId })
    const opener = new CopyOpener(key.jwk)
    const read = {
      connection,
      storeId,
      terminalId,
      opener,
      senderPublicKeys: enrolled.keys,
      rules: input.rules,
      timeoutMs,
      opened: new Map<string, { seq: number; record: CopyRecord }>(),
    }
    const listing = await readRescueQueue(read)
    for (const note of listing.notes) input.warn(note)
    input.print(
      listingWords(
        terminalId,
        storeId,
        silence.words,
        enrolled,
        listing.items,
        listing.refused.map(({ line }) => line),
        listing.withdrawn.length,
        now(),
      ),
    )

    if (input.dryRun) {
      record(
        true,
        `dry run${offWords}; ${listedWords(listing.items, listing.refused.length)}; nothing was sent and the terminal was not fenced`,
      )
      input.print('dry run: nothing was sent, and the terminal was not fenced')
      return { code: EXIT.ok }
    }
    const question =
      listing.items.length === 0
        ? `Fence terminal ${terminalId} (it will no longer send its queue) and erase what it withdrew?`
        : `Send ${agreeing(listing.items.length, 'this message', `these ${listing.items.length} messages`)} to the bank?`
    if (!(await input.confirm(question))) {
      record(false, `the manager did not confirm${offWords}; nothing was sent and the terminal was not fenced`)
      input.print('nothing was changed: nothing was sent, and the terminal was not fenced')
      return { code: EXIT.failure }
    }

    // 4. Fence, read again, send, erase, report.
    const rescueId = randomUUID()
    const report = await rescueTerminal({
      ...read,
      sender: input.sender,
      by: `${input.lane} on ${hostname()}`,
      rescueId,
      now,
      approved: new Map(listing.items.map((item) => [item.subject, item.seq])),
      ...(input.lateCopyMs !== undefined ? { lateCopyMs: input.lateCopyMs } : {}),
    })
    const file = writeReport(input, report)
    record(
      report.left === 0,
      `rescue ${rescueId}, fence of ${report.fence.rescuedAt}${report.continued ? ' (continued)' : ''}${offWords}; ${resultWords(report)}; report ${file}`,
    )
    if (input.json) input.print(JSON.stringify({ ...report, file }))
    else input.print(summaryWords(report, file))
    return { code: report.left === 0 && report.refusedCopies === 0 ? EXIT.ok : EXIT.failure, report, file }
  } catch (error) {
    record(false, `stopped: ${error instanceof Error ? error.message : String(error)}`)
    throw error
  } finally {
    await connection.close()
  }
}

function osUser(): string | undefined {
  try {
    return userInfo().username
  } catch {
    return undefined
  }
}

function at(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
}

function silenceWords(beat: LastHeartbeat, rescueAfterSeconds: number, now: Date): { ok: boolean; words: string; until?: string } {
  if (beat === 'none') return { ok: true, words: 'no heartbeat of it is at the store' }
  if (beat === 'unreadable')
    return { ok: false, words: 'its last heartbeat at the store cannot be read, so whether it still runs is not known' }
  const wait = Math.max(rescueAfterSeconds, 4 * beat.heartbeatSeconds) * 1000
  const silent = now.getTime() - beat.lastSeen
  const words = `it was last heard from at ${at(beat.lastSeen)} UTC (${age(silent)} ago)`
  return silent >= wait ? { ok: true, words } : { ok: false, words, until: `${at(beat.lastSeen + wait)} UTC` }
}

function age(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 120) return counted(seconds, 'second')
  if (seconds < 7_200) return counted(Math.round(seconds / 60), 'minute')
  if (seconds < 172_800) return counted(Math.round(seconds / 3_600), 'hour')
  return counted(Math.round(seconds / 86_400), 'day')
}

function noun(operation: string): string {
  return QUEUE_OPERATION_NOUNS[operation as QueueOperation] ?? operation
}

function money(minor: number, currency: string | null): string {
  return currency ? displayAmount(minor, currency) : ''
}

/** Totals per kind of message: "3 payments (USD 36.00), 1 reversal (USD 20.00)". */
function totalsWords(items: Array<{ operation: string; amountMinor: number; currency: string | null }>): string {
  const totals = new Map<string, { n: number; sums: Map<string, number> }>()
  for (const item of items) {
    const total = totals.get(item.operation) ?? { n: 0, sums: new Map<string, number>() }
    total.n++
    if (item.currency) total.sums.set(item.currency, (total.sums.get(item.currency) ?? 0) + item.amountMinor)
    totals.set(item.operation, total)
  }
  return [...totals]
    .map(([operation, { n, sums }]) => {
      const amounts = [...sums].map(([currency, minor]) => displayAmount(minor, currency)).join(', ')
      return `${counted(n, noun(operation))}${amounts ? ` (${amounts})` : ''}`
    })
    .join(', ')
}

function listingWords(
  terminalId: string,
  storeId: string,
  heard: string,
  enrolled: { keys: string[]; refused: string[] },
  items: RescueItem[],
  refused: RescueLine[],
  withdrawn: number,
  now: Date,
): string {
  const out = [`terminal ${terminalId} of store ${storeId}: ${heard}`]
  if (enrolled.keys.length === 0)
    out.push(`terminal ${terminalId} has no enrolment at the store that this recovery key vouches for: none of its copies can be trusted`)
  for (const why of enrolled.refused) out.push(`an enrolment record of ${terminalId} was not taken: ${why}`)
  out.push(items.length === 0 ? 'nothing to send to the bank' : `${counted(items.length, 'message')} to send to the bank:`)
  for (const { copy, card } of items)
    out.push(
      `  ${noun(copy.operation)}  ${money(copy.amountMinor, copy.currency)}  ${card || 'no card'}  queued ${age(now.getTime() - copy.queuedAt)} ago  sale ${copy.saleId}`,
    )
  if (items.length > 0) out.push(`totals: ${totalsWords(items.map(({ copy }) => copy))}`)
  if (refused.length > 0) {
    out.push(`${counted(refused.length, 'copy', 'copies')} refused (not sent; left at the store untouched):`)
    for (const line of refused) out.push(`  ${noun(line.operation) || 'message'} ${line.messageId}: ${line.bankSaid}`)
  }
  if (withdrawn > 0) out.push(`${counted(withdrawn, 'message')} withdrawn by the terminal (voided): not sent`)
  return out.join('\n')
}

function listedWords(items: RescueItem[], refused: number): string {
  return `${counted(items.length, 'message')} to send${items.length ? ` (${totalsWords(items.map(({ copy }) => copy))})` : ''}, ${counted(refused, 'copy', 'copies')} refused`
}

function resultWords(report: RescueReport): string {
  const sent = report.lines.filter((line) => line.result === 'approved' || line.result === 'declined')
  const by = new Map<string, number>()
  for (const line of report.lines) by.set(line.result, (by.get(line.result) ?? 0) + 1)
  const answers = [...by].map(([result, n]) => `${n} ${result}`).join(', ')
  return `sent ${sent.length ? totalsWords(sent) : 'nothing'}; ${answers || 'nothing at the store'}; ${report.left} left for another run`
}

function summaryWords(report: RescueReport, file: string): string {
  const what = report.lines.map(
    (l) =>
      `  ${l.saleId || l.messageId} ${noun(l.operation)} ${money(l.amountMinor, l.currency)}: ${l.bankSaid}${l.authCode ? ` (${l.authCode})` : ''}`,
  )
  return [
    `terminal ${report.terminalId} of store ${report.storeId} is fenced since ${report.fence.rescuedAt} (by ${report.fence.by}): it no longer sends its queue`,
    report.lines.length === 0 ? 'nothing was left to send' : `${counted(report.lines.length, 'message')}:`,
    ...what,
    resultWords(report),
    report.left === 0
      ? 'nothing is left at the store for this terminal to send'
      : `${counted(report.left, 'message')} ${agreeing(report.left, 'is', 'are')} still waiting: run the rescue again once the bank answers`,
    report.refusedCopies === 0
      ? ''
      : `${counted(report.refusedCopies, 'copy', 'copies')} ${agreeing(report.refusedCopies, 'was', 'were')} refused and left at the store: see the report, and find out who put ${agreeing(report.refusedCopies, 'it', 'them')} there`,
    `report: ${file}`,
  ]
    .filter((line) => line !== '')
    .join('\n')
}

/** The report as CSV for the merchant's books: one line per item, the card masked as on a receipt. */
export function rescueCsv(report: RescueReport): string {
  const head = 'sale,what,message,amount_minor,currency,card,queued_at,result,bank_said,auth_code'
  const rows = report.lines.map((l) =>
    [l.saleId, l.operation, l.messageId, l.amountMinor, l.currency, l.card, l.queuedAt, l.result, l.bankSaid, l.authCode]
      .map(csvCell)
      .join(','),
  )
  return `${[head, ...rows].join('\n')}\n`
}

/** The report into an owner-only folder, as an owner-only file. */
function writeReport(input: RescueRunInput, report: RescueReport): string {
  const made = !existsSync(input.reportDir)
  mkdirSync(input.reportDir, { recursive: true, mode: 0o700 })
  if (made || input.reportDirIsDefault) chmodSync(input.reportDir, 0o700)
  const file = join(input.reportDir, `rescue-${report.terminalId}-${report.endedAt.replace(/[:.]/g, '-')}.csv`)
  writeFileSync(file, rescueCsv(report), { flag: 'wx', mode: 0o600 })
  return file
}
