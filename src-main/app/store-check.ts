/**
 * The store's part of `pos-agent doctor` (docs/store.md): whether this terminal reaches its store
 * server with its own credentials, whether it is enrolled (its copy key in the keychain and its
 * certificate in the data folder, so that a rescue trusts its copies), and what the store says of
 * its fence, and how safe its copy there is (`synced` or `buffered`, store/durability.ts). A fence
 * record that cannot be read is named, as the agent's alarm names it: it counts as a fence, and a
 * manager must look at that record.
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
  const { classifyDurability, ENROLMENT_FILE, fencedWords, parseFence, readCopyKey, StoreConnection } = await import('../store')
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
    replicas: store.replicas,
  })
  try {
    await checkDurability()
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

  /** How safe the copy is: `synced` passes; `buffered` warns, and fails where the store requires synced. */
  async function checkDurability(): Promise<void> {
    if (!store) return
    try {
      const reading = classifyDurability({
        ...(await connection.durabilityFacts(store.ackTimeoutMs * 2)),
        syncAlwaysStated: store.syncAlways,
      })
      if (reading.durability === 'synced') return add('ok', 'store copy', `synced: ${reading.words}`)
      add(
        store.requireDurable ? 'fail' : 'warn',
        'store copy',
        `buffered: ${reading.words}${store.requireDurable ? '; store.requireDurable is set, so this terminal refuses offline approvals' : ''}`,
        'write the server\'s configuration with `pos-agent store server-config` for nats-server 2.10 or later (sync_interval: always) and set store.syncAlways, or run three store servers (`server-config --cluster 3`, store.replicas: 3); docs/store.md "How safe the store\'s copy is"',
      )
    } catch (error) {
      add(
        'warn',
        'store copy',
        `not known: the store server did not say how it keeps copies (${error instanceof Error ? error.message : String(error)})`,
        `check the store server (${store.servers.join(', ')})`,
      )
    }
  }
}
