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
 * The trail of a journal a command keeps open (first-run setup): opened at its first record, with
 * the keychain as it stands then (setup may start before the keychain works), records written in
 * order; `flush` waits for the last one and its head in the keychain.
 */
export function auditTrailOnDemand(
  db: Parameters<typeof openAuditTrail>[0],
  file: string,
  secrets: () => Promise<SecretStore>,
  onError: (error: unknown) => void,
): { append(entry: AuditEntry): void; flush(): Promise<void> } {
  let trail: ReturnType<typeof openAuditTrail> | undefined
  let last: Promise<unknown> = Promise.resolve()
  return {
    append(entry) {
      last = last
        .then(async () => {
          trail ??= secrets().then((store) => openAuditTrail(db, store, file, onError))
          ;(await trail).store.append(entry)
        })
        .catch(onError)
    },
    async flush() {
      await last
      await (await trail)?.anchor.flush()
    },
  }
}
