/**
 * A fence that wins every race (docs/store.md "The rescue"), against the real nats-server with the
 * configuration `pos-agent store server-config` writes and the real engine: the lane learns of its
 * fence when it is put (a watch, not its heartbeat); every pass that would publish reads the fence at
 * the store first; and a lane whose connection to the store was cut while a rescue fenced it and
 * erased its copies, then restored without a restart, publishes none of them again.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../src-main/keychain'
import {
  adminConnectionSettings,
  CopyOpener,
  CopySealer,
  fenceTerminal,
  lateCopyWaitMs,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  queueCopyOf,
  recoveryPublicJwk,
  ReplicaSync,
  rescueTerminal,
  StoreConnection,
  type OwedItem,
} from '../../../src-main/store'
import type { QueueCopy } from '../../../src-main/store/queue-replica'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { AID, eventually, KEY } from '../../support/engine-harness'
import { samplePayment } from '../../support/sample-bodies'
import { natsServerAvailable } from '../../support/nats-server'
import { startLane, type Lane } from '../../support/store-lane'
import { startForwarder, startStoreServer, type Forwarder, type StoreServer } from '../../support/store-server'

const PASSPHRASE = 'fence race passphrase'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const MAX_AGE = 96 * 3_600_000
const FENCE = { storeId: 'S1', terminalId: 'T-0001', rescuedAt: '2026-11-28T10:00:00.000Z', by: 'lane-2', rescueId: 'r-1' }
const RULES = {
  currency: 'USD',
  storedPaymentMaxMinor: 100_000,
  unreferencedReturnMaxMinor: 0,
  unreferencedReturnPerCardDayMinor: 0,
  unreferencedReturnPerDayMinor: 0,
}
/** Far longer than any wait below: what the lane learns, it learns without its heartbeat. */
const HEARTBEAT_MS = 120_000

