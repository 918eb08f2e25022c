/**
 * The store's part of `pos-agent doctor` (docs/store.md): whether this terminal reaches its store
 * server with its own credentials, whether it is enrolled (its copy key in the keychain and its
 * certificate in the data folder, so that a rescue trusts its copies), and what the store says of
 * its fence. A fence record that cannot be read is named, as the agent's alarm names it: it counts as
 * a fence, and a manager must look at that record.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { AgentConfig } from '../config'
import { storeSecretAccount, type SecretStore } from '../keychain'
import { copyMaxAgeMs, storeCaPem } from './store-wiring'
import type { AddFinding } from './terminal-checks'

export async function checkStore(config: AgentConfig, secrets: SecretStore, dataDir: string, add: AddFinding): Promise<void> {
  const store = config.store
  if (!store) return
  const { ENROLMENT_FILE, fencedWords, parseFence, readCopyKey, StoreConnection } = await import('../store')
  const { storeId, terminalId } = config.merchant
  const enrolled = (await readCopyKey(secrets, storeId, terminalId)) !== undefined && existsSync(join(dataDir, ENROLMENT_FILE))
  add(
    enrolled ? 'ok' : 'fail',
    'store enrolment',
    enrolled
      ? 'this terminal seals its copies with its enrolled key'
      : 'not enrolled: its waiting payments have no copy at the store, and it cannot approve offline',
    'a manager runs `pos-agent store enrol --recovery-key FILE` on this terminal (docs/store.md)',
  )
  const connection = new StoreConnection({
    servers: store.servers,
    caPem: storeCaPem(store),
    storeId,
    terminalId,
    domain: store.domain,
    user: store.user,
    password: store.user ? await secrets.get(storeSecretAccount('password', store.user)) : undefined,
    nkeySeed: store.nkey ? await secrets.get(storeSecretAccount('nkey-seed', store.nkey)) : undefined,
    name: `pos-agent doctor ${terminalId}`,
    maxAgeMs: copyMaxAgeMs(config),
  })
  try {
    const found = await connection.readFenceRaw(terminalId, store.ackTimeoutMs * 2)
    if (found === undefined) return add('ok', 'store fence', `${store.servers.join(', ')} answers; this terminal is not fenced`)
    const fence = parseFence(found.raw, storeId, terminalId)
    add(
      'fail',
      'store fence',
      // A record that cannot be read is named in the words (fence.ts): the one a manager looks at.
      fencedWords(fence),
      'a manager checks this terminal, then lifts the fence with `pos-agent lift-fence` (docs/store.md "Lifting a fence")',
    )
  } catch (error) {
    add(
      'warn',
      'store fence',
      `the store server did not answer (${error instanceof Error ? error.message : String(error)}); this terminal reads its fence again when it does`,
      `check the store server (${store.servers.join(', ')}) and this terminal's store credentials (\`pos-agent store nkey\` or \`store password\`)`,
    )
  } finally {
    await connection.close()
  }
}
