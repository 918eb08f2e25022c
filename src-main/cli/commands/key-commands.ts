/**
 * `pos-agent key set|status`: the signing key goes into the keychain and is never shown again. `key
 * set` is the service's `setSigningKey`, asked as the machine's owner at the command line (`cli`):
 * the same check of the key, the same access row, the same audit record as at the counter.
 */
import { signingKeyStatus, withOwnerService, type Runtime } from '../../app'
import { CLI } from '../../service'
import { PosError } from '../../../src-shared/errors'
import { toPosError } from '../../errors'
import { EXIT } from '../exit-codes'
import { readSecret } from './io'

export async function keySet(runtime: Runtime, aid: string): Promise<number> {
  const key = await readSecret(`Signing key for aid ${aid} (32 characters, not echoed): `)
  const { kcv } = await withOwnerService({ secrets: runtime.secrets, dataDir: runtime.dataDir, aid, clock: runtime.clock }, (service) =>
    service.call(CLI, 'setSigningKey', { key }).catch((thrown: unknown) => {
      // A key of the wrong shape exits as a key problem (README "Exit codes": 4), as it always did.
      const error = toPosError(thrown)
      throw error.code === 'INVALID_REQUEST' ? new PosError('BAD_SIGNING_KEY', error.message) : error
    }),
  )
  const where = runtime.secrets.kind === 'os-keychain' ? 'the OS keychain' : 'process memory only (training, no OS keychain)'
  console.log(`signing key for aid ${aid} stored in ${where}; key check value ${kcv}`)
  return EXIT.ok
}

export async function keyStatus(runtime: Runtime, aid: string, json: boolean): Promise<number> {
  const key = await signingKeyStatus(runtime.secrets, aid)
  const status = { aid, present: key.present, kcv: key.present ? key.kcv : undefined, store: runtime.secrets.kind }
  if (json) console.log(JSON.stringify(status))
  else if (!key.present) console.log(`no signing key for aid ${aid} (${runtime.secrets.kind}); run \`pos-agent key set\``)
  else
    console.log(
      `signing key for aid ${aid}: present in ${runtime.secrets.kind === 'os-keychain' ? 'the OS keychain' : 'process memory'}, key check value ${status.kcv}`,
    )
  return key.present ? EXIT.ok : EXIT.keychain
}
