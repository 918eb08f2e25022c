/**
 * Where secrets live: the signing key (per aid), the journal's data key and, beside it, the
 * installation's id and last merchantTransID epoch (not secret, but it must outlive the journal file:
 * journal/transaction-ids.ts), and the audit trail's key and the head it last reached (journal/audit-seal.ts:
 * the head is not secret either, but it must be kept outside the journal file). The production store is
 * the OS keychain; the agent itself keeps no secret on disk.
 */
import { PosError } from '../../src-shared/errors'
import type { KeychainProblem } from './install-hint'

export interface SecretStore {
  /** `os-keychain` survives restarts; `process-memory` is gone when the process exits. */
  readonly kind: 'os-keychain' | 'process-memory'
  get(account: string): Promise<string | undefined>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<boolean>
}

export class SecretStoreUnavailableError extends PosError {
  override readonly name = 'SecretStoreUnavailableError'
  declare readonly code: 'KEYCHAIN_UNAVAILABLE'

  constructor(
    /** Which part is missing: the keytar library itself, or a keychain for it to talk to. */
    readonly problem: KeychainProblem,
    /** What is wrong, in one clause. */
    readonly what: string,
    /** What to install or do on this machine. */
    readonly fix: string,
  ) {
    super('KEYCHAIN_UNAVAILABLE', `${what}: ${fix}`)
  }
}

/** The keychain service name every entry is filed under. */
export const KEYCHAIN_SERVICE = 'pos-agent'

export function signingKeyAccount(aid: string): string {
  return `signing-key/${aid}`
}

export function dataKeyAccount(terminalId: string): string {
  return `data-key/${terminalId}`
}

/** The SMTP password of the store's mail server, per user and server (receipts by email). */
export function smtpPasswordAccount(user: string, host: string): string {
  return `smtp-password/${user}@${host}`
}

/** The installation's id and last merchantTransID epoch, per terminal (journal/transaction-ids.ts). */
export function installIdAccount(terminalId: string): string {
  return `install-id/${terminalId}`
}

/** The store server's password (per user), or the NKey seed of this terminal's user NKey (docs/store.md). */
export function storeSecretAccount(kind: 'password' | 'nkey-seed', who: string): string {
  return `store-${kind}/${who}`
}

/**
 * The audit trail's key, per journal file (`journal` names the file: journal/audit-seal.ts
 * journalTag). Per file, not per terminal, because one terminal may keep two journals (its own and
 * the one `serve --training` tries the configuration in), each with its own trail and head, and
 * first-run setup writes to the trail before the terminal has an id.
 */
export function auditKeyAccount(journal: string): string {
  return `audit-key/${journal}`
}

/** The head (last record's number and seal) the audit trail reached, beside its key. */
export function auditHeadAccount(journal: string): string {
  return `audit-head/${journal}`
}
