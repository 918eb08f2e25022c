/**
 * WAL checkpoints off the sale's path. SQLite's automatic checkpoint runs inside whichever commit
 * crosses the threshold, which put 10–15 ms into the p99 of a sale (bench:engine); here checkpoints
 * run when the counter has been idle for a moment, or when the WAL grows past a safety limit.
 * Durability is unchanged: with synchronous=FULL every commit is on disk in the WAL already.
 */
import { statSync } from 'node:fs'
import type Database from 'better-sqlite3'

export interface CheckpointerOptions {
  /** Quiet time after the last activity before a checkpoint. */
  idleMs?: number
  /** WAL size that forces a checkpoint even while busy. */
  maxWalBytes?: number
  pollMs?: number
}

export class JournalCheckpointer {
  private lastActivity = 0
  private readonly timer: NodeJS.Timeout
  private dirty = false

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly options: CheckpointerOptions = {},
  ) {
    db.pragma('wal_autocheckpoint = 0')
    this.timer = setInterval(() => this.tick(), options.pollMs ?? 500)
    this.timer.unref()
  }

  /** Something was written. */
  noteActivity(): void {
    this.lastActivity = Date.now()
    this.dirty = true
  }

  checkpoint(): void {
    if (!this.db.open) return
    this.db.pragma('wal_checkpoint(PASSIVE)')
    this.dirty = false
  }

  stop(): void {
    clearInterval(this.timer)
    if (this.db.open) this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  private tick(): void {
    if (!this.dirty) return
    const idle = Date.now() - this.lastActivity >= (this.options.idleMs ?? 1_500)
    if (idle || this.walBytes() > (this.options.maxWalBytes ?? 64 * 1024 * 1024)) this.checkpoint()
  }

  private walBytes(): number {
    try {
      return statSync(`${this.file}-wal`).size
    } catch {
      return 0
    }
  }
}
