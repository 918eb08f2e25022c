/**
 * The real journal (schema, store, checkpointer) on a real SQLite file, the data key in a memory
 * secret store, and the few helpers the purge and id tests share.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach } from 'vitest'
import { JournalCheckpointer } from '../../../src-main/journal/checkpointer'
import { openJournalDatabase } from '../../../src-main/journal/database'
import { JournalStore, type NewSale, type SaleRecord } from '../../../src-main/journal/journal-store'
import { JOURNAL_MIGRATIONS } from '../../../src-main/journal/schema'
import { FieldSealer } from '../../../src-main/journal/sealed-fields'
import { openIdEpoch } from '../../../src-main/journal/transaction-ids'
import { MemorySecretStore, type SecretStore } from '../../../src-main/keychain'
import type { TempJournals } from './journal-harness'

export const TERMINAL = 'T1'
export const PAN = '4761739001010119'
export const TRACK2 = `${PAN}=29122011000012345678`

export const NEW_SALE: NewSale = {
  state: 'readingCard',
  businessDay: '2026-11-21',
  transTime: '2026-11-21T10:00:00+01:00',
  amountMinor: 4500,
  currency: 'USD',
  autoCapture: true,
}

export interface OpenedJournal {
  db: Database.Database
  sealer: FieldSealer
  store: JournalStore
  checkpointer: JournalCheckpointer
  /** Closes like the agent does: the checkpointer truncates the WAL, then the connection closes. */
  close(): void
}

/** The journal as compose.ts opens it: epoch from the keychain, purges reported to the checkpointer. */
export async function openJournal(
  temp: TempJournals,
  file: string,
  secrets: SecretStore = new MemorySecretStore(),
): Promise<OpenedJournal> {
  const db = temp.track(openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS }))
  // Polling far apart: the tests call checkpoint() themselves.
  const checkpointer = trackCheckpointer(new JournalCheckpointer(db, file, { pollMs: 60_000 }))
  const sealer = await FieldSealer.open(secrets, TERMINAL, { create: true })
  const idEpoch = await openIdEpoch(db, secrets, TERMINAL, () => Date.now())
  const store = new JournalStore(db, sealer, { idEpoch, onErase: () => checkpointer.noteErase() })
  return {
    db,
    sealer,
    store,
    checkpointer,
    close() {
      checkpointer.stop()
      db.close()
    },
  }
}

const checkpointers: JournalCheckpointer[] = []
afterEach(() => {
  for (const c of checkpointers.splice(0)) c.stop()
})

/** Stopped after the test (its timer is cleared; the connection is closed by the temp folder). */
export function trackCheckpointer(checkpointer: JournalCheckpointer): JournalCheckpointer {
  checkpointers.push(checkpointer)
  return checkpointer
}

/** A sale with its card read and sealed, as the engine journals `cardRead`. */
export function saleWithCard(store: JournalStore, card: unknown = { track2: TRACK2, pan: PAN }): SaleRecord {
  const created = store.createSale(TERMINAL, NEW_SALE)
  return store.apply({
    event: { type: 'cardRead' },
    next: { ...created, state: 'sending', chip: true },
    expectedState: 'readingCard',
    sealCard: { purpose: 'purchase', data: card },
  })
}

/** The journal's files (database, -wal, -shm) that exist, as raw bytes. */
export function journalFiles(file: string): Array<{ name: string; bytes: Buffer }> {
  return readdirSync(dirname(file))
    .filter((name) => name.startsWith(basename(file)))
    .map((name) => ({ name, bytes: readFileSync(join(dirname(file), name)) }))
}

/** Which of the journal's files hold `needle` anywhere. */
export function filesHolding(file: string, needle: Buffer | string): string[] {
  const bytes = typeof needle === 'string' ? Buffer.from(needle, 'latin1') : needle
  return journalFiles(file)
    .filter((f) => f.bytes.includes(bytes))
    .map((f) => f.name)
}
