/**
 * `serve --force-migration <managerNumber>`: before the agent starts, a manager's number and PIN force
 * an update of the journal that cannot be undone while items are owed to the bank (app/forced-migration.ts).
 */
import { forceJournalMigration, type Runtime } from '../../app'
import { readSecret } from './io'

/** Runs the forced update when the flag was given; resolves undefined so that `serve` goes on. */
export async function forceMigrationIfAsked(runtime: Runtime, managerId: string | undefined): Promise<undefined> {
  if (managerId === undefined) return undefined
  const pin = await readSecret(`PIN of manager ${managerId}: `)
  const outcome = await forceJournalMigration(runtime.secrets, runtime.dataDir, { managerId, pin })
  if (outcome.kind === 'forced')
    console.log(
      `manager ${managerId} forced the journal's update (version ${outcome.from} to ${outcome.to}) with ${outcome.owed} owed to the bank: they are kept and sent; the audit trail records it`,
    )
  else console.log('nothing needed forcing: the journal is updated as usual')
  return undefined
}
