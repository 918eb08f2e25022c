/**
 * The `store` section (docs/store.md): the store server's URLs, who signs in, the recovery public
 * key and `requireReplica`, on by default once a store is named; bad input gets a clear error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, parseConfig } from '../../../src-main/config'
import { makeRecoveryKeyPair } from '../../../src-main/store'

const valid = {
  host: { offlineBaseUrl: 'https://offline.example.test', baseUrl: 'https://api.example.test', aid: 'ACQ' },
  merchant: { storeId: 'S1', terminalId: 'T-0003', merchantId: 'M1' },
}
const recoveryPublicKey = makeRecoveryKeyPair('config test passphrase').publicKey

describe('the store section', () => {
  it('is absent unless configured; once named, requireReplica is on and the timings have defaults', () => {
    expect(parseConfig(valid, 'config.json').store).toBeUndefined()
    expect(parseConfig({ ...valid, store: { servers: ['tls://backoffice:4222'], recoveryPublicKey } }, 'config.json').store).toEqual({
      servers: ['tls://backoffice:4222'],
      recoveryPublicKey,
      requireReplica: true,
      requireDurable: false,
      syncAlways: false,
      replicas: 1,
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
    [{ servers: ['nats://b:4222'], recoveryPublicKey, password: 'in the file' }, /unknown field "password"/],
    [
      { servers: ['tls://b:4222', 'nats://127.0.0.1:4222'], recoveryPublicKey },
      /store\.servers: name every store server with the same scheme/,
    ],
    [
      { servers: ['nats://backoffice:4222'], recoveryPublicKey },
      /store\.servers\.0: nats:\/\/backoffice:4222 has no TLS: use tls:\/\/ \(with store\.caFile .*\); nats:\/\/ is for a store server on this machine/,
    ],
    [{ servers: ['nats://10.0.0.5:4222'], recoveryPublicKey }, /store\.servers\.0: nats:\/\/10\.0\.0\.5:4222 has no TLS/],
    // A stream keeps 1 or 3 replicas here: 2 would stop taking copies as soon as one server is lost.
    [{ servers: ['nats://127.0.0.1:4222'], recoveryPublicKey, replicas: 2 }, /store\.replicas/],
  ])('refuses %j with a clear error', (store, message) => {
    expect(() => parseConfig({ ...valid, store }, 'config.json')).toThrow(ConfigError)
    expect(() => parseConfig({ ...valid, store }, 'config.json')).toThrow(message)
  })
})

describe("the store server's TLS", () => {
  it('a store server on this machine may go without TLS; another machine needs tls://, unless in training mode', () => {
    for (const server of ['nats://127.0.0.1:4222', 'nats://localhost:4222', 'nats://[::1]:4222', 'tls://backoffice:4222'])
      expect(parseConfig({ ...valid, store: { servers: [server], recoveryPublicKey } }, 'config.json').store?.servers).toEqual([server])
    const training = parseConfig(
      { ...valid, mode: 'training', store: { servers: ['nats://backoffice:4222'], recoveryPublicKey } },
      'c.json',
    )
    expect(training.store?.servers).toEqual(['nats://backoffice:4222'])
  })

  it('store.caFile is read relative to the configuration file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-store-config-'))
    try {
      const file = join(dir, 'config.json')
      writeFileSync(
        file,
        JSON.stringify({ ...valid, store: { servers: ['tls://backoffice:4222'], caFile: 'store-ca.pem', recoveryPublicKey } }),
      )
      expect(loadConfig({ flag: file })?.config.store?.caFile).toBe(join(dir, 'store-ca.pem'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
