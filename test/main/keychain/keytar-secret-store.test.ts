import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { KeytarSecretStore, MemorySecretStore, openSecretStore } from '../../../src-main/keychain'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'

const present = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)

describe.runIf(present)('KeytarSecretStore against the real Secret Service', () => {
  it('stores, reads back, replaces and deletes a secret', async () => {
    const store = await KeytarSecretStore.open(`pos-agent-test-${randomUUID()}`)
    expect(store.kind).toBe('os-keychain')
    expect(await store.get('signing-key/ACQ1')).toBeUndefined()
    await store.set('signing-key/ACQ1', 'first-secret-0123456789abcdefghi')
    expect(await store.get('signing-key/ACQ1')).toBe('first-secret-0123456789abcdefghi')
    await store.set('signing-key/ACQ1', 'second-secret-0123456789abcdefgh')
    expect(await store.get('signing-key/ACQ1')).toBe('second-secret-0123456789abcdefgh')
    expect(await store.delete('signing-key/ACQ1')).toBe(true)
    expect(await store.get('signing-key/ACQ1')).toBeUndefined()
    expect(await store.delete('signing-key/ACQ1')).toBe(false)
  })

  it('a secret written by one store instance is read by a new one (it lives in the keychain, not the process)', async () => {
    const service = `pos-agent-test-${randomUUID()}`
    await (await KeytarSecretStore.open(service)).set('data-key/T1', 'persisted-value')
    expect(await (await KeytarSecretStore.open(service)).get('data-key/T1')).toBe('persisted-value')
    await (await KeytarSecretStore.open(service)).delete('data-key/T1')
  })

  it('production mode gets the OS keychain', async () => {
    expect((await openSecretStore('production')).kind).toBe('os-keychain')
  })
})

describe('without a Secret Service', () => {
  const probe = (mode: string) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/pos-agent-test-bus' }
    delete env.DISPLAY
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/keychain-probe.ts', mode], {
      env,
      encoding: 'utf8',
      timeout: 20_000,
    })
    return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as {
      kind?: string
      warnings?: string[]
      error?: { name: string; message: string; problem?: string }
    }
  }

  it('production refuses to start and says what to install', () => {
    const result = probe('production')
    expect(result.error?.name).toBe('SecretStoreUnavailableError')
    // Without keytar (libsecret was missing at install) the library is named; with it, the service.
    expect(result.error?.message).toMatch(
      result.error?.problem === 'library-missing' ? /libsecret-1-dev.*npm install keytar --no-save/ : /gnome-keyring/,
    )
  })

  it('training falls back to a process-lifetime store, loudly', () => {
    const result = probe('training')
    expect(result.kind).toBe('process-memory')
    expect(result.warnings?.join()).toMatch(/TRAINING MODE WITHOUT AN OS KEYCHAIN/)
  })
})

describe('MemorySecretStore', () => {
  it('keeps secrets for the life of the process only', async () => {
    const store = new MemorySecretStore()
    await store.set('a', 'b')
    expect(await store.get('a')).toBe('b')
    expect(await store.delete('a')).toBe(true)
    expect(await store.get('a')).toBeUndefined()
  })
})
