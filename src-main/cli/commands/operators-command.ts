/**
 * `pos-agent operators unlock <number>`: the machine's owner lets an operator locked after wrong PINs
 * sign in again (the PIN stays), for when no other manager can approve it at the counter. Audited as
 * the owner's, from the command line.
 */
import { unlockFromCommandLine, type Runtime } from '../../app'
import { EXIT } from '../exit-codes'

export async function operatorsUnlock(runtime: Runtime, operatorId: string): Promise<number> {
  const outcome = await unlockFromCommandLine(runtime.secrets, runtime.dataDir, operatorId)
  switch (outcome.kind) {
    case 'noJournal':
      console.error(`no journal in ${runtime.dataDir}: this terminal has no operators yet`)
      return EXIT.failure
    case 'noSuchOperator':
      console.error(`no operator with number ${operatorId} on this terminal`)
      return EXIT.failure
    case 'unlocked':
      console.log(
        outcome.wasLocked
          ? `${outcome.name} (number ${operatorId}, ${outcome.role}) can sign in again with the same PIN`
          : `${outcome.name} (number ${operatorId}, ${outcome.role}) was not locked; the count of wrong PINs is cleared`,
      )
      return EXIT.ok
  }
}
