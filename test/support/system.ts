/**
 * Tests that need a system component (Secret Service, socat, Chromium) run against the real thing.
 * On a developer machine without it they skip and say how to install it; under CI=true a missing
 * component is a failure, never a skip.
 */
import { spawnSync } from 'node:child_process'
import { KeytarSecretStore } from '../../src-main/keychain'

export const IN_CI = process.env.CI === 'true' || process.env.CI === '1'

/** Returns true when the component is present; otherwise fails in CI, warns and returns false elsewhere. */
export function requireComponent(name: string, present: boolean, install: string): boolean {
  if (present) return true
  if (IN_CI) throw new Error(`CI requires ${name}, which is not available: ${install}`)
  console.warn(`skipping the tests that need ${name} (not available here): ${install}`)
  return false
}

export async function secretServiceAvailable(): Promise<boolean> {
  try {
    await KeytarSecretStore.open('pos-agent-test-probe')
    return true
  } catch {
    return false
  }
}

export function commandAvailable(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
}

/** What to run, from the one list of system packages (scripts/install-system-deps.sh). */
export const INSTALL = {
  keychain:
    'run `scripts/install-system-deps.sh build run` (libsecret-1-dev, gnome-keyring, dbus), then `npm install keytar --no-save` ' +
    '(npm leaves keytar out when libsecret is missing) and `npm test` (it starts gnome-keyring under dbus-run-session)',
  socat: 'run `scripts/install-system-deps.sh test` (apt-get install socat)',
  chromium: 'run `scripts/install-system-deps.sh test` (apt-get install chromium)',
} as const
