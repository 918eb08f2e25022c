/**
 * The file that stands in for terminal A's keychain in the three-server kill test
 * (test/support/file-secret-store.ts): a change replaces the file whole, so a process killed while it
 * writes, or a reader that opened the file before, finds a complete file, old or new, never half of one.
 */
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileSecretStore } from '../../support/file-secret-store'

describe('the file keychain of a test lane', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pos-file-keychain-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('replaces its file whole: a reader of the old file still reads it complete, and no other file is left', async () => {
    const file = join(dir, 'keychain.json')
    const keychain = new FileSecretStore(file)
    await keychain.set('copy-key', 'first')
    const before = readFileSync(file, 'utf8')
    const reader = openSync(file, 'r')
    try {
      await keychain.set('data-key', 'second')
      // Written in place, the file the reader holds would be truncated and rewritten under it.
      expect(readFileSync(reader, 'utf8')).toBe(before)
    } finally {
      closeSync(reader)
    }
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'copy-key': 'first', 'data-key': 'second' })
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(await keychain.delete('copy-key')).toBe(true)
    expect(await new FileSecretStore(file).get('copy-key')).toBeUndefined()
    expect(await new FileSecretStore(file).get('data-key')).toBe('second')
    expect(readdirSync(dir)).toEqual(['keychain.json'])
  })
})
