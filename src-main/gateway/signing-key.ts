/** Reading and provisioning the gateway's signing key, kept in the keychain (one per aid). */
import { randomBytes } from 'node:crypto'
import { PosError } from '../../src-shared/errors'
import { signingKeyAccount, type SecretStore } from '../keychain'
import { keyCheckValue, validateSigningKey } from './signer'

export async function readSigningKey(store: SecretStore, aid: string): Promise<string> {
  const key = await store.get(signingKeyAccount(aid))
  if (key === undefined)
    throw new PosError(
      'NO_SIGNING_KEY',
      `no signing key for aid "${aid}" in the keychain: run \`pos-agent key set\` and paste the key from your acquirer`,
    )
  return key
}

export async function storeSigningKey(store: SecretStore, aid: string, key: string): Promise<string> {
  const problem = validateSigningKey(key)
  if (problem !== undefined) throw new PosError('BAD_SIGNING_KEY', problem)
  await store.set(signingKeyAccount(aid), key)
  return keyCheckValue(key)
}

/**
 * Training mode's key: created once at random and kept in the keychain (or process memory) so the
 * agent and a separately started training host agree on it. It signs nothing real.
 */
export async function ensureTrainingKey(store: SecretStore, aid: string): Promise<string> {
  const existing = await store.get(signingKeyAccount(aid))
  if (existing !== undefined) return existing
  const key = randomBytes(24).toString('base64url') // 32 characters
  await store.set(signingKeyAccount(aid), key)
  return key
}
