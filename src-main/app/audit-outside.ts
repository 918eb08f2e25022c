/**
 * The audit trail for what the machine's owner changes from the command line while the agent may be
 * running (`pos-agent key set`): appended to the journal's trail like any other record, in a commit
 * of its own (SQLite's WAL lets the running agent go on). A data folder with no journal yet has no
 * trail to append to: there is nothing of this terminal to audit before its first start.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { AuditStore, JOURNAL_FILE, JOURNAL_MIGRATIONS, openJournalDatabase, type AuditEntry } from '../journal'

export function auditFromCommandLine(dataDir: string, entry: Omit<AuditEntry, 'door'>): boolean {
  const file = join(dataDir, JOURNAL_FILE)
  if (!existsSync(file)) return false
  const db = openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS })
  try {
    new AuditStore(db).append({ ...entry, door: 'cli' })
    return true
  } finally {
    db.close()
  }
}
