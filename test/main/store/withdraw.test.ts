/**
 * A void's withdrawal at the store (docs/store.md "A void while cut off"), against a real nats-server:
 * the tombstone replaces the item's copy (not dropped as a repeat of it) and is acknowledged; a store
 * server that does not answer in time, a fenced terminal and a terminal not enrolled answer false, so
 * the void goes to the bank as a reversal. A terminal not enrolled publishes no copy and says why.
 */
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  CopyOpener,
  CopySealer,
  fenceTerminal,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  NOT_ENROLLED_WORDS,
  openRecoveryPrivateKey,
  queueCopyOf,
  queueTombstoneOf,
  recoveryPublicJwk,
  ReplicaSync,
  StoreConnection,
  StoreLink,
} from '../../../src-main/store'
import { internalWordsIn } from '../../support/internal-words'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'

const PASSPHRASE = 'withdraw test passphrase'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const laneKey = makeCopyKeyPair()
const MAX_AGE = 96 * 3_600_000
const lane = { storeId: 'S1', terminalId: 'T-0001' }
const item = { operation: 'payment' as const, messageId: 'T-0001-sale-1' }
const subject = 'pos.queue.S1.T-0001.payment.T-0001-sale-1'

describe.runIf(natsServerAvailable())('a withdrawal at the store', () => {
  let nats: NatsServer
  let connection: StoreConnection
  let sync: ReplicaSync

  beforeEach(async () => {
    nats = await startNatsServer()
    connection = new StoreConnection({ servers: [nats.url], ...lane, name: 'lane', maxAgeMs: MAX_AGE })
    sync = new ReplicaSync({
      connection,
      sealer: new CopySealer(recoveryPublicJwk(keys.publicKey), laneKey.privateJwk),
      ...lane,
      required: true,
      ackTimeoutMs: 1_500,
      logger: pino({ level: 'silent' }),
      fenceAtStore: async (ms) => (await connection.readFenceRaw(lane.terminalId, ms)) !== undefined,
    })
  })
  afterEach(async () => {
    await sync.stop()
    await connection.close()
    await nats.close()
  })

  const tombstone = () => queueTombstoneOf(lane, item.messageId, item, Date.now())

  it('replaces the copy on its subject, right after the copy (not dropped as its repeat), and is acknowledged', async () => {
    expect(await sync.confirm([copy()])).toBe(true)
    expect(await sync.withdraw([tombstone()])).toBe(true)
    const stored = await connection.readCopy(subject, 3_000)
    const opened = await new CopyOpener(openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk).open(stored!.data, subject, [
      laneKey.publicKey,
    ])
    expect(opened).toMatchObject({ kind: 'withdrawn', messageId: item.messageId })
    expect(await connection.copySubjects(lane.terminalId, 3_000)).toEqual([subject])
  })

  it('answers false when the store server does not acknowledge in time', async () => {
    expect(await sync.confirm([copy()])).toBe(true)
    nats.pause()
    try {
      expect(await sync.withdraw([tombstone()])).toBe(false)
    } finally {
      nats.resume()
    }
  })

  it('answers false once the terminal is fenced, read after the tombstone is in', async () => {
    expect(await sync.confirm([copy()])).toBe(true)
    const admin = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'admin', maxAgeMs: MAX_AGE })
    try {
      await fenceTerminal(admin, { ...lane, rescuedAt: new Date().toISOString(), by: 'lane-2', rescueId: 'r' }, 3_000)
    } finally {
      await admin.close()
    }
    expect(await sync.withdraw([tombstone()])).toBe(false)
    expect(sync.status().fenced).toBe(true)
  })
})

describe.runIf(natsServerAvailable())('a terminal not enrolled with the store', () => {
  it('publishes no copy, approves nothing offline, withdraws nothing, and says why in plain words', async () => {
    const nats = await startNatsServer()
    const link = new StoreLink(
      {
        servers: [nats.url],
        ...lane,
        recoveryPublicKey: keys.publicKey,
        copyKey: undefined,
        enrolment: undefined,
        requireReplica: true,
        ackTimeoutMs: 1_000,
        heartbeatMs: 200,
        maxAgeMs: MAX_AGE,
        version: 'test',
      },
      pino({ level: 'silent' }),
    )
    const admin = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'admin', maxAgeMs: MAX_AGE })
    try {
      await link.fenceAtStart()
      link.start({
        queue: { owed: () => [{ seq: 1, ...item }], copyOf: () => copy() },
        status: () => ({ queueDepth: 1, storedCount: 1, attentionCount: 0, alarms: [], reader: 'ready', bank: 'unreachable' }),
        onFenced: () => undefined,
      })
      expect(link.alarms()).toEqual([{ code: 'STORE_NOT_ENROLLED', message: NOT_ENROLLED_WORDS }])
      expect(internalWordsIn(NOT_ENROLLED_WORDS.replace('`pos-agent store enrol`', ''))).toEqual([])
      expect(await link.replica.confirm([copy()])).toBe(false)
      expect(await link.replica.withdraw([queueTombstoneOf(lane, item.messageId, item, Date.now())])).toBe(false)
      const state = await link.replica.syncNow()
      expect(state).toMatchObject({ enrolled: false, uncopied: 1 })
      expect(await admin.copySubjects(lane.terminalId, 3_000)).toEqual([])
    } finally {
      await link.close()
      await admin.close()
      await nats.close()
    }
  })
})

function copy() {
  return queueCopyOf(lane, item.messageId, { ...item, body: {}, amountMinor: 4_300, currency: 'USD' }, Date.now())
}
