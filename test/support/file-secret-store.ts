/**
 * A SecretStore kept in a JSON file, for a test lane that runs in a child process and must find its
 * data key again after a SIGKILL (the OS keychain plays this part in production).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { SecretStore } from '../../src-main/keychain'

export class FileSecretStore implements SecretStore {
  readonly kind = 'os-keychain' as const

  constructor(private readonly file: string) {}

  private read(): Record<string, string> {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>) : {}
  }

  get(account: string): Promise<string | undefined> {
    return Promise.resolve(this.read()[account])
  }

  set(account: string, secret: string): Promise<void> {
    writeFileSync(this.file, JSON.stringify({ ...this.read(), [account]: secret }), { mode: 0o600 })
    return Promise.resolve()
  }

  delete(account: string): Promise<boolean> {
    const all = this.read()
    const had = account in all
    delete all[account]
    writeFileSync(this.file, JSON.stringify(all), { mode: 0o600 })
    return Promise.resolve(had)
  }
}
