/**
 * The idle checkpoint gives a burst's WAL space back to the disk: a passive checkpoint starts the
 * WAL over in place but leaves the file as large as the burst made it.
 */
import { statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { JournalCheckpointer } from '../../../src-main/journal/checkpointer'
import { openJournalDatabase } from '../../../src-main/journal/database'
import { useTempJournals, MIGRATIONS } from './journal-harness'
import { trackCheckpointer } from './store-harness'

const MB = 1024 * 1024

describe('the idle checkpoint and a WAL file a burst grew', () => {
  const temp = useTempJournals()

  async function afterBurst(
    megabytes: number,
    options: { idleMs?: number; maxWalBytes?: number } = {},
  ): Promise<{ walBefore: number; wal: () => number }> {
    const file = temp.path()
    const db = temp.track(openJournalDatabase(file, { migrations: MIGRATIONS }))
    const checkpointer = trackCheckpointer(new JournalCheckpointer(db, file, { pollMs: 10, idleMs: 100, ...options }))
    const wal = () => statSync(`${file}-wal`).size
    // The truncation every start asks for, done first, so what follows is the burst's alone.
    db.exec('CREATE TABLE burst (b BLOB)')
    checkpointer.noteActivity()
    await expect.poll(wal, { timeout: 3_000 }).toBe(0)
    const insert = db.prepare('INSERT INTO burst (b) VALUES (randomblob(?))')
    db.transaction(() => {
      for (let i = 0; i < megabytes; i++) insert.run(MB)
    })()
    checkpointer.noteActivity()
    return { walBefore: wal(), wal }
  }

  it('past 16 MB, the file is truncated once the counter is idle', async () => {
    const { walBefore, wal } = await afterBurst(20)
    expect(walBefore).toBeGreaterThan(20 * MB)
    await expect.poll(wal, { timeout: 3_000 }).toBe(0)
  })

  it('also after a checkpoint the WAL limit forced while the counter was busy', async () => {
    // Ticks every 10 ms see the WAL past 8 MB for 300 ms before the counter counts as idle.
    const { walBefore, wal } = await afterBurst(20, { idleMs: 300, maxWalBytes: 8 * MB })
    expect(walBefore).toBeGreaterThan(20 * MB)
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(wal()).toBe(walBefore)
    await expect.poll(wal, { timeout: 3_000 }).toBe(0)
  })

  it('under it, the file is kept and written over in place', async () => {
    const { walBefore, wal } = await afterBurst(4)
    expect(walBefore).toBeGreaterThan(4 * MB)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(wal()).toBe(walBefore)
  })
})
