/**
 * KeytarSecretStore: the OS keychain through keytar (libsecret/Secret Service on Linux, Keychain on
 * macOS, Credential Vault on Windows). research/electron-stack.md §4.3: keytar is archived but builds
 * and works; the interface keeps a swap to @napi-rs/keyring a one-file change.
 */
import type * as KeytarModule from 'keytar'
import { KEYCHAIN_INSTALL_HINT, KEYCHAIN_SERVICE, SecretStoreUnavailableError, type SecretStore } from './secret-store'

type Keytar = typeof KeytarModule

export class KeytarSecretStore implements SecretStore {
  readonly kind = 'os-keychain' as const

  private constructor(
    private readonly keytar: Keytar,
    private readonly service: string,
  ) {}

  /**
   * Loads keytar and proves the keychain answers, so a missing Secret Service is reported at start
   * with what to install, not at the first sale.
   */
  static async open(service = KEYCHAIN_SERVICE): Promise<KeytarSecretStore> {
    let keytar: Keytar
    try {
      const loaded = (await import('keytar')) as Keytar & { default?: Keytar }
      keytar = loaded.default ?? loaded
    } catch (error) {
      throw new SecretStoreUnavailableError(`the keychain library could not be loaded (${message(error)}). ${KEYCHAIN_INSTALL_HINT}`)
    }
    try {
      await keytar.findCredentials(service)
    } catch (error) {
      throw new SecretStoreUnavailableError(`no OS keychain answered (${message(error)}). ${KEYCHAIN_INSTALL_HINT}`)
    }
    return new KeytarSecretStore(keytar, service)
  }

  async get(account: string): Promise<string | undefined> {
    return (await this.guard(() => this.keytar.getPassword(this.service, account))) ?? undefined
  }

  async set(account: string, secret: string): Promise<void> {
    await this.guard(() => this.keytar.setPassword(this.service, account, secret))
  }

  async delete(account: string): Promise<boolean> {
    return this.guard(() => this.keytar.deletePassword(this.service, account))
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      throw new SecretStoreUnavailableError(`the OS keychain failed (${message(error)}). ${KEYCHAIN_INSTALL_HINT}`)
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
