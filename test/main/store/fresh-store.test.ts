/**
 * A store server with no queue stream yet (new, or its store lost), against a real nats-server: an
 * offline approval's copy makes the stream and is acknowledged, without waiting for a pass; a stream
 * deleted under a running terminal is made again by the next listing.
 */
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  CopySealer,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  queueCopyOf,
  recoveryPublicJwk,
  ReplicaSync,
  StoreConnection,
  type QueueCopy,
} from '../../../src-main/store'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'

const keys = makeRecoveryKeyPair('fresh store passphrase')
const copy = (messageId: string): QueueCopy =>
  queueCopyOf(
    { storeId: 'S1', terminalId: 'T1' },
    `sale-${messageId}`,
    { operation: 'payment', messageId, body: { note: 'sealed' }, amountMinor: 1_000, currency: 'USD' },
    Date.now(),
  )

describe.runIf(natsServerAvailable())('a store server without the queue stream', () => {
  let nats: NatsServer
  let connection: StoreConnection
  let sync: ReplicaSync

  beforeEach(async () => {
    nats = await startNatsServer()
    connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', terminalId: 'T1', name: 'test', maxAgeMs: 3_600_000 })
    sync = new ReplicaSync({
      connection,
      sealer: new CopySealer(recoveryPublicJwk(keys.publicKey), makeCopyKeyPair().privateJwk),
      storeId: 'S1',
      terminalId: 'T1',
      required: true,
      ackTimeoutMs: 1_500,
      logger: pino({ level: 'silent' }),
    })
  })
  afterEach(async () => {
    await sync.stop()
    await connection.close()
    await nats.close()
  })

  it("an offline approval's copy makes the stream and is acknowledged in time", async () => {
    const started = performance.now()
    expect(await sync.confirm([copy('m1')])).toBe(true)
    expect(performance.now() - started).toBeLessThan(1_500)
    expect(await connection.copySubjects('T1', 3_000)).toEqual(['pos.queue.S1.T1.payment.m1'])
  })

  it('a stream lost under a running terminal is made again by the next listing, and copies go on', async () => {
    expect(await sync.confirm([copy('m1')])).toBe(true)
    const jsm = await connection.manager(3_000)
    await jsm.streams.delete(connection.streamName)
    expect(await connection.copySubjects('T1', 3_000)).toEqual([])
    expect(await sync.confirm([copy('m2')])).toBe(true)
    expect(await connection.copySubjects('T1', 3_000)).toEqual(['pos.queue.S1.T1.payment.m2'])
  })
})
