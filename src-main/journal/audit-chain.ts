/**
 * How the audit trail proves itself, record by record: the pure part of the chain (audit-store.ts
 * keeps the rows, audit-seal.ts the key and the head outside the file). Each record carries a seal,
 * HMAC-SHA256 under the trail's key over the seal of the record before and the record's own fields
 * (RFC 2104), so a record edited, removed, renumbered or slipped in, or a trail rewritten by anyone
 * without the key, no longer verifies; and the head (the last record's number and seal) is kept outside
 * the file, so a trail cut short, or rewritten from its end, no longer matches it.
 *
 * Records written before the trail had a key carry a plain SHA-256 chain. They stay as they were: the
 * first `auditSealed` record follows them and seals their last hash under the key, so none of them can
 * change afterwards either. A later `auditSealed` record starts a new key (the keychain lost the old
 * one, or training keeps its keys in memory): records sealed under a key the keychain no longer holds
 * cannot be proven any more, and say so.
 */
import { createHash, type KeyObject, createHmac } from 'node:crypto'

/** What the first record's `prev_hash` is. */
export const AUDIT_GENESIS = '0'.repeat(64)
/** The record that starts a key's part of the trail (written by the agent itself, door `agent`). */
export const AUDIT_SEALED_ACTION = 'auditSealed'
export const AUDIT_AGENT_DOOR = 'agent'

/** A record's fields as the chain covers them (the row without its links). */
export interface ChainFields {
  seq: number
  at: number
  action: string
  door: string
  via?: string | undefined
  actor?: string | undefined
  subject?: string | undefined
  ok: boolean
  detail?: string | undefined
}

export interface ChainRow extends ChainFields {
  prevHash: string
  hash: string
}

/** Where the trail had reached: a record's number and its seal (or, from a printed slip, the seal's first characters). */
export interface AuditHead {
  seq: number
  mac: string
}

/** A head kept outside the file, and where it was kept (for the words). */
export interface AuditAnchorHead extends AuditHead {
  /** e.g. "the keychain", "the Z-report" */
  keptIn: string
}

export type AuditProblemKind = 'edited' | 'deleted' | 'unsealed' | 'keyLost' | 'truncated' | 'anchor'

export interface AuditProblem {
  kind: AuditProblemKind
  /** The records it concerns (for `truncated`, the missing ones). */
  from: number
  to: number
  /** What it means, in a manager's words. */
  words: string
}

export interface AuditVerdict {
  /** Nothing edited, removed, cut off or out of step with a head kept outside the file. */
  intact: boolean
  /** Records in the trail. */
  records: number
  /** The last record. */
  head?: AuditHead | undefined
  /** What is wrong, in order (the first few of each kind). */
  problems: AuditProblem[]
  /** Records of earlier runs without an OS keychain (training): kept, but no longer provable. */
  unprovable?: { from: number; to: number; words: string } | undefined
}

/** The key a trail is sealed under; its id (the first 8 hex digits of its SHA-256) names it in the `auditSealed` records. */
export interface ChainKey {
  readonly keyId: string
  readonly key: KeyObject
}

function fieldsText(record: ChainFields): string {
  const fields: unknown[] = [record.seq, record.at, record.action, record.door, record.via ?? null, record.actor ?? null]
  fields.push(record.subject ?? null, record.ok, record.detail ?? null)
  return JSON.stringify(fields)
}

/** The seal of a record under `key`, following `previous`. */
export function sealOf(key: ChainKey, previous: string, record: ChainFields): string {
  return createHmac('sha256', key.key).update(previous).update('\n').update(fieldsText(record)).digest('hex')
}

/** The unkeyed hash records carried before the trail had a key. */
export function legacyHashOf(previous: string, record: ChainFields): string {
  return createHash('sha256').update(previous).update('\n').update(fieldsText(record)).digest('hex')
}

export function isSealRecord(record: Pick<ChainFields, 'action' | 'door'>): boolean {
  return record.action === AUDIT_SEALED_ACTION && record.door === AUDIT_AGENT_DOOR
}

/** Problems kept per kind: the first ones say where it breaks, the rest only repeat it. */
const MAX_PROBLEMS_PER_KIND = 5

/**
 * Reads a trail row by row, oldest first, and says whether it proves itself. `otherKeys`: records
 * sealed under a key other than `key` are a break (`keyLost`), or, for a trail kept without an OS
 * keychain (`'earlierRuns'`), records of earlier runs that can no longer be proven, said apart.
 */
export class ChainCheck {
  private previous = AUDIT_GENESIS
  private expected = 1
  private last: ChainRow | undefined
  private count = 0
  /** The key id of the part being read; undefined before the first `auditSealed` record (unkeyed records). */
  private segmentKey: string | undefined
  private sealed = false
  private readonly problems: AuditProblem[] = []
  private open: AuditProblem | undefined
  private unprovable: { from: number; to: number } | undefined
  private readonly anchorSeqs: Map<number, string>
  /** The seqs whose record does not check out, for a per-record column (only when asked). */
  readonly broken: Set<number> | undefined

