/**
 * Secrets held for the life of the process only: tests, and training mode on a machine without a
 * Secret Service (where the agent says so loudly). Never used in production mode.
 */
import type { SecretStore, SecretStoreUnavailableError } from './secret-store'

export class MemorySecretStore implements SecretStore {
  readonly kind = 'process-memory' as const
  private readonly secrets = new Map<string, string>()

  /** @param unavailable why the OS keychain could not be used, when this store stands in for it */
  constructor(readonly unavailable?: SecretStoreUnavailableError) {}

  async get(account: string): Promise<string | undefined> {
    return this.secrets.get(account)
  }

  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret)
  }

  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account)
  }
}
