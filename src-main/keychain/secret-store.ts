/**
 * Where secrets live: the signing key (per aid) and, later, the journal's data key. The production
 * store is the OS keychain; the agent itself keeps no secret on disk.
 */
export interface SecretStore {
  /** `os-keychain` survives restarts; `process-memory` is gone when the process exits. */
  readonly kind: 'os-keychain' | 'process-memory'
  get(account: string): Promise<string | undefined>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<boolean>
}

export class SecretStoreUnavailableError extends Error {
  override readonly name = 'SecretStoreUnavailableError'
  readonly code = 'KEYCHAIN_UNAVAILABLE'
}

/** The keychain service name every entry is filed under. */
export const KEYCHAIN_SERVICE = 'pos-agent'

export function signingKeyAccount(aid: string): string {
  return `signing-key/${aid}`
}

export function dataKeyAccount(terminalId: string): string {
  return `data-key/${terminalId}`
}

/** How to get a Secret Service, per platform, for the message shown when none answers. */
export const KEYCHAIN_INSTALL_HINT =
  'Linux needs a running Secret Service: install gnome-keyring (or KeePassXC with Secret Service enabled) and libsecret-1-0, ' +
  'and run the agent inside a desktop or `dbus-run-session` with the keyring unlocked. macOS and Windows use their built-in keychains.'
