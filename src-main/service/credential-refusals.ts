/**
 * Credentials that opened nothing, in the audit trail (docs/local-api.md "The audit trail"): a wrong
 * or revoked token at the local API or nexo, a session cookie that is no live window's, a launch link
 * that opened no window. Any program on the machine can send these as fast as a socket allows, so
 * the trail is told the first of each kind in a minute at once and, when the minute is over, how many
 * more came in it, in one record: a flood costs at most two records a minute per kind, and none of it
 * goes unseen.
 */
import type { AuditEntry } from '../journal'
import type { Caller } from './caller'

/** What was shown: a token, a window's session cookie, a launch link. */
export type RefusedCredential = 'token' | 'session' | 'launch' | 'launchFull'

const ACTIONS: Record<RefusedCredential, string> = {
  token: 'tokenRefused',
  session: 'sessionRefused',
  launch: 'launchRefused',
  launchFull: 'launchRefused',
}

const WORDS: Record<RefusedCredential, string> = {
  token: 'a wrong or revoked token',
  session: 'a session of no open window (ended, or never opened)',
  launch: 'a launch link unknown, used or expired',
  launchFull: 'a launch link whose opener has every window it may keep in use',
}

/** How long one count runs: a minute. */
export const REFUSAL_COUNT_MS = 60_000

interface Count {
  door: Caller['door']
  kind: RefusedCredential
  since: number
  more: number
  timer: NodeJS.Timeout
}

export class CredentialRefusals {
  private readonly counts = new Map<string, Count>()

  constructor(
    private readonly append: (entry: AuditEntry) => void,
    private readonly now: () => number,
    private readonly countMs = REFUSAL_COUNT_MS,
  ) {}

  /** `door` was shown a `kind` that opens nothing. */
  refused(door: Caller['door'], kind: RefusedCredential): void {
    const key = `${door} ${kind}`
    const open = this.counts.get(key)
    if (open) {
      open.more++
      return
    }
    this.append({ action: ACTIONS[kind], door, ok: false, detail: WORDS[kind] })
    const timer = setTimeout(() => this.settle(key), this.countMs)
    timer.unref()
    this.counts.set(key, { door, kind, since: this.now(), more: 0, timer })
  }

  /** Writes every count still running (the agent stops). */
  close(): void {
    for (const key of [...this.counts.keys()]) this.settle(key)
  }

  private settle(key: string): void {
    const count = this.counts.get(key)
    if (!count) return
    this.counts.delete(key)
    clearTimeout(count.timer)
    if (count.more === 0) return
    const since = new Date(count.since).toISOString()
    this.append({
      action: ACTIONS[count.kind],
      door: count.door,
      ok: false,
      detail: `${count.more} more of ${WORDS[count.kind]} in the minute from ${since}`,
    })
  }
}
