/**
 * First-run setup composed over the data folder's journal (`pos-agent setup`): the owner's service
 * the page calls as the `setup` door (the signing key, the operators, a manager's approval) and the
 * audit trail, written by the service's one writer. The journal is made here when it does not exist
 * yet; `close` waits for the last audit record and its head in the keychain, then closes the journal.
 */
import { join } from 'node:path'
import { JOURNAL_FILE, JOURNAL_MIGRATIONS, OperatorStore, openJournalDatabase } from '../journal'
import type { SecretStore } from '../keychain'
import { Operators } from '../operators'
import { OwnerService, SETUP } from '../service'
import { FirstRunSetup, type FirstRunSetupDeps } from '../setup'
import { auditTrailOnDemand } from './audit-outside'

export async function composeFirstRunSetup(
  options: Omit<FirstRunSetupDeps, 'service' | 'audit' | 'reopenSecrets'> & {
    dataDir: string
    reopenSecrets: () => ReturnType<NonNullable<FirstRunSetupDeps['reopenSecrets']>>
  },
): Promise<{ setup: FirstRunSetup; close(): Promise<void> }> {
  const { dataDir, logger, ...deps } = options
  const journalFile = join(dataDir, JOURNAL_FILE)
  const db = openJournalDatabase(journalFile, { migrations: JOURNAL_MIGRATIONS })
  const audit = auditTrailOnDemand(db, journalFile, options.reopenSecrets, (error) =>
    logger.error({ err: error }, 'could not write the audit trail'),
  )
  // Opened now when the keychain works, so that each record is in the journal when setup answers.
  if (deps.secrets.kind === 'os-keychain') await audit.open()
  // One operator table for the page; a service for the keychain it stores the key in (the page asks
  // the keychain again once its fix is applied) and the acquirer id the form names.
  const operators = new Operators(new OperatorStore(db))
  const services = new Map<SecretStore, Map<string | undefined, OwnerService>>()
  const service = (secrets: SecretStore, aid?: string) => {
    const byAid = services.get(secrets) ?? new Map<string | undefined, OwnerService>()
    services.set(secrets, byAid)
    const found = byAid.get(aid) ?? new OwnerService({ secrets, aid, operators, audit: audit.trail })
    byAid.set(aid, found)
    return found
  }
  const setup = new FirstRunSetup({
    ...deps,
    logger,
    service,
    audit: { record: (entry) => audit.trail.record(SETUP, entry) },
  })
  return {
    setup,
    async close() {
      await audit.flush()
      db.close()
    },
  }
}
