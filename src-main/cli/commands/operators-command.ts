/**
 * `pos-agent operators unlock <number>`: the machine's owner lets an operator locked after wrong PINs
 * sign in again (the PIN stays), for when no other manager can approve it at the counter. It is the
 * service's `unlockOperator`, asked as the owner at the command line (`cli`), whose access row lets
 * the owner stand for the manager; the audit trail keeps it as the owner's.
 */
import { withOwnerService, type Runtime } from '../../app'
import { CLI } from '../../service'
import { PosError } from '../../../src-shared/errors'
import { EXIT } from '../exit-codes'

export async function operatorsUnlock(runtime: Runtime, operatorId: string): Promise<number> {
  try {
    const unlocked = await withOwnerService({ secrets: runtime.secrets, dataDir: runtime.dataDir, clock: runtime.clock }, (service) =>
      service.call(CLI, 'unlockOperator', { operatorId }),
    )
    if (unlocked.disabled) {
      console.error(`${unlocked.name} (number ${operatorId}) no longer works on this terminal: there is nobody to let sign in`)
      return EXIT.failure
    }
    console.log(
      unlocked.wasLocked
        ? `${unlocked.name} (number ${operatorId}, ${unlocked.role}) can sign in again with the same PIN`
        : `${unlocked.name} (number ${operatorId}, ${unlocked.role}) was not locked; the count of wrong PINs is cleared`,
    )
    return EXIT.ok
  } catch (error) {
    if (!(error instanceof PosError) || (error.code !== 'NOT_FOUND' && error.code !== 'INVALID_REQUEST')) throw error
    console.error(`no operator with number ${operatorId} on this terminal (data folder ${runtime.dataDir}): ${error.message}`)
    return EXIT.failure
  }
}
