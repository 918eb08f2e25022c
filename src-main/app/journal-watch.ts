/**
 * The checks the journal gets while the terminal runs, off the sale's path: the audit trail read
 * against its key and its head (journal/audit-store.ts) at start and then at idle, and SQLite's
 * integrity_check, indexes included, at idle on a worker (journal/journal-integrity.ts). "Idle":
 * nothing written for `idleMs`; each runs again at most every `everyMs`. A check that finds nothing
 * wrong costs the counter nothing it would notice; what a check finds is the caller's to raise.
 */
export interface JournalWatchOptions {
  /** Quiet time after the last activity before a check (60 s unless set). */
  idleMs?: number
  /** The least time between two checks of the same kind (an hour unless set). */
  everyMs?: number
  pollMs?: number
}

export interface JournalChecks {
  /** The audit trail's check (the event loop turns during it). */
  audit(): Promise<void>
  /** The journal file's full check, on a worker; `cancel` stops it at close. */
  journal(): { done: Promise<void>; cancel(): Promise<void> }
}

export class JournalWatch {
  private lastActivity = performance.now()
  private lastAudit = 0
  private lastJournal = Number.NEGATIVE_INFINITY
  private running: Promise<void> | undefined
  private journalCheck: { done: Promise<void>; cancel(): Promise<void> } | undefined
  private closed = false
  private readonly timer: NodeJS.Timeout
  /** Settles once the check at start has run (its verdict raised or not). */
  readonly checkedAtStart: Promise<void>

  constructor(
    private readonly checks: JournalChecks,
    private readonly onError: (error: unknown) => void,
    private readonly options: JournalWatchOptions = {},
  ) {
    this.timer = setInterval(() => this.tick(), options.pollMs ?? 1_000)
    this.timer.unref()
    // At start: the trail as this run found it, before anything is added to it.
    this.lastAudit = performance.now()
    this.checkedAtStart = this.run(() => this.checks.audit())
  }

  /** Something was written: the idle time starts again. */
  noteActivity(): void {
    this.lastActivity = performance.now()
  }

  /** The journal's full check as soon as the one running (if any) ends: something found it may be damaged. */
  checkJournalSoon(): void {
    this.lastJournal = Number.NEGATIVE_INFINITY
    this.lastActivity = Number.NEGATIVE_INFINITY
  }

  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.timer)
    await this.journalCheck?.cancel()
    await this.running?.catch(() => undefined)
  }

  private tick(): void {
    const now = performance.now()
    if (this.running || this.closed || now - this.lastActivity < (this.options.idleMs ?? 60_000)) return
    const every = this.options.everyMs ?? 3_600_000
    if (now - this.lastAudit >= every) {
      this.lastAudit = now
      // run() catches its own failure (onError) and close() waits for it through `running`.
      void this.run(() => this.checks.audit())
    } else if (now - this.lastJournal >= every) {
      this.lastJournal = now
      void this.run(async () => {
        this.journalCheck = this.checks.journal()
        try {
          await this.journalCheck.done
        } finally {
          this.journalCheck = undefined
        }
      })
    }
  }

  private run(check: () => Promise<void>): Promise<void> {
    const running = check()
      .catch((error: unknown) => {
        if (!this.closed) this.onError(error)
      })
      .finally(() => {
        this.running = undefined
      })
    this.running = running
    return running
  }
}
