/** `pos-agent config check`: is the configuration valid, and is everything it names in place? */
import { readFileSync } from 'node:fs'
import { X509Certificate } from 'node:crypto'
import { signingKeyStatus, type Runtime } from '../../app'
import { EXIT } from '../exit-codes'

export async function configCheck(runtime: Runtime, json: boolean): Promise<number> {
  const problems: string[] = []
  const lines: string[] = []
  const config = runtime.loaded?.config
  if (config === undefined) {
    lines.push('no configuration file: TRAINING MODE (built-in training host and simulated PIN pad)')
  } else {
    lines.push(`configuration: ${runtime.loaded?.file}`, `mode: ${config.mode}`)
    lines.push(
      `offline host: ${config.host.offlineBaseUrl}`,
      `base host: ${config.host.baseUrl}`,
      `aid: ${config.host.aid}, sign type ${config.host.signType}${config.host.keyId ? `, KeyID ${config.host.keyId}` : ''}`,
    )
    lines.push(
      `store ${config.merchant.storeId}, terminal ${config.merchant.terminalId}, merchant ${config.merchant.merchantId}, currency ${config.currency}`,
    )
    const extraCas = [
      ['host.caFile', 'extra CA', config.host.caFile],
      ['store.caFile', "store server's CA", config.store?.caFile],
    ] as const
    for (const [field, what, file] of extraCas) {
      if (file === undefined) continue
      try {
        const cert = new X509Certificate(readFileSync(file))
        lines.push(`${what}: ${cert.subject.replaceAll('\n', ', ')} (valid to ${cert.validTo})`)
        if (Date.parse(cert.validTo) < runtime.clock.now()) problems.push(`the ${what} in ${file} has expired`)
      } catch (error) {
        problems.push(`${field} ${file} is not a readable PEM certificate (${error instanceof Error ? error.message : String(error)})`)
      }
    }
  }
  lines.push(`data folder: ${runtime.dataDir}`)
  const key = await signingKeyStatus(runtime.secrets, runtime.aid)
  if (!key.present && config !== undefined)
    problems.push(`no signing key for aid ${runtime.aid} in the keychain: run \`pos-agent key set\``)
  else if (key.present) lines.push(`signing key: present, KCV ${key.kcv}`)
  if (json) console.log(JSON.stringify({ ok: problems.length === 0, summary: lines, problems }))
  else {
    console.log(lines.join('\n'))
    for (const problem of problems) console.log(`PROBLEM: ${problem}`)
    if (problems.length === 0) console.log('configuration OK')
  }
  return problems.length === 0 ? EXIT.ok : EXIT.config
}
