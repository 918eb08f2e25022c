/** The keychain domain's public door. */
import type { Logger } from 'pino'
import { KeytarSecretStore } from './keytar-secret-store'
import { MemorySecretStore } from './memory-secret-store'
import { SecretStoreUnavailableError, type SecretStore } from './secret-store'

export * from './secret-store'
export { keychainInstallHint, type KeychainProblem } from './install-hint'
export { KeytarSecretStore } from './keytar-secret-store'
export { MemorySecretStore } from './memory-secret-store'

/**
 * The store for a mode: production insists on the OS keychain and refuses to start without it;
 * training may fall back to process memory, and says so at warn level every time. `report` is for
 * the doctor, which must describe a missing keychain rather than stop at it: it gets the stand-in
 * store with the reason attached, in any mode.
 */
export async function openSecretStore(mode: 'production' | 'training', logger?: Logger, report = false): Promise<SecretStore> {
  try {
    return await KeytarSecretStore.open()
  } catch (error) {
    if (!(error instanceof SecretStoreUnavailableError) || (mode === 'production' && !report)) throw error
    if (mode === 'training') logger?.warn({ reason: error.message }, TRAINING_WITHOUT_KEYCHAIN)
    return new MemorySecretStore(error)
  }
}

export const TRAINING_WITHOUT_KEYCHAIN =
  'TRAINING MODE WITHOUT AN OS KEYCHAIN: keys live in process memory only and vanish when the agent stops'
export { keychainWords, type KeychainWords } from './keychain-words'
