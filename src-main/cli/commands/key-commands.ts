/** `pos-agent key set|status`: the signing key goes into the keychain and is never shown again. */
import { auditFromCommandLine, type Runtime } from '../../app'
import { keyCheckValue, storeSigningKey } from '../../gateway'
import { signingKeyAccount } from '../../keychain'
import { EXIT } from '../exit-codes'
import { readSecret } from './io'

export async function keySet(runtime: Runtime, aid: string): Promise<number> {
  const key = await readSecret(`Signing key for aid ${aid} (32 characters, not echoed): `)
  const kcv = await storeSigningKey(runtime.secrets, aid, key)
  await auditFromCommandLine(runtime.secrets, runtime.dataDir, {
    action: 'setSigningKey',
    subject: aid,
    ok: true,
    detail: `key check value ${kcv}`,
  })
  const where = runtime.secrets.kind === 'os-keychain' ? 'the OS keychain' : 'process memory only (training, no OS keychain)'
  console.log(`signing key for aid ${aid} stored in ${where}; key check value ${kcv}`)
  return EXIT.ok
}

export async function keyStatus(runtime: Runtime, aid: string, json: boolean): Promise<number> {
  const key = await runtime.secrets.get(signingKeyAccount(aid))
  const status = { aid, present: key !== undefined, kcv: key === undefined ? undefined : keyCheckValue(key), store: runtime.secrets.kind }
  if (json) console.log(JSON.stringify(status))
  else if (key === undefined) console.log(`no signing key for aid ${aid} (${runtime.secrets.kind}); run \`pos-agent key set\``)
  else
    console.log(
      `signing key for aid ${aid}: present in ${runtime.secrets.kind === 'os-keychain' ? 'the OS keychain' : 'process memory'}, key check value ${status.kcv}`,
    )
  return key === undefined ? EXIT.keychain : EXIT.ok
}
