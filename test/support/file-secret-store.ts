/**
 * A SecretStore kept in a JSON file, for a test lane that runs in a child process and must find its
 * data key again after a SIGKILL (the OS keychain plays this part in production). Each change is
 * written whole to a file of its own beside it and renamed over it (rename(2) is atomic on one file
 * system): a process killed while it writes leaves the old file or the new one, never half of one.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import type { SecretStore } from '../../src-main/keychain'

export class FileSecretStore implements SecretStore {
  readonly kind = 'os-keychain' as const

  constructor(private readonly file: string) {}

  private read(): Record<string, string> {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>) : {}
  }

  /** The whole file anew: written and flushed under another name, then renamed over the old one. */
  private write(all: Record<string, string>): void {
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      const fd = openSync(temp, 'wx', 0o600)
      try {
        writeSync(fd, JSON.stringify(all))
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(temp, this.file)
    } catch (error) {
      rmSync(temp, { force: true })
      throw error
    }
  }

  get(account: string): Promise<string | undefined> {
    return Promise.resolve(this.read()[account])
  }

  set(account: string, secret: string): Promise<void> {
    this.write({ ...this.read(), [account]: secret })
    return Promise.resolve()
  }

  delete(account: string): Promise<boolean> {
    const all = this.read()
    const had = account in all
    delete all[account]
    this.write(all)
    return Promise.resolve(had)
  }
}
