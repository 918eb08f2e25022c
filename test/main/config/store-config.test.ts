/**
 * The `store` section (docs/store.md): the store server's URLs, who signs in, the recovery public
 * key and `requireReplica`, on by default once a store is named; bad input gets a clear error.
 */
import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../../../src-main/config'
import { makeRecoveryKeyPair } from '../../../src-main/store'

const valid = {
  host: { offlineBaseUrl: 'https://offline.example.test', baseUrl: 'https://api.example.test', aid: 'ACQ' },
  merchant: { storeId: 'S1', terminalId: 'T-0003', merchantId: 'M1' },
}
const recoveryPublicKey = makeRecoveryKeyPair('config test passphrase').publicKey

describe('the store section', () => {
  it('is absent unless configured; once named, requireReplica is on and the timings have defaults', () => {
    expect(parseConfig(valid, 'config.json').store).toBeUndefined()
    expect(parseConfig({ ...valid, store: { servers: ['nats://backoffice:4222'], recoveryPublicKey } }, 'config.json').store).toEqual({
      servers: ['nats://backoffice:4222'],
      recoveryPublicKey,
      requireReplica: true,
      ackTimeoutMs: 1_500,
      heartbeatSeconds: 15,
    })
  })

  it.each([
    [{ servers: [], recoveryPublicKey }, /store\.servers: name at least one store server/],
    [{ servers: ['http://backoffice:4222'], recoveryPublicKey }, /store\.servers\.0: must be a nats:\/\/ or tls:\/\/ URL/],
    [{ servers: ['nats://b:4222'], recoveryPublicKey: 'short' }, /store\.recoveryPublicKey: must be the 43 characters/],
    [
      { servers: ['nats://b:4222'], recoveryPublicKey, user: 'lane', nkey: `U${'A'.repeat(55)}` },
      /store\.nkey: give either user or nkey, not both/,
    ],
    [{ servers: ['nats://b:4222'], recoveryPublicKey, nkey: 'not-a-key' }, /store\.nkey: must be a user NKey/],
    [{ servers: ['nats://b:4222'], recoveryPublicKey, password: 'in the file' }, /unknown field\(s\) "password"/],
  ])('refuses %j with a clear error', (store, message) => {
    expect(() => parseConfig({ ...valid, store }, 'config.json')).toThrow(ConfigError)
    expect(() => parseConfig({ ...valid, store }, 'config.json')).toThrow(message)
  })
})
