import { describe, expect, it } from 'vitest'
import { KeytarSecretStore, keychainInstallHint, SecretStoreUnavailableError } from '../../../src-main/keychain'

describe('keychainInstallHint: what to install, for this OS', () => {
  it.each([
    [{ platform: 'linux', distro: ['debian'] }, /apt-get install libsecret-1-dev/],
    [{ platform: 'linux', distro: ['ubuntu', 'debian'] }, /apt-get install libsecret-1-dev/],
    [{ platform: 'linux', distro: ['fedora'] }, /dnf install libsecret-devel/],
    [{ platform: 'linux', distro: ['rocky', 'rhel', 'centos', 'fedora'] }, /dnf install libsecret-devel/],
    [{ platform: 'linux', distro: ['arch'] }, /pacman -S libsecret/],
    [{ platform: 'darwin', distro: [] }, /xcode-select --install/],
    [{ platform: 'win32', distro: [] }, /Visual Studio Build Tools/],
  ] as const)('library missing on %j', (platform, expected) => {
    const hint = keychainInstallHint('library-missing', { platform: platform.platform, distro: [...platform.distro] })
    expect(hint).toMatch(expected)
    expect(hint).toMatch(/npm install keytar --no-save/)
  })

  it('a missing Secret Service names the service package and how to run the agent, not a build step', () => {
    const hint = keychainInstallHint('no-service', { platform: 'linux', distro: ['debian'] })
    expect(hint).toMatch(/gnome-keyring/)
    expect(hint).toMatch(/dbus-run-session/)
    expect(hint).not.toMatch(/rebuild/)
  })
})

describe('KeytarSecretStore.open when keytar is not installed', () => {
  it('says the library is missing, what to install and to rebuild it, in one line', async () => {
    const error = await KeytarSecretStore.open('pos-agent-test', 'keytar-not-installed-here').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SecretStoreUnavailableError)
    const unavailable = error as SecretStoreUnavailableError
    expect(unavailable.problem).toBe('library-missing')
    expect(unavailable.message).toMatch(/^the OS keychain library \(keytar\) is not installed/)
    expect(unavailable.message).toMatch(/npm install keytar --no-save/)
    expect(unavailable.message.split('\n')).toHaveLength(1)
  })
})
