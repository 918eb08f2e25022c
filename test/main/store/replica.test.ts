/**
 * Every queued item leaves the terminal's disk twice: against a real nats-server (Debian's
 * `nats-server`, on 127.0.0.1) and the real engine, an offline approval waits for the stream's
 * acknowledgement of its sealed copy, the copy opens only with the recovery key, and the bank's
 * answer erases it. With the store server down the sale needs the bank (plain words), a reversal
 * goes on and its copy follows once the store is back; without `requireReplica` the terminal
 * approves and raises an alarm.
 */
import { join } from 'node:path'
import { connect } from '@nats-io/transport-node'
import Database from 'better-sqlite3'
import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import { MemorySecretStore } from '../../../src-main/keychain'
import {
  CopyOpener,
  CopySealer,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  queueCopyOf,
  recoveryPublicJwk,
  ReplicaSync,
  StoreConnection,
} from '../../../src-main/store'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { eventually } from '../../support/engine-harness'
import { internalWordsIn } from '../../support/internal-words'
import { natsServerAvailable } from '../../support/nats-server'
import { copiesAtStore, startLane } from '../../support/store-lane'
import { storeBed } from './store-bed'

const PASSPHRASE = 'correct horse battery staple'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const laneKey = makeCopyKeyPair()

describe.runIf(natsServerAvailable())('the queue replica at the store server', () => {
  const bed = storeBed('pos-replica-', { recoveryPublicKey: keys.publicKey, copyKey: laneKey.privateJwk })

  const open = (reader: ScriptedCardReader, options: { requireReplica?: boolean } = {}) =>
    startLane({ ...bed.laneOptions(reader), ...options })

  it('approves offline only once the store holds the sealed copy; the answer erases it', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    bed.lane = await open(reader)
    // The lane's events, as a back office listening on its subject sees them.
    const listener = await connect({ servers: bed.nats.url })
    const events: string[] = []
    const subscription = listener.subscribe('pos.events.S1.T-0001.>', { callback: (_, msg) => void events.push(msg.string()) })
    await listener.flush()
    bed.host.setFault('*', 'http-503')
    const sale = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 4200, currency: 'USD' }).id)
    expect(sale.state).toBe('storedOffline')
    await eventually(() => events.some((e) => e.includes('"storedOffline"')))
    expect(JSON.parse(events.find((e) => e.includes('"storedOffline"'))!)).toEqual({
      id: sale.id,
      kind: 'sale',
      state: 'storedOffline',
      amountMinor: 4200,
      currency: 'USD',
      offline: true,
    })
    expect(events.join('\n')).not.toContain(TEST_CARDS.chipVisa().pan.slice(-4))
    subscription.unsubscribe()
    await listener.close()
    const subjects = await copiesAtStore(bed.nats.url, 'T-0001')
    expect(subjects).toEqual([
      `pos.queue.S1.T-0001.payment.${sale.id.replace(/[^A-Za-z0-9_-]/g, (c) => `=${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
    ])

    // The store holds ciphertext only: the card number is nowhere in it, and only the recovery key opens it.
    const connection = new StoreConnection({ servers: [bed.nats.url], storeId: 'S1', name: 'test', maxAgeMs: 3_600_000 })
    const stored = (await connection.readCopy(subjects[0]!, 3_000))!
    expect(Buffer.from(stored.data).includes(Buffer.from(TEST_CARDS.chipVisa().pan))).toBe(false)
    const copy = await new CopyOpener(openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk).open(stored.data, subjects[0]!, [
      laneKey.publicKey,
    ])
    expect(copy).toMatchObject({ saleId: sale.id, operation: 'payment', messageId: sale.id, amountMinor: 4200, terminalId: 'T-0001' })
    expect(copy.kind === 'copy' && JSON.stringify(copy.body)).toContain(TEST_CARDS.chipVisa().pan)
    const other = makeRecoveryKeyPair(PASSPHRASE)
    await expect(
      new CopyOpener(openRecoveryPrivateKey(other.privateKeyPem, PASSPHRASE).jwk).open(stored.data, subjects[0]!, [laneKey.publicKey]),
    ).rejects.toThrow(/not sealed by the terminal it names/)
    // A copy moved to another item's subject does not open either (the subject is the AAD).
    await expect(
      new CopyOpener(openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk).open(stored.data, `${subjects[0]!}X`, [laneKey.publicKey]),
    ).rejects.toThrow(/not sealed by the terminal it names/)
    await connection.close()

    bed.host.clearFaults()
    bed.lane.engine.forwarder.wake()
    await eventually(() => bed.lane!.engine.txn.reads.get(sale.id)?.state === 'forwarded', 8_000)
    expect(await waitFor(async () => (await copiesAtStore(bed.nats.url, 'T-0001')).length, 0)).toBe(0)
  })

  it('a sale that stores nothing offline commits as on a lane without a store: its reader steps synced with the next commit', async () => {
    bed.lane = await open(new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }))
    // Each relaxed commit is seen as the switch to synchronous=NORMAL before it (journal/database.ts),
    // as in test/main/txn/commit-sync.test.ts for a lane without a store.
    const levels: string[] = []
    const pragma = Database.prototype.pragma
    const spy = vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (
      this: Database.Database,
      source: string,
      options?: Database.PragmaOptions,
    ) {
      if (/^synchronous = \d$/.test(source)) levels.push(source)
      return pragma.call(this, source, options)
    })
    try {
      const sale = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 2_000, currency: 'USD' }).id)
      expect(sale.state).toBe('approved')
    } finally {
      spy.mockRestore()
    }
    expect(levels).toEqual(['synchronous = 1', 'synchronous = 2', 'synchronous = 1', 'synchronous = 2'])
  })

  it('store server down with requireReplica: the sale needs the bank now; a reversal goes on, alarmed, and is copied once the store is back', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    bed.lane = await open(reader)
    await bed.nats.stop()
    bed.host.setFault('*', 'http-503')
    const refused = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 1500, currency: 'USD' }).id)
    expect(refused.state).toBe('declined')
    expect(refused.reason).toMatch(/store server did not keep a safe copy of it in time, so this sale needs the bank/)
    expect(internalWordsIn(refused.reason ?? '')).toEqual([])
    expect(reader.answers[0]).toMatchObject({ result: 'unableToGoOnline' })
    expect(bed.lane.engine.forwarder.status().storedCount).toBe(0)

    // The bank took the payment but its answer was lost: the reversal is queued at once, store or not.
    bed.host.setFault('payment', 'process-then-drop')
    const reversed = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 1600, currency: 'USD' }).id)
    expect(reversed.state).toBe('reversalPending')
    const alarm = await eventually(() => bed.lane!.engine.alarms.find((a) => a.code === 'QUEUE_COPY_MISSING'), 8_000)
    expect(alarm.message).toMatch(/1 waiting message for the bank has no copy at the store server/)
    expect(internalWordsIn(alarm.message)).toEqual([])

    await bed.nats.restart()
    expect(await waitFor(async () => (await copiesAtStore(bed.nats.url, 'T-0001')).length, 1, 15_000)).toBe(1)
    await eventually(() => !bed.lane!.engine.alarms.some((a) => a.code === 'QUEUE_COPY_MISSING'), 15_000)
  })

  it('store server down without requireReplica: approved offline, and an alarm says the queue has one copy', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    bed.lane = await open(reader, { requireReplica: false })
    await bed.nats.stop()
    bed.host.setFault('*', 'http-503')
    const sale = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 2500, currency: 'USD' }).id)
    expect(sale.state).toBe('storedOffline')
    await eventually(() => bed.lane!.engine.alarms.find((a) => a.code === 'QUEUE_COPY_MISSING'), 8_000)
    await bed.nats.restart()
    expect(await waitFor(async () => (await copiesAtStore(bed.nats.url, 'T-0001')).length, 1, 15_000)).toBe(1)
  })

  it('store server restarted mid-publish: the copy is sent again once the client is back, lands once, and the sale is stored', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    bed.lane = await startLane({
      dir: join(bed.dir, 'lane'),
      hostUrl: bed.host.url,
      caPem: bed.host.caPem,
      natsUrl: bed.nats.url,
      terminalId: 'T-0001',
      reader,
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
      // Long, so that a restart on a busy machine never outlasts it (one that does rightly sends the
      // sale to the bank, as above), and so that each attempt (a third of it) is far longer than a
      // reconnect: an answer lost in the restart must not be waited out.
      ackTimeoutMs: 21_000,
    })
    bed.host.setFault('*', 'http-503')
    await waitFor(async () => (await copiesAtStore(bed.nats.url, 'T-0001')).length, 0)
    const startedAt = Date.now()
    const started = bed.lane.engine.txn.sales.start({ amountMinor: 3100, currency: 'USD' })
    const restarted = bed.nats.restart()
    const sale = await bed.lane.engine.txn.waitForOutcome(started.id)
    await restarted
    expect(sale.state).toBe('storedOffline')
    expect(Date.now() - startedAt).toBeLessThan(7_000)
    expect(await copiesAtStore(bed.nats.url, 'T-0001')).toHaveLength(1)
    // A heartbeat whose answer the restart lost does not hold the terminal's quit for its timeout.
    await bed.nats.restart()
    reader.present({ card: TEST_CARDS.chipVisa() })
    await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 3200, currency: 'USD' }).id)
    const closing = Date.now()
    await bed.lane.close()
    bed.lane = undefined
    expect(Date.now() - closing).toBeLessThan(7_000)
  })

  it('a quit while the store server hangs (up, answering nothing) takes a moment, not the store timeouts', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    bed.lane = await startLane({
      dir: join(bed.dir, 'lane'),
      hostUrl: bed.host.url,
      caPem: bed.host.caPem,
      natsUrl: bed.nats.url,
      terminalId: 'T-0001',
      reader,
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
      // A copy pass may go on for twice this, a heartbeat as long: far past the bound below.
      ackTimeoutMs: 10_000,
    })
    await waitFor(async () => (await copiesAtStore(bed.nats.url, 'T-0001')).length, 0)
    bed.nats.pause()
    try {
      // A payment whose answer is lost: its reversal is owed, and its copy pass waits on the hung server.
      bed.host.setFault('payment', 'process-then-drop')
      const sale = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 1700, currency: 'USD' }).id)
      expect(sale.state).toBe('reversalPending')
      await new Promise((resolve) => setTimeout(resolve, 500))
      const closing = Date.now()
      await bed.lane.close()
      bed.lane = undefined
      expect(Date.now() - closing).toBeLessThan(4_000)
    } finally {
      bed.nats.resume()
    }
  })

  it('a copy waiting on a hung store server ends when the connection closes, not at its deadline', async () => {
    const connection = new StoreConnection({
      servers: [bed.nats.url],
      storeId: 'S1',
      terminalId: 'T-0009',
      name: 'test',
      maxAgeMs: 3_600_000,
    })
    const sync = new ReplicaSync({
      connection,
      sealer: new CopySealer(recoveryPublicJwk(keys.publicKey), laneKey.privateJwk),
      storeId: 'S1',
      terminalId: 'T-0009',
      required: true,
      // Attempts of 3 s and a deadline of 9 s: far past the bound below.
      ackTimeoutMs: 9_000,
      logger: pino({ level: 'silent' }),
    })
    await connection.nats(5_000)
    bed.nats.pause()
    try {
      const copy = queueCopyOf(
        { storeId: 'S1', terminalId: 'T-0009' },
        's-1',
        { operation: 'payment', messageId: 'm-1', body: {}, amountMinor: 100, currency: 'USD' },
        Date.now(),
      )
      const confirming = sync.confirm([copy])
      await new Promise((resolve) => setTimeout(resolve, 300))
      const closing = Date.now()
      await connection.close()
      expect(await confirming).toBe(false)
      expect(Date.now() - closing).toBeLessThan(4_000)
    } finally {
      bed.nats.resume()
      await sync.stop()
    }
  })

  it('a journal that closes under a pass is a failed pass, never an error thrown from a timer', async () => {
    const connection = new StoreConnection({
      servers: [bed.nats.url],
      storeId: 'S1',
      terminalId: 'T-0009',
      name: 'test',
      maxAgeMs: 3_600_000,
    })
    const sync = new ReplicaSync({
      connection,
      sealer: new CopySealer(recoveryPublicJwk(keys.publicKey), laneKey.privateJwk),
      storeId: 'S1',
      terminalId: 'T-0009',
      required: true,
      ackTimeoutMs: 2_000,
      logger: pino({ level: 'silent' }),
    })
    let open = true
    const owed = [{ seq: 1, operation: 'payment' as const, messageId: 'm-1' }]
    sync.attach({
      owed: () => {
        if (!open) throw new TypeError('The database connection is not open')
        return owed
      },
      copyOf: () => undefined,
    })
    try {
      await sync.syncNow()
      open = false
      const state = await sync.syncNow()
      expect(state.lastError).toMatch(/not open/)
      expect(state.uncopied).toBe(1)
    } finally {
      await sync.stop()
      await connection.close()
    }
  })
})

/** Polls an async reading until it equals `want` or the time is up; returns the last reading. */
async function waitFor<T>(read: () => Promise<T>, want: T, timeoutMs = 8_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await read().catch(() => undefined as T)
    if (value === want || Date.now() > until) return value
    await new Promise((r) => setTimeout(r, 100))
  }
}
