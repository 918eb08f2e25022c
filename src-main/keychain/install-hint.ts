/**
 * What to install for the OS keychain, said for the machine the agent runs on. keytar is an optional
 * dependency: it compiles against libsecret at install time on Linux, and npm leaves it out (without
 * failing the install) when libsecret's headers are missing. `scripts/install-system-deps.sh`
 * installs the same packages for the whole agent and its tests.
 */
import { readFileSync } from 'node:fs'

export type KeychainProblem = 'library-missing' | 'no-service' | 'failed'

interface Platform {
  platform: NodeJS.Platform
  /** `ID` and `ID_LIKE` of /etc/os-release (freedesktop os-release(5)), lower case; empty elsewhere. */
  distro: string[]
}

export function currentPlatform(): Platform {
  if (process.platform !== 'linux') return { platform: process.platform, distro: [] }
  try {
    const text = readFileSync('/etc/os-release', 'utf8')
    const field = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, 'm').exec(text)?.[1] ?? ''
    return { platform: 'linux', distro: `${field('ID')} ${field('ID_LIKE')}`.toLowerCase().split(/\s+/).filter(Boolean) }
  } catch {
    return { platform: 'linux', distro: [] }
  }
}

/** The packages that let keytar build (headers) and find a keychain at run time, per OS family. */
function packagesFor({ platform, distro }: Platform): { build: string; service: string } {
  if (platform === 'darwin') return { build: 'a compiler (`xcode-select --install`)', service: 'the macOS Keychain (built in)' }
  if (platform === 'win32')
    return { build: 'a compiler (Visual Studio Build Tools, C++ workload)', service: 'the Windows Credential Vault (built in)' }
  if (distro.some((d) => d === 'fedora' || d === 'rhel' || d === 'centos')) {
    return { build: "libsecret's headers (`sudo dnf install libsecret-devel`)", service: '`sudo dnf install gnome-keyring`' }
  }
  if (distro.some((d) => d === 'arch'))
    return { build: 'libsecret (`sudo pacman -S libsecret`)', service: '`sudo pacman -S gnome-keyring`' }
  if (distro.some((d) => d === 'opensuse' || d === 'suse')) {
    return { build: "libsecret's headers (`sudo zypper install libsecret-devel`)", service: '`sudo zypper install gnome-keyring`' }
  }
  // Debian, Ubuntu and anything unrecognised: apt names are the most common ones to show.
  return {
    build: "libsecret's headers (`sudo apt-get install libsecret-1-dev`)",
    service: '`sudo apt-get install gnome-keyring libsecret-1-0 dbus`',
  }
}

/** One line: what is missing and what to do about it on this machine. */
export function keychainInstallHint(problem: KeychainProblem, platform: Platform = currentPlatform()): string {
  const { build, service } = packagesFor(platform)
  if (problem === 'library-missing') {
    // npm drops an optional dependency whose build failed, so `npm rebuild keytar` finds nothing to
    // build; `npm install keytar --no-save` fetches it again (package.json unchanged) and builds it.
    return `install ${build}, then run \`npm install keytar --no-save\` in the agent's folder (npm left keytar out, so \`npm rebuild keytar\` alone finds nothing to build)`
  }
  if (platform.platform !== 'linux') return `check that ${service} is unlocked for this user`
  return `install a Secret Service: ${service} (or KeePassXC with Secret Service enabled), and run the agent in a desktop session or under \`dbus-run-session\` with the keyring unlocked`
}
