/**
 * First-run setup composed over the data folder's journal (`pos-agent setup`): its operators (the
 * first manager) and the audit trail, written by the service's one writer with setup as the door.
 * The journal is made here when it does not exist yet; `close` waits for the last audit record and
 * its head in the keychain, then closes the journal.
 */
import { join } from 'node:path'
import { JOURNAL_FILE, JOURNAL_MIGRATIONS, OperatorStore, openJournalDatabase } from '../journal'
import { Operators } from '../operators'
import { SETUP } from '../service'
import { FirstRunSetup, type FirstRunSetupDeps } from '../setup'
import { auditTrailOnDemand } from './audit-outside'

export async function composeFirstRunSetup(
  options: Omit<FirstRunSetupDeps, 'operators' | 'audit' | 'reopenSecrets'> & {
    dataDir: string
    reopenSecrets: () => ReturnType<NonNullable<FirstRunSetupDeps['reopenSecrets']>>
  },
): Promise<{ setup: FirstRunSetup; close(): Promise<void> }> {
  const { dataDir, logger, ...deps } = options
  const journalFile = join(dataDir, JOURNAL_FILE)
  const db = openJournalDatabase(journalFile, { migrations: JOURNAL_MIGRATIONS })
  const audit = auditTrailOnDemand(db, journalFile, SETUP, options.reopenSecrets, (error) =>
    logger.error({ err: error }, 'could not write the audit trail'),
  )
  // Opened now when the keychain works, so that each record is in the journal when setup answers.
  if (deps.secrets.kind === 'os-keychain') await audit.open()
  const setup = new FirstRunSetup({ ...deps, logger, operators: new Operators(new OperatorStore(db)), audit })
  return {
    setup,
    async close() {
      await audit.flush()
      db.close()
    },
  }
}
