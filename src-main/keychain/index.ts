/** The keychain domain's public door. */
import type { Logger } from 'pino'
import { KeytarSecretStore } from './keytar-secret-store'
import { MemorySecretStore } from './memory-secret-store'
import { SecretStoreUnavailableError, type SecretStore } from './secret-store'

export * from './secret-store'
export { KeytarSecretStore } from './keytar-secret-store'
export { MemorySecretStore } from './memory-secret-store'

/**
 * The store for a mode: production insists on the OS keychain and refuses to start without it;
 * training may fall back to process memory, and says so at warn level every time.
 */
export async function openSecretStore(mode: 'production' | 'training', logger?: Logger): Promise<SecretStore> {
  try {
    return await KeytarSecretStore.open()
  } catch (error) {
    if (mode === 'production' || !(error instanceof SecretStoreUnavailableError)) throw error
    logger?.warn({ reason: error.message }, 'TRAINING MODE WITHOUT AN OS KEYCHAIN: keys live in process memory only and vanish when the agent stops')
    return new MemorySecretStore()
  }
}