  constructor(
    private readonly key: ChainKey,
    private readonly anchors: readonly AuditAnchorHead[] = [],
    private readonly otherKeys: 'broken' | 'earlierRuns' = 'broken',
    collectBroken = false,
  ) {
    this.anchorSeqs = new Map(anchors.map((a) => [a.seq, '']))
    this.broken = collectBroken ? new Set() : undefined
  }

  feed(row: ChainRow): void {
    this.count++
    if (row.seq > this.expected) this.add('deleted', this.expected, row.seq - 1)
    const gap = row.seq !== this.expected
    if (isSealRecord(row)) {
      this.segmentKey = row.subject ?? ''
      this.sealed = true
    }
    let sealOk: boolean
    if (this.segmentKey === undefined) sealOk = legacyHashOf(row.prevHash, row) === row.hash
    else if (this.segmentKey === this.key.keyId) sealOk = sealOf(this.key, row.prevHash, row) === row.hash
    else {
      // Sealed under a key this keychain does not hold: nothing can be said of it either way.
      if (this.otherKeys === 'earlierRuns') this.unprovable = { from: this.unprovable?.from ?? row.seq, to: row.seq }
      else this.add('keyLost', row.seq, row.seq)
      sealOk = true
    }
    // After a gap the record itself may be sound: the deletion is the problem, said once. A sound
    // record that does not follow from the one before means that one's hash was changed.
    if (!sealOk) this.add('edited', row.seq, row.seq)
    else if (!gap && row.prevHash !== this.previous) this.add('edited', row.seq - 1, row.seq - 1)
    if (this.anchorSeqs.has(row.seq)) this.anchorSeqs.set(row.seq, row.hash)
    this.previous = row.hash
    this.expected = row.seq + 1
    this.last = row
  }

  /** The verdict once every row was fed. */
  finish(): AuditVerdict {
    this.open = undefined
    const lastSeq = this.last?.seq ?? 0
    if (this.count > 0 && !this.sealed) this.add('unsealed', 1, lastSeq)
    for (const anchor of this.anchors) {
      if (anchor.seq > lastSeq) {
        this.add('truncated', lastSeq + 1, anchor.seq, anchor.keptIn)
        continue
      }
      const found = this.anchorSeqs.get(anchor.seq)
      // A slip carries the seal's first characters; the keychain the whole seal.
      if (anchor.seq > 0 && (found === undefined || found === '' || !found.startsWith(anchor.mac.toLowerCase())))
        this.add('anchor', anchor.seq, anchor.seq, anchor.keptIn)
    }
    const problems = this.problems.map((p) => ({ ...p, words: wordsOf(p) }))
    return {
      intact: problems.length === 0,
      records: this.count,
      head: this.last ? { seq: this.last.seq, mac: this.last.hash } : undefined,
      problems,
      ...(this.unprovable
        ? {
            unprovable: {
              ...this.unprovable,
              words: `${span(this.unprovable.from, this.unprovable.to)} kept in an earlier run without an OS keychain (training), whose key ended with that run: they cannot be proven`,
            },
          }
        : {}),
    }
  }

  private add(kind: AuditProblemKind, from: number, to: number, keptIn = ''): void {
    if (kind !== 'truncated') for (let seq = from; seq <= to && this.broken; seq++) this.broken.add(seq)
    // Records in a row that fail the same way are one problem: a rewrite, a run of deletions.
    const open = this.open
    if (open && open.kind === kind && open.to + 1 >= from && kind !== 'anchor' && kind !== 'truncated') {
      open.to = Math.max(open.to, to)
      return
    }
    if (this.problems.filter((p) => p.kind === kind).length >= MAX_PROBLEMS_PER_KIND) return
    const problem: AuditProblem = { kind, from, to, words: keptIn }
    this.problems.push(problem)
    this.open = problem
  }
}

function span(from: number, to: number): string {
  return from === to ? `record ${from}` : `records ${from} to ${to}`
}

function wordsOf(problem: AuditProblem): string {
  const { from, to } = problem
  const keptIn = problem.words
  switch (problem.kind) {
    case 'edited':
      return from === to
        ? `record ${from} was changed after it was written`
        : `records ${from} to ${to} were changed after they were written (rewritten without the trail's key)`
    case 'deleted':
      return from === to ? `record ${from} is missing: it was deleted` : `records ${from} to ${to} are missing: they were deleted`
    case 'unsealed':
      return `${span(from, to)} carry no seal of this trail's key: the trail was rewritten without it`
    case 'keyLost':
      return `${span(from, to)} were sealed under a key the keychain no longer holds: they cannot be proven`
    case 'truncated':
      return `the trail ends at record ${from - 1}, but ${keptIn} kept record ${to} as its last: ${from === to ? 'the last record was' : `the last ${to - from + 1} records were`} removed`
    case 'anchor':
      return `record ${from} is not the one ${keptIn} kept: the trail was rewritten`
  }
}
