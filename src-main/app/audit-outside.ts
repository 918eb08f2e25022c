/**
 * The owner's doors outside the running agent, composed over the journal's own file: the command
 * line's service (`withOwnerService`: `pos-agent key set` is the service's `setSigningKey`,
 * `operators unlock` its `unlockOperator`, called as the `cli` door), the command line's other audit
 * records (`auditFromCommandLine`: the store's commands) and the setup page's trail
 * (`auditTrailOnDemand`, shared by its service and its own records). Every record goes through
 * the service's AuditTrail, the trail's one writer: sealed under the trail's key from the keychain,
 * with its head kept there (journal/audit-seal.ts), in a commit of its own (SQLite's WAL lets a
 * running agent go on). A data folder with no journal yet has no trail to append to: there is nothing of this
 * terminal to audit before its first start.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { JOURNAL_FILE, JOURNAL_MIGRATIONS, OperatorStore, openAuditTrail, openJournalDatabase, type AuditEntry } from '../journal'
import type { SecretStore } from '../keychain'
import type { Clock } from '../../src-shared/clock'
import { Operators } from '../operators'
import { AuditTrail, CLI, OwnerService } from '../service'

/** A record of the command line's own, written by the trail's one writer; a failure to write fails the command. */
type OwnerEntry = Omit<AuditEntry, 'door' | 'via'>

const failCommand = (error: unknown): never => {
  throw error
}

/**
 * Runs `body` with the owner's service over this data folder's journal (when it has one): its audit
 * trail and its operators; the trail's head is in the keychain before it returns. `aid`: the
 * configuration's acquirer id, for the signing key.
 */
export async function withOwnerService<T>(
  where: { secrets: SecretStore; dataDir: string; aid?: string | undefined; clock: Clock },
  body: (service: OwnerService) => Promise<T>,
): Promise<T> {
  const { secrets, dataDir, aid, clock } = where
  const file = join(dataDir, JOURNAL_FILE)
  if (!existsSync(file)) return body(new OwnerService({ secrets, aid, clock }))
  const db = openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS })
  try {
    const trail = await openAuditTrail(db, secrets, file)
    const audit = new AuditTrail(trail.store, failCommand)
    const operators = new Operators(new OperatorStore(db), () => clock.now())
    const result = await body(new OwnerService({ secrets, aid, operators, audit, clock }))
    await trail.anchor.flush()
    return result
  } finally {
    db.close()
  }
}

export async function auditFromCommandLine(secrets: SecretStore, dataDir: string, entry: OwnerEntry): Promise<boolean> {
  const file = join(dataDir, JOURNAL_FILE)
  if (!existsSync(file)) return false
  const db = openJournalDatabase(file, { migrations: JOURNAL_MIGRATIONS })
  try {
    const trail = await openAuditTrail(db, secrets, file)
    new AuditTrail(trail.store, failCommand).record(CLI, entry)
    await trail.anchor.flush()
    return true
  } finally {
    db.close()
  }
}

/**
 * The trail of a journal a door keeps open (first-run setup): opened with the keychain as it stands
 * (`open`, at the command's start when the keychain works; else at the first record, setup may start
 * before the keychain works), records written in order, at once when the trail is open; `flush`
 * waits for the last one and its head in the keychain. `trail` is the writer the owner's service and
 * the door's own records share.
 */
export function auditTrailOnDemand(
  db: Parameters<typeof openAuditTrail>[0],
  file: string,
  secrets: () => Promise<SecretStore>,
  onError: (error: unknown) => void,
): { open(): Promise<void>; trail: Pick<AuditTrail, 'record'>; flush(): Promise<void> } {
  let opening: Promise<{ trail: AuditTrail; anchor: Awaited<ReturnType<typeof openAuditTrail>>['anchor'] }> | undefined
  let opened: { trail: AuditTrail; anchor: Awaited<ReturnType<typeof openAuditTrail>>['anchor'] } | undefined
  let last: Promise<unknown> = Promise.resolve()
  const open = async () => {
    opening ??= secrets()
      .then((store) => openAuditTrail(db, store, file, onError))
      .then(({ store, anchor }) => ({ trail: new AuditTrail(store, onError), anchor }))
    opened = await opening
    return opened
  }
  return {
    open: async () => {
      await open()
    },
    trail: {
      record(caller, entry) {
        if (opened) {
          opened.trail.record(caller, entry)
          return
        }
        last = last.then(async () => (await open()).trail.record(caller, entry)).catch(onError)
      },
    },
    async flush() {
      await last
      await opened?.anchor.flush()
    },
  }
}
