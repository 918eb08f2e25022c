/**
 * `pos-agent training-host`: the training host as its own process, for manual testing and for an
 * agent configured against it. It serves the training aid, plus any `--aid` whose key is in the keychain.
 */
import { join } from 'node:path'
import { trainingHostKeys, type Runtime } from '../../app'
import { TRAINING_IDENTITY } from '../../config'
import { parseFaultSpec, startTrainingHost } from '../../training'
import { EXIT } from '../exit-codes'

export interface TrainingHostFlags {
  port: number
  aids: string[]
  faults: string[]
}

export async function trainingHostCommand(runtime: Runtime, flags: TrainingHostFlags): Promise<number> {
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65_535)
    throw new Error(`--port must be 0 to 65535, got ${flags.port}`)
  const faults = flags.faults.map(parseFaultSpec)
  const signingKeys = await trainingHostKeys(runtime.secrets, TRAINING_IDENTITY.aid, flags.aids)
  const host = await startTrainingHost({
    port: flags.port,
    stateDir: join(runtime.dataDir, 'training-host'),
    signingKeys,
    faults,
    log: (line) => console.log(line),
  })
  console.log(`training host listening on ${host.url}`)
  console.log(`trust its CA with host.caFile: ${host.caFile}`)
  console.log(`acquirer ids served: ${Object.keys(signingKeys).join(', ')}; admin: ${host.url}/admin/faults, ${host.url}/admin/ledger`)
  if (faults.length > 0) console.log(`faults: ${flags.faults.join(', ')}`)
  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await host.close()
  console.log('training host stopped')
  return EXIT.ok
}
