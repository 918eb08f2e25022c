/**
 * KeytarSecretStore: the OS keychain through keytar (libsecret/Secret Service on Linux, Keychain on
 * macOS, Credential Vault on Windows). keytar's repository (github.com/atom/node-keytar) is archived,
 * but the package builds and works; the SecretStore interface keeps a swap to another keychain
 * binding a one-file change.
 *
 * keytar is an optional dependency, loaded only here and only when asked for: an install without
 * libsecret's headers still succeeds, and training mode runs without it.
 */
import { keychainInstallHint, type KeychainProblem } from './install-hint'
import { KEYCHAIN_SERVICE, SecretStoreUnavailableError, type SecretStore } from './secret-store'

/** The part of keytar's API the agent uses (its own typings are absent when it is not installed). */
interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/** A variable, so neither the type checker nor the bundler insists on the optional module. */
const KEYTAR_MODULE = 'keytar'

export class KeytarSecretStore implements SecretStore {
  readonly kind = 'os-keychain' as const

  private constructor(
    private readonly keytar: Keytar,
    private readonly service: string,
  ) {}

  /**
   * Loads keytar and proves the keychain answers, so a missing Secret Service is reported at start
   * with what to install, not at the first sale. `moduleName` is keytar's; another name only lets a
   * test see the not-installed path on a machine where keytar is installed.
   */
  static async open(service = KEYCHAIN_SERVICE, moduleName = KEYTAR_MODULE): Promise<KeytarSecretStore> {
    let keytar: Keytar
    try {
      const loaded = (await import(moduleName)) as Keytar & { default?: Keytar }
      keytar = loaded.default ?? loaded
    } catch (error) {
      // keytar is optional (it needs libsecret to build): its absence is a missing system package.
      throw unavailable('library-missing', 'the OS keychain library (keytar) is not installed', error)
    }
    try {
      await keytar.findCredentials(service)
    } catch (error) {
      throw unavailable('no-service', 'no OS keychain answered', error)
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
      throw unavailable('failed', 'the OS keychain failed', error)
    }
  }
}

function unavailable(problem: KeychainProblem, what: string, cause: unknown): SecretStoreUnavailableError {
  return new SecretStoreUnavailableError(problem, `${what} (${message(cause)})`, keychainInstallHint(problem))
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
