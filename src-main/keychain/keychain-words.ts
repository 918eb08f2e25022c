/**
 * What the keychain's state means for this machine, in the words the doctor prints and the setup page
 * shows before anything is typed: whether it answers, what is wrong, and the fix for this OS
 * (install-hint.ts).
 */
import { MemorySecretStore } from './memory-secret-store'
import type { SecretStore } from './secret-store'

export type KeychainWords = { ok: true; text: string } | { ok: false; what: string; text: string; fix?: string }

export function keychainWords(secrets: SecretStore, mode: 'production' | 'training'): KeychainWords {
  if (secrets.kind === 'os-keychain') return { ok: true, text: 'OS keychain answers' }
  const reason = secrets instanceof MemorySecretStore ? secrets.unavailable : undefined
  const what = reason?.what ?? 'no OS keychain'
  const text =
    mode === 'production'
      ? `${what}: production will not start without it`
      : `${what}: training keys live in process memory and vanish when the agent stops`
  return { ok: false, what, text, ...(reason?.fix ? { fix: reason.fix } : {}) }
}
