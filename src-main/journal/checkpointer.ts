/**
 * WAL checkpoints off the sale's path. SQLite's automatic checkpoint runs inside whichever commit
 * crosses the threshold, which put 10–15 ms into the p99 of a sale (bench:engine); here checkpoints
 * run when the counter has been idle for a moment, or when the WAL grows past a safety limit.
 * Durability is unchanged: with synchronous=FULL every commit is on disk in the WAL already.
 *
 * After a purge the checkpoint truncates the WAL (`wal_checkpoint(TRUNCATE)`): older WAL frames still
 * hold the pages as they were before the purge, a destroyed sale key among them (sale-keys.ts), and a
 * passive checkpoint leaves them in the file until they happen to be overwritten. It waits for the
 * counter to be idle like any checkpoint, but no longer than `maxEraseDelayMs`, so a terminal that is
 * never idle still gets rid of them.
 *
 * Between idle moments, `backfillAside` copies the WAL back on a worker thread soon after each burst
 * of activity (wal-backfill.ts), so a busy counter's WAL is written over in place instead of growing:
 * a commit's sync is then cheaper and steadier.
 */
import { statSync } from 'node:fs'
import type Database from 'better-sqlite3'
import { WalBackfill } from './wal-backfill'

/** A WAL file larger than this is truncated at the next idle checkpoint. */
const TRUNCATE_ABOVE_BYTES = 16 * 1024 * 1024

export interface CheckpointerOptions {
  /** Quiet time after the last activity before a checkpoint. */
  idleMs?: number
  /** WAL size that forces a checkpoint even while busy. */
  maxWalBytes?: number
  /** How long a purge may wait for an idle moment before its truncating checkpoint runs anyway. */
  maxEraseDelayMs?: number
  pollMs?: number
  /** Copy the WAL back on a worker thread soon after activity (the agent's journal; off in unit harnesses). */
  backfillAside?: boolean
  /** Why the copy aside failed, for the log (the idle checkpoints go on regardless). */
  onBackfillError?: (message: string) => void
}

export class JournalCheckpointer {
  private lastActivity = Number.NEGATIVE_INFINITY
  private readonly timer: NodeJS.Timeout
  private dirty = false
  /** When the oldest purge not yet truncated out of the WAL happened; undefined when there is none. */
  private erasedAt: number | undefined
  /** Started at the first activity (a start, or an agent that never sells, costs no thread). */
  private backfill: WalBackfill | undefined
  private backfillWanted: boolean

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly options: CheckpointerOptions = {},
  ) {
    db.pragma('wal_autocheckpoint = 0')
    // A WAL left by an earlier run may hold purged pages too: truncate it at the first idle moment.
    this.noteErase()
    this.backfillWanted = options.backfillAside === true
    this.timer = setInterval(() => this.tick(), options.pollMs ?? 500)
    this.timer.unref()
  }

  /** Something was written. */
  noteActivity(): void {
    this.lastActivity = performance.now()
    this.dirty = true
    if (this.backfillWanted)
      this.backfill ??= new WalBackfill(this.file, { ...(this.options.onBackfillError ? { onError: this.options.onBackfillError } : {}) })
    this.backfill?.noteActivity()
  }

  /** Sealed data was deleted or a sale's key destroyed: the next checkpoint truncates the WAL. */
  noteErase(): void {
    this.erasedAt ??= performance.now()
    this.dirty = true
  }

  /**
   * `idle`: the counter is quiet, so a WAL file a burst grew past TRUNCATE_ABOVE_BYTES is truncated
   * too, giving its space back to the disk (a passive checkpoint starts the WAL over in place but
   * leaves the file as large as the burst made it).
   */
  checkpoint(idle = false): void {
    if (!this.db.open) return
    if (this.erasedAt !== undefined) {
      if (this.truncate()) this.erasedAt = undefined
    } else if (idle && this.walBytes() > TRUNCATE_ABOVE_BYTES) {
      this.truncate()
    } else {
      this.db.pragma('wal_checkpoint(PASSIVE)')
    }
    // One taken while busy (the WAL past its limit) leaves the idle one to come: it may truncate.
    this.dirty = this.erasedAt !== undefined || !idle
  }

  stop(): void {
    clearInterval(this.timer)
    if (this.db.open) this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  /** Stops the copying aside (a journal found damaged is left as it stands); idle checkpoints go on. */
  async stopBackfill(): Promise<void> {
    const backfill = this.backfill
    this.backfillWanted = false
    this.backfill = undefined
    await backfill?.stop()
  }

  /** The agent's close: the worker's connection first, then the last truncation, as `stop`. */
  async close(): Promise<void> {
    await this.stopBackfill()
    this.stop()
  }

  private tick(): void {
    if (!this.dirty) return
    const now = performance.now()
    const idle = now - this.lastActivity >= (this.options.idleMs ?? 1_500)
    const eraseOverdue = this.erasedAt !== undefined && now - this.erasedAt >= (this.options.maxEraseDelayMs ?? 60_000)
    if (!idle && !eraseOverdue && this.walBytes() <= (this.options.maxWalBytes ?? 64 * 1024 * 1024)) return
    try {
      this.checkpoint(idle)
    } catch {
      // A timer has no caller to tell: the next commit meets the same disk and reports it to the sale;
      // the checkpoint is tried again at the next tick.
    }
  }

  /**
   * TRUNCATE waits for readers through the busy handler; a reader elsewhere (`pos-agent doctor`) must
   * not hold up the agent, so the wait is switched off and a blocked truncation is tried again later.
   * https://sqlite.org/pragma.html#pragma_wal_checkpoint
   */
  private truncate(): boolean {
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number
    this.db.pragma('busy_timeout = 0')
    try {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>
      return result?.busy === 0
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`)
    }
  }

  private walBytes(): number {
    try {
      return statSync(`${this.file}-wal`).size
    } catch {
      return 0
    }
  }
}
