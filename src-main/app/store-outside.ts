/**
 * The store's commands composed (`pos-agent rescue`, `store enrol`, `fleet`, `store password`, `store
 * nkey`, docs/store.md): the gateway client as the rescue's sender, a lane's store credentials from
 * the keychain, and the credentials a command keeps there. The command line prints; the rescue, the
 * fence and the fleet are src-main/store's.
 */
import { answerOf, GATEWAY_OPERATIONS, type HostClient } from '../gateway'
import { storeSecretAccount, type SecretStore } from '../keychain'
import type { RescueSender, StoreConnectionSettings } from '../store'
import { storeCaPem } from './store-wiring'

/** The gateway client as the rescue's sender: each item under its own id, as the terminal would have sent it. */
export function rescueSender(host: HostClient): RescueSender {
  return {
    async send(copy) {
      const originalId = GATEWAY_OPERATIONS[copy.operation].takesOriginalId ? copy.saleId : undefined
      return answerOf(await host.sendUnchecked(copy.operation, copy.body, originalId))
    },
  }
}

/** The store connection settings a lane's configuration names (its own credentials from the keychain). */
export async function storeConnectionOf(
  config: {
    merchant: { storeId: string }
    store?:
      | {
          servers: string[]
          caFile?: string | undefined
          domain?: string | undefined
          user?: string | undefined
          nkey?: string | undefined
          replicas?: 1 | 3 | undefined
        }
      | undefined
  },
  secrets: { get(account: string): Promise<string | undefined> },
  maxAgeMs: number,
): Promise<Omit<StoreConnectionSettings, 'name'> | undefined> {
  const store = config.store
  if (!store) return undefined
  return {
    servers: store.servers,
    caPem: storeCaPem(store),
    storeId: config.merchant.storeId,
    domain: store.domain,
    user: store.user,
    password: store.user ? await secrets.get(storeSecretAccount('password', store.user)) : undefined,
    nkeySeed: store.nkey ? await secrets.get(storeSecretAccount('nkey-seed', store.nkey)) : undefined,
    // Three servers: the stream and buckets it makes are kept by all three (docs/store.md).
    replicas: store.replicas,
    maxAgeMs,
  }
}

/** A store credential of this terminal kept in the keychain: store.user's password, or store.nkey's seed. */
export async function keepStoreSecret(secrets: SecretStore, kind: 'password' | 'nkey-seed', who: string, secret: string): Promise<void> {
  await secrets.set(storeSecretAccount(kind, who), secret)
}
