/**
 * The keychain as the machine's owner's commands read and fill it (`key status`, `config check`,
 * `doctor`, `email password`, `setup`, `serve`'s banner): what is there, shown by its key check value
 * and never by itself, and the secrets a command keeps there. The command line learns the accounts'
 * names and the keychain's words from here, not from src-main/keychain or src-main/gateway.
 */
import { ensureTrainingKey, keyCheckValue, readSigningKey } from '../gateway'
import {
  dataKeyAccount,
  keychainWords,
  MemorySecretStore,
  openSecretStore,
  signingKeyAccount,
  smtpPasswordAccount,
  type KeychainWords,
  type SecretStore,
} from '../keychain'
import type { Logger } from '../log'

export type { KeychainWords, SecretStore }

/** The signing key of `aid`: whether it is there, and its key check value (never the key). */
export type SigningKeyStatus = { present: false } | { present: true; kcv: string }

export async function signingKeyStatus(secrets: SecretStore, aid: string): Promise<SigningKeyStatus> {
  const key = await secrets.get(signingKeyAccount(aid))
  return key === undefined ? { present: false } : { present: true, kcv: keyCheckValue(key) }
}

/** Whether the journal's data key of this terminal is in the keychain (made at the first start). */
export async function dataKeyPresent(secrets: SecretStore, terminalId: string): Promise<boolean> {
  return (await secrets.get(dataKeyAccount(terminalId))) !== undefined
}

/** The SMTP password of `user` at `host`, kept for emailed receipts (docs/receipts.md). */
export async function keepSmtpPassword(secrets: SecretStore, user: string, host: string, password: string): Promise<void> {
  await secrets.set(smtpPasswordAccount(user, host), password)
}

/** The keychain's state in the doctor's words (the same the agent says when it refuses to start). */
export function keychainState(secrets: SecretStore, mode: 'production' | 'training'): KeychainWords {
  return keychainWords(secrets, mode)
}

/** Why keys live in process memory only, when the OS keychain could not be used; undefined when it is used. */
export function keychainStandIn(secrets: SecretStore): string | undefined {
  if (secrets.kind === 'os-keychain') return undefined
  return secrets instanceof MemorySecretStore ? (secrets.unavailable?.message ?? 'no keychain') : 'no keychain'
}

/**
 * The keys a training host started by hand serves: the training aid's (made once and kept, so an
 * agent started apart agrees on it) and each of `aids`, whose key must be in the keychain.
 */
export async function trainingHostKeys(
  secrets: SecretStore,
  trainingAid: string,
  aids: readonly string[],
): Promise<Record<string, string>> {
  const keys: Record<string, string> = { [trainingAid]: await ensureTrainingKey(secrets, trainingAid) }
  for (const aid of aids) keys[aid] = await readSigningKey(secrets, aid)
  return keys
}

/** The OS keychain for a production terminal (first-run setup asks it again once its fix is applied). */
export function productionKeychain(logger: Logger): Promise<SecretStore> {
  return openSecretStore('production', logger, true)
}
