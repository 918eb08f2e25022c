/**
 * The audit trail for what the machine's owner changes from the command line while the agent may be
 * running (`pos-agent key set`): appended to the journal's trail like any other record, sealed under
 * the trail's key from the keychain and with its head kept there (journal/audit-seal.ts), in a commit
 * of its own (SQLite's WAL lets the running agent go on). A data folder with no journal yet has no
 * trail to append to: there is nothing of this terminal to audit before its first start.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { JOURNAL_FILE, JOURNAL_MIGRATIONS, openAuditTrail, openJournalDatabase, type AuditEntry } from '../journal'
import type { SecretStore } from '../keychain'

export async function auditFromCommandLine(secrets: SecretStore, dataDir: string, entry: Omit<AuditEntry, 'door'>): Promise<boolean> {
  const file = join(dataDir, JOURNAL_FILE)
  if (!existsSync(file)) return false
  const db = openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS })
  try {
    const trail = await openAuditTrail(db, secrets, file)
    trail.store.append({ ...entry, door: 'cli' })
    await trail.anchor.flush()
    return true
  } finally {
    db.close()
  }
}

/**
 * The trail of a journal a command keeps open (first-run setup): opened with the keychain as it
 * stands (`open`, at the command's start when the keychain works; else at the first record, setup
 * may start before the keychain works), records written in order, at once when the trail is open;
 * `flush` waits for the last one and its head in the keychain.
 */
export function auditTrailOnDemand(
  db: Parameters<typeof openAuditTrail>[0],
  file: string,
  secrets: () => Promise<SecretStore>,
  onError: (error: unknown) => void,
): { open(): Promise<void>; append(entry: AuditEntry): void; flush(): Promise<void> } {
  let opening: ReturnType<typeof openAuditTrail> | undefined
  let opened: Awaited<ReturnType<typeof openAuditTrail>> | undefined
  let last: Promise<unknown> = Promise.resolve()
  const open = async () => {
    opening ??= secrets().then((store) => openAuditTrail(db, store, file, onError))
    opened = await opening
    return opened
  }
  return {
    open: async () => {
      await open()
    },
    append(entry) {
      if (opened) {
        opened.store.append(entry)
        return
      }
      last = last.then(async () => (await open()).store.append(entry)).catch(onError)
    },
    async flush() {
      await last
      await opened?.anchor.flush()
    },
  }
}
