/**
 * The store connection over TLS (docs/store.md "TLS"), against a real nats-server that requires it,
 * with a certificate issued in the test by a CA of its own: the connection checks the server's
 * certificate against `store.caFile`, refuses a server it cannot check, and never falls back to
 * plain text when `tls://` was asked of a server that offers no TLS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeConnectionOf } from '../../../src-main/cli/commands/store-commands'
import { ConfigError } from '../../../src-main/config'
import { fenceTerminal, makeRecoveryKeyPair, readFence, StoreConnection, type StoreConnectionSettings } from '../../../src-main/store'
import { loadOrCreateTlsMaterial, type TlsIdentity, type TlsMaterial } from '../../../src-main/tls'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'
import { copiesAtStore } from '../../support/store-lane'

const MAX_AGE = 96 * 3_600_000
const identity = (name: string): TlsIdentity => ({
  files: { caCert: `${name}-ca.pem`, caKey: `${name}-ca-key.pem`, cert: `${name}.pem`, key: `${name}-key.pem` },
  organisation: `pos-agent test ${name}`,
})

describe.runIf(natsServerAvailable())('the store server over TLS', () => {
  let dir: string
  let store: TlsMaterial
  let stranger: TlsMaterial
  let nats: NatsServer
  let plain: NatsServer
  const opened: StoreConnection[] = []

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-store-tls-'))
    store = await loadOrCreateTlsMaterial(dir, new Date(), identity('store-server'))
    stranger = await loadOrCreateTlsMaterial(dir, new Date(), identity('another'))
    nats = await startNatsServer({ tls: { certFile: join(dir, 'store-server.pem'), keyFile: join(dir, 'store-server-key.pem') } })
    plain = await startNatsServer()
  })
  afterAll(async () => {
    for (const connection of opened) await connection.close()
    await nats?.close()
    await plain?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const connect = (settings: Partial<StoreConnectionSettings>) => {
    const connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'tls test', maxAgeMs: MAX_AGE, ...settings })
    opened.push(connection)
    return connection
  }

  it('with the store CA: the queue stream, the fence and the copies work as over loopback', async () => {
    expect(nats.url).toMatch(/^tls:\/\/127\.0\.0\.1:\d+$/)
    const connection = connect({ caPem: store.caPem, terminalId: 'T-0001' })
    const fence = { storeId: 'S1', terminalId: 'T-0001', rescuedAt: new Date().toISOString(), by: 'lane-2', rescueId: 'r' }
    await fenceTerminal(connection, fence, 5_000)
    expect(await readFence(connection, 'S1', 'T-0001', 5_000)).toEqual(fence)
    expect(await connection.copySubjects('T-0001', 5_000)).toEqual([])
    const js = await connection.jetstream(5_000)
    await js.publish('pos.queue.S1.T-0001.payment.m1', new Uint8Array([1, 2, 3]))
    expect(await connection.copySubjects('T-0001', 5_000)).toEqual(['pos.queue.S1.T-0001.payment.m1'])
    const nc = await connection.nats(5_000)
    expect(nc.info?.tls_required).toBe(true)
  })

  it("refuses the server's certificate without the store CA (public roots) and with another CA", async () => {
    for (const caPem of [undefined, stranger.caPem]) {
      const connection = connect({ caPem })
      await expect(connection.nats(1_500)).rejects.toThrow(/store server did not answer/)
      expect(connection.lastError).toMatch(/certificate/i)
    }
  })

  it('never falls back to plain text: tls:// to a server without TLS is refused', async () => {
    const connection = connect({ servers: [plain.url.replace('nats://', 'tls://')], caPem: store.caPem })
    await expect(connection.nats(1_500)).rejects.toThrow(/store server did not answer/)
    expect(connection.lastError).toMatch(/does not support 'tls'/)
    // The same server over nats:// (loopback) is reached: what failed was TLS, not the server.
    expect(await copiesAtStore(plain.url, 'T-0001')).toEqual([])
  })

  it("the configuration's store.caFile reaches the connection; a file that cannot be read is a clear error", async () => {
    const caFile = join(dir, 'given-ca.pem')
    writeFileSync(caFile, store.caPem)
    const recoveryPublicKey = makeRecoveryKeyPair('tls test passphrase').publicKey
    const config = (file: string) => ({ merchant: { storeId: 'S1' }, store: { servers: [nats.url], caFile: file, recoveryPublicKey } })
    const settings = await storeConnectionOf(config(caFile), { get: async () => undefined }, MAX_AGE)
    expect(settings?.caPem).toBe(store.caPem)
    const connection = connect(settings!)
    expect(await connection.copySubjects('T-0002', 5_000)).toEqual([])
    await expect(storeConnectionOf(config(join(dir, 'missing.pem')), { get: async () => undefined }, MAX_AGE)).rejects.toThrow(ConfigError)
    await expect(storeConnectionOf(config(join(dir, 'missing.pem')), { get: async () => undefined }, MAX_AGE)).rejects.toThrow(
      /store\.caFile .*missing\.pem cannot be read/,
    )
  })
})
