import { spawnSync } from 'node:child_process'
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { openJournalDatabase, runInTransaction } from '../../../src-main/journal/database'
import { JournalCheckpointer } from '../../../src-main/journal/checkpointer'
import { WalBackfill } from '../../../src-main/journal/wal-backfill'
import { MIGRATIONS, useTempJournals } from './journal-harness'
import { eventually } from '../../support/engine-harness'

/** Commits that each append two 4 KiB pages or more, a short pause after each, as a busy counter does. */
async function busyCounter(db: ReturnType<typeof openJournalDatabase>, commits: number, noteActivity: () => void): Promise<number> {
  const insert = db.prepare('INSERT INTO sale (id, amount) VALUES (?, ?)')
  const first = db.prepare('SELECT count(*) FROM sale').pluck().get() as number
  for (let i = first; i < first + commits; i++) {
    runInTransaction(db, () => insert.run(`sale-${i}-${'x'.repeat(6_000)}`, i))
    noteActivity()
    await sleep(2)
  }
  return commits * 6_000
}

function walBytes(file: string): number {
  return existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0
}

describe('the WAL copied back aside, so a busy counter writes over it instead of growing it', () => {
  const temp = useTempJournals()

  it('after a burst the commits are copied back, and the next burst writes over the WAL instead of growing it', async () => {
    const file = temp.path()
    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    db.pragma('wal_autocheckpoint = 0')
    const backfill = new WalBackfill(file)
    try {
      const journalBefore = statSync(file).size
      const written = await busyCounter(db, 50, () => undefined)
      const afterFirst = walBytes(file)
      expect(afterFirst).toBeGreaterThan(written)
      // Told once, the worker alone copies the burst back: a checkpoint finishes, the journal file holds the pages.
      backfill.noteActivity()
      await eventually(() => (backfill.checkpointsDone >= 1 ? true : undefined), 10_000)
      expect(statSync(file).size).toBeGreaterThanOrEqual(journalBefore + written)
      // The same again is written from the WAL's start, over the first burst's frames (a few pages of
      // slack: the second burst's ids are a character longer).
      await busyCounter(db, 50, () => undefined)
      expect(walBytes(file)).toBeLessThan(afterFirst * 1.1)
      expect(db.prepare('SELECT count(*) FROM sale').pluck().get()).toBe(100)
    } finally {
      await backfill.stop()
    }
  }, 30_000)

  it('without it, the same two bursts grow the WAL to hold both', async () => {
    const file = temp.path()
    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    db.pragma('wal_autocheckpoint = 0')
    await busyCounter(db, 50, () => undefined)
    const afterFirst = walBytes(file)
    const written = await busyCounter(db, 50, () => undefined)
    expect(walBytes(file)).toBeGreaterThan(afterFirst + written)
  }, 30_000)

  it('copied-back commits are in the journal file: a reader of the file alone, WAL removed after close, finds them all', async () => {
    const file = temp.path()
    const db = openJournalDatabase(file, { migrations: MIGRATIONS })
    const checkpointer = new JournalCheckpointer(db, file, { backfillAside: true, pollMs: 60_000 })
    await busyCounter(db, 50, () => checkpointer.noteActivity())
    await checkpointer.close()
    db.close()
    expect(existsSync(`${file}-wal`)).toBe(false)
    const reopened = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    expect(reopened.prepare('SELECT count(*) FROM sale').pluck().get()).toBe(50)
  }, 30_000)

  it('activity noted before the worker thread has even started is copied back all the same', async () => {
    const file = temp.path()
    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    db.pragma('wal_autocheckpoint = 0')
    await busyCounter(db, 5, () => undefined)
    const backfill = new WalBackfill(file)
    try {
      backfill.noteActivity()
      await eventually(() => (backfill.checkpointsDone >= 1 ? true : undefined), 10_000)
    } finally {
      await backfill.stop()
    }
  }, 30_000)

  it('a worker that cannot open the journal says why, for the log, and stops', async () => {
    const said: string[] = []
    const backfill = new WalBackfill(temp.path('missing.sqlite'), { onError: (message) => said.push(message) })
    await eventually(() => (said.length > 0 ? true : undefined), 10_000)
    expect(said[0]).toMatch(/unable to open|does not exist|no such file/i)
    await backfill.stop()
    expect(backfill.checkpointsDone).toBe(0)
  }, 30_000)

  it('stops at once when asked, idle or not, and a stopped copy leaves further commits to the writer', async () => {
    const file = temp.path()
    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    db.pragma('wal_autocheckpoint = 0')
    // Resolving at all is the point: a worker asleep on its signal must wake to stop.
    await new WalBackfill(file).stop()
    const stopped = new WalBackfill(file)
    await stopped.stop()
    stopped.noteActivity()
    const before = walBytes(file)
    const written = await busyCounter(db, 30, () => stopped.noteActivity())
    expect(walBytes(file)).toBeGreaterThanOrEqual(before + written)
  }, 30_000)

  it('a program whose last step awaits the stop ends normally once the worker is gone (the worker never keeps it alive otherwise)', () => {
    const file = temp.path()
    temp.track(openJournalDatabase(file, { migrations: MIGRATIONS })).close()
    const script = temp.path('last-step.mts')
    const source = pathToFileURL(join(process.cwd(), 'src-main/journal/wal-backfill.ts')).href
    writeFileSync(
      script,
      `import { WalBackfill } from ${JSON.stringify(source)}\nconst backfill = new WalBackfill(${JSON.stringify(file)})\nbackfill.noteActivity()\nawait backfill.stop()\nconsole.log('stopped')\n`,
    )
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 20_000 })
    // 13 is Node's exit code for a top-level await left unsettled when the event loop ran empty.
    expect({ status: run.status, stdout: run.stdout.trim() }).toEqual({ status: 0, stdout: 'stopped' })
  }, 30_000)
})
