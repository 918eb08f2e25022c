/**
 * Copying the WAL back into the journal file beside the counter, on a connection of its own in a
 * worker thread, so the WAL stays short and is written over from its start instead of growing.
 *
 * Why it matters to a sale: each sale waits for two WAL syncs (before the host is called, and its
 * outcome). A commit that grows the WAL changes the file's size, so its `fdatasync` also commits
 * the filesystem's metadata; a commit written over frames already in place syncs the data alone. On
 * the reference machine that is about 0.2 ms against 0.09 ms per sync at p50, and the growing sync's
 * tail is several times longer (docs/performance.md, "Checkpoints"). SQLite restarts the WAL from its
 * start once every frame has been copied back and no reader needs the old ones
 * (https://sqlite.org/wal.html, "Checkpointing"), which a PASSIVE checkpoint soon after each burst
 * of commits brings about.
 *
 * A PASSIVE checkpoint never waits for, nor blocks, the writer or a reader
 * (https://sqlite.org/pragma.html#pragma_wal_checkpoint), so the counter's connection never meets a
 * busy journal because of it; only copying and syncing run here, off the event loop. Durability is
 * unchanged: every commit is on disk in the WAL before it returns, and a checkpoint syncs the WAL
 * before copying and the journal file after (https://sqlite.org/pragma.html#pragma_synchronous).
 *
 * Signalling is a shared counter: the writer bumps it after activity (no message, no allocation),
 * the worker sleeps on it with `Atomics.wait` and checkpoints a moment after it moves.
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * Slots of the shared signal: activity count, stop, whether the worker sleeps on the count, and the
 * checkpoints it has finished.
 */
const ACTIVITY = 0
const STOP = 1
const ASLEEP = 2
const CHECKPOINTS = 3

/**
 * The worker's code, evaluated (like the integrity check's): it loads better-sqlite3 from the path
 * the agent resolved, the same copy also inside a packaged app. After a signal it waits `settleMs`
 * so a burst of commits is copied back in one checkpoint.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const signal = new Int32Array(workerData.signal)
let db
try {
  db = new Database(workerData.file, { fileMustExist: true, timeout: 0 })
} catch (error) {
  parentPort.postMessage({ failed: String(error && error.message) })
  process.exit(0)
}
// The checkpoint's syncs as the writer's own (database.ts): on macOS a plain fsync leaves the
// drive's cache unflushed, and a WAL started over must only overwrite frames that are in the file.
db.pragma('synchronous = FULL')
db.pragma('fullfsync = ON')
db.pragma('checkpoint_fullfsync = ON')
// From zero, not from the count at start: activity noted before this thread ran is still copied.
let seen = 0
let lastSaid = Number.NEGATIVE_INFINITY
try {
  while (Atomics.load(signal, 1) === 0) {
    Atomics.store(signal, 2, 1)
    Atomics.wait(signal, 0, seen)
    Atomics.store(signal, 2, 0)
    if (Atomics.load(signal, 1) !== 0) break
    Atomics.wait(signal, 1, 0, workerData.settleMs)
    if (Atomics.load(signal, 1) !== 0) break
    seen = Atomics.load(signal, 0)
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)')
      if (result && result.busy === 0) Atomics.add(signal, 3, 1)
    } catch (error) {
      // A busy or failing disk: the writer's own commits report it to the sale; tried again next time,
      // and said once a minute at most for the log.
      if (performance.now() - lastSaid >= 60000) {
        lastSaid = performance.now()
        parentPort.postMessage({ failed: String(error && error.message) })
      }
    }
  }
} finally {
  db.close()
}
`

/**
 * A checkpoint must finish between two commits for SQLite to start the WAL over: one soon after each
 * burst (a few frames to copy) does, while one that waits for a long quiet time never does on a busy
 * counter. 5 ms measured best (a sale's own time p99 2.7 ms, against 4.2 ms with no checkpoint aside);
 * with no wait at all, the journal file's sync ran into the sale's next commit (docs/performance.md).
 */
const SETTLE_MS = 5

export interface WalBackfillOptions {
  /** Quiet time after a signal before the checkpoint, so a burst of commits goes back in one. */
  settleMs?: number
  /** Told why the copy failed (the worker could not open the journal, a checkpoint failed), for the log. */
  onError?: (message: string) => void
}

export class WalBackfill {
  private readonly signal = new Int32Array(new SharedArrayBuffer(16))
  private readonly worker: Worker
  private readonly exited: Promise<void>

  constructor(file: string, options: WalBackfillOptions = {}) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file, signal: this.signal.buffer, settleMs: options.settleMs ?? SETTLE_MS },
    })
    // Never keeps the agent alive on its own; a worker that fails leaves the WAL to the idle checkpoints.
    this.worker.unref()
    this.worker.on('message', (message: { failed?: string }) => {
      if (message.failed !== undefined) options.onError?.(message.failed)
    })
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', () => resolve())
      this.worker.once('error', (error: unknown) => {
        options.onError?.(error instanceof Error ? error.message : 'the copy stopped')
        resolve()
      })
    })
  }

  /** Checkpoints the worker has finished (the status of the copy, for diagnostics and tests). */
  get checkpointsDone(): number {
    return Atomics.load(this.signal, CHECKPOINTS)
  }

  /**
   * Something was committed: copy it back soon. Woken only when asleep (a wake is a system call, and
   * a sale makes several changes): a worker about to sleep sees the count moved and does not sleep.
   */
  noteActivity(): void {
    Atomics.add(this.signal, ACTIVITY, 1)
    if (Atomics.load(this.signal, ASLEEP) === 1) Atomics.notify(this.signal, ACTIVITY)
  }

  /** Stops after the checkpoint in progress, if any; resolves once the worker's connection is closed. */
  async stop(): Promise<void> {
    Atomics.store(this.signal, STOP, 1)
    // The count moves too: a worker between its look at STOP and its wait does not sleep on.
    Atomics.add(this.signal, ACTIVITY, 1)
    Atomics.notify(this.signal, ACTIVITY)
    Atomics.notify(this.signal, STOP)
    // Held until it has exited: a close awaited at the end of a program must not find the loop empty.
    this.worker.ref()
    await this.exited
  }
}