describe.runIf(natsServerAvailable())('a fence that wins every race', () => {
  let dir: string
  let server: StoreServer
  let admin: StoreConnection
  let host: TrainingHost | undefined
  let forwarder: Forwarder | undefined
  let lane: Lane | undefined

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-fence-race-'))
    server = await startStoreServer({ terminals: ['T-0001'] })
    admin = new StoreConnection(
      adminConnectionSettings({ servers: [server.url], storeId: 'S1', name: 'test admin', maxAgeMs: MAX_AGE }, server.adminSeed),
    )
  })
  afterEach(async () => {
    await lane?.close()
    lane = undefined
    await forwarder?.close()
    forwarder = undefined
    await host?.close()
    host = undefined
    await admin.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** The lane's own connection to the store, as its link opens it (its credentials, its stream). */
  const laneConnection = () =>
    new StoreConnection({
      servers: [server.url],
      storeId: 'S1',
      terminalId: 'T-0001',
      nkeySeed: server.laneSeed('T-0001'),
      name: 'lane',
      maxAgeMs: MAX_AGE,
    })

  /**
   * A lane's sync with no fence read and no watch, and the copy of an offline approval (USD 12.34) it
   * is about to publish: a lane that read "no fence" a moment ago.
   */
  const lateApproval = (messageId: string) => {
    const connection = laneConnection()
    const copyKey = makeCopyKeyPair()
    const sync = new ReplicaSync({
      connection,
      sealer: new CopySealer(recoveryPublicJwk(keys.publicKey), copyKey.privateJwk),
      storeId: 'S1',
      terminalId: 'T-0001',
      required: true,
      ackTimeoutMs: 1_500,
      logger: pino({ level: 'silent' }),
    })
    const copy = queueCopyOf(
      { storeId: 'S1', terminalId: 'T-0001' },
      messageId,
      {
        operation: 'payment',
        messageId,
        body: samplePayment({ merchantTransInfo: { merchantTransID: messageId, merchantTransTime: '2026-11-28T10:00:00+01:00' } }),
        amountMinor: 1_234,
        currency: 'USD',
      },
      Date.now(),
    )
    return { connection, copyKey, sync, copy }
  }

  /** What a rescue does at the store before it sends: the fence, then each copy read and erased. */
  const rescueAtStore = async () => {
    await fenceTerminal(admin, FENCE, 3_000)
    const subjects = await admin.copySubjects('T-0001', 3_000)
    for (const copy of await admin.readCopies('T-0001', subjects.length, 3_000)) await admin.erase(copy.subject, 3_000, copy.seq)
    return subjects
  }

  const open = async (natsUrl: string, reader: ScriptedCardReader) => {
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
    return startLane({
      dir: join(dir, 'lane'),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl,
      terminalId: 'T-0001',
      nkeySeed: server.laneSeed('T-0001'),
      reader,
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
      heartbeatMs: HEARTBEAT_MS,
    })
  }

  it('the lane learns of its fence when it is put, not at its next heartbeat', async () => {
    lane = await open(server.url, new ScriptedCardReader())
    expect(lane.engine.alarms.map((a) => a.code)).not.toContain('QUEUE_RESCUED')
    await fenceTerminal(admin, FENCE, 3_000)
    const alarm = await eventually(() => lane!.engine.alarms.find((a) => a.code === 'QUEUE_RESCUED'), 8_000)
    expect(alarm.message).toMatch(/rescued this terminal's waiting payments on 2026-11-28 10:00 \(from lane-2\)/)
    expect(lane.wiring.link.replicaState().fenced).toBe(true)
    // The fence is in the terminal's own audit trail, written through its one writer, and the trail checks out.
    const trail = lane.engine.journal.audit
    const record = await eventually(() => trail.between(0, Date.now() + 1_000).find((r) => r.action === 'storeFenced'), 5_000)
    expect(record).toMatchObject({ door: 'store', ok: true, subject: 'S1/T-0001' })
    expect(record.detail).toBe('while running: rescue r-1 of 2026-11-28T10:00:00.000Z from lane-2; only reversals are sent from here')
    expect(trail.verify({}).intact).toBe(true)
  })

  it('a pass that would publish reads the fence first: copies a rescue erased are not published again', async () => {
    const connection = laneConnection()
    // No watch here (no link): only the pass's own read can stop it.
    let fenceReads = 0
    const sync = new ReplicaSync({
      connection,
      sealer: new CopySealer(recoveryPublicJwk(keys.publicKey), makeCopyKeyPair().privateJwk),
      storeId: 'S1',
      terminalId: 'T-0001',
      required: true,
      ackTimeoutMs: 1_500,
      logger: pino({ level: 'silent' }),
      fenceAtStore: async (ms) => (fenceReads++, (await connection.readFenceRaw('T-0001', ms)) !== undefined),
      // Each pass lists the stream, as the periodic one does: it finds the copies gone.
      periodMs: 1,
    })
    const owed: OwedItem[] = [1, 2].map((seq) => ({ seq, operation: 'payment', messageId: `T-0001-sale-${seq}` }))
    sync.attach({
      owed: () => owed,
      copyOf: (item) =>
        queueCopyOf(
          { storeId: 'S1', terminalId: 'T-0001' },
          item.messageId,
          { ...item, body: {}, amountMinor: 100, currency: 'USD' },
          Date.now(),
        ),
    })
    try {
      await sync.syncNow()
      expect(await admin.copySubjects('T-0001', 3_000)).toHaveLength(2)
      expect(await rescueAtStore()).toHaveLength(2)
      expect(await admin.copySubjects('T-0001', 3_000)).toEqual([])
      // Only the pass's own read of the fence can have fenced it (this sync has no watch).
      const state = await sync.syncNow()
      expect(state.fenced).toBe(true)
      expect(fenceReads).toBeGreaterThan(0)
      expect(await admin.copySubjects('T-0001', 3_000)).toEqual([])
      expect(await sync.confirm([])).toBe(false)
    } finally {
      await sync.stop()
      await connection.close()
    }
  })

  it('an offline approval that read "no fence" just before the rescue put it: its copy lands after the fence, and the rescue sends it', async () => {
    // This lane read the store's fence a moment ago and found none (no read and no watch from here on):
    // its approval publishes its copy within its own deadline, whatever happens at the store meanwhile.
    const { connection, copyKey, sync, copy } = lateApproval('T-0001-sale-7')
    const sent: QueueCopy[] = []
    try {
      const rescuing = rescueTerminal({
        connection: admin,
        storeId: 'S1',
        terminalId: 'T-0001',
        opener: new CopyOpener(openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk),
        senderPublicKeys: [copyKey.publicKey],
        rules: RULES,
        sender: { send: async (item) => (sent.push(item), { kind: 'approved', authCode: 'A1' }) },
        by: 'lane-2',
        rescueId: 'r-late',
        timeoutMs: 3_000,
        now: () => new Date(),
      })
      // The fence is at the store: only now does the lane's copy arrive.
      for (let i = 0; (await connection.readFenceRaw('T-0001', 1_000)) === undefined; i++) {
        if (i > 100) throw new Error('the rescue put no fence')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(await sync.confirm([copy])).toBe(true)
      const report = await rescuing
      expect(report.lines.map((line) => [line.messageId, line.result, line.bankSaid])).toEqual([
        ['T-0001-sale-7', 'approved', expect.any(String)],
      ])
      expect(sent.map((item) => item.messageId)).toEqual(['T-0001-sale-7'])
      expect(await admin.copySubjects('T-0001', 3_000)).toEqual([])
    } finally {
      await sync.stop()
      await connection.close()
    }
  })

  it("an earlier fence dated hours ahead by another machine's clock holds the rescue no longer than the late-copy wait", async () => {
    const { connection, copyKey, sync, copy } = lateApproval('T-0001-sale-8')
    const now = new Date('2026-11-28T10:00:00.000Z')
    // Another machine, its clock three hours ahead, fenced the terminal first.
    await fenceTerminal(admin, { ...FENCE, rescuedAt: '2026-11-28T13:00:00.000Z', by: 'back-office', rescueId: 'r-ahead' }, 3_000)
    const sent: QueueCopy[] = []
    try {
      expect(await sync.confirm([copy])).toBe(true)
      // Without the cap this rescue would sleep until 13:00:02.5 by its own clock, three hours: the
      // test's own time limit would end it.
      const report = await rescueTerminal({
        connection: admin,
        storeId: 'S1',
        terminalId: 'T-0001',
        opener: new CopyOpener(openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk),
        senderPublicKeys: [copyKey.publicKey],
        rules: RULES,
        sender: { send: async (item) => (sent.push(item), { kind: 'approved', authCode: 'A1' }) },
        by: 'lane-2',
        rescueId: 'r-behind',
        timeoutMs: 3_000,
        lateCopyMs: 2_500,
        now: () => now,
      })
      expect(report.continued).toBe(true)
      expect(report.fence).toMatchObject({ rescueId: 'r-ahead', by: 'back-office' })
      expect(sent.map((item) => item.messageId)).toEqual(['T-0001-sale-8'])
    } finally {
      await sync.stop()
      await connection.close()
    }
  }, 20_000)

  it('a lane cut off from the store while a rescue fenced it and erased its copies publishes none of them again when it comes back', async () => {
    forwarder = await startForwarder(server.port)
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    lane = await open(forwarder.url, reader)
    host!.setFault('*', 'http-503')
    for (const amountMinor of [4_100, 4_200]) {
      const sale = await lane.engine.txn.waitForOutcome(lane.engine.txn.sales.start({ amountMinor, currency: 'USD' }).id)
      expect(sale.state).toBe('storedOffline')
    }
    expect(await admin.copySubjects('T-0001', 3_000)).toHaveLength(2)

    // The lane's cable is pulled; it goes on selling (its copies cannot be brought up to date
    // meanwhile), and a rescue runs from another lane and takes its copies.
    await forwarder.cut()
    const link = lane.wiring.link
    // A sale whose answer is lost meanwhile: its reversal is owed, and its copy cannot reach the store.
    host!.setFault('payment', 'process-then-drop')
    reader.present({ card: TEST_CARDS.chipVisa() })
    const lost = await lane.engine.txn.waitForOutcome(lane.engine.txn.sales.start({ amountMinor: 4_300, currency: 'USD' }).id)
    expect(lost.state).toBe('reversalPending')
    await eventually(() => link.replicaState().failingSince !== undefined, 8_000)
    expect(await rescueAtStore()).toHaveLength(2)
    await forwarder.restore()
    // The lane's queue changes (as any sale or answer does), and it reconnects by itself.
    let fenced = false
    for (let i = 0; i < 80 && !fenced; i++) {
      link.replica.queueChanged()
      await new Promise((resolve) => setTimeout(resolve, 100))
      fenced = link.replicaState().fenced || (await admin.copySubjects('T-0001', 3_000)).length > 0
    }
    expect(await admin.copySubjects('T-0001', 3_000)).toEqual([])
    expect(link.replicaState().fenced).toBe(true)
    expect(lane.engine.alarms.map((a) => a.code)).toContain('QUEUE_RESCUED')
    // And stays so: a pass run now publishes nothing either.
    await link.replica.syncNow()
    expect(await admin.copySubjects('T-0001', 3_000)).toEqual([])
  })
})

describe('how long a rescue waits for late copies after the fence', () => {
  const now = new Date('2026-11-28T10:00:00.000Z')
  it('waits out what is left of the late-copy time after a fence just put, nothing after one put long ago', () => {
    expect(lateCopyWaitMs('2026-11-28T10:00:00.000Z', 2_500, now)).toBe(2_500)
    expect(lateCopyWaitMs('2026-11-28T09:59:59.000Z', 2_500, now)).toBe(1_500)
    expect(lateCopyWaitMs('2026-11-27T10:00:00.000Z', 2_500, now)).toBe(0)
  })
  it('never longer than the late-copy time, whatever the clock of the machine that put the fence said', () => {
    expect(lateCopyWaitMs('2026-11-28T13:00:00.000Z', 2_500, now)).toBe(2_500)
    expect(lateCopyWaitMs('2099-01-01T00:00:00.000Z', 2_500, now)).toBe(2_500)
    expect(lateCopyWaitMs('not a time', 2_500, now)).toBe(2_500)
  })
})
