/**
 * A store that trusts no lane (docs/store.md "What a lane may do"), against the real nats-server
 * started with the configuration `pos-agent store server-config` writes: lane A does all its work
 * through the production code without one refused call; lane B, with its own credentials, is refused
 * every reach into A's stream, keys, events and replies, each by the server's permission error (never
 * a timeout); the store's admin does everything the rescue, lifting a fence and the fleet need.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jetstream } from '@nats-io/jetstream'
import { connect, nkeyAuthenticator, nkeys, type NatsConnection } from '@nats-io/transport-node'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminConnectionSettings,
  CopyOpener,
  copySubject,
  fenceTerminal,
  laneInboxPrefix,
  liftFence,
  makeCopyKeyPair,
  makeEnrolment,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  parseHeartbeat,
  queueCopyOf,
  queueTombstoneOf,
  readFenceEntry,
  readFleet,
  StoreConnection,
  StoreLink,
  type FenceRecord,
  type OwedItem,
  type QueueCopy,
} from '../../../src-main/store'
import { natsServerAvailable } from '../../support/nats-server'
import { startStoreServer, type StoreServer } from '../../support/store-server'

const PASSPHRASE = 'permissions test passphrase'
const recovery = makeRecoveryKeyPair(PASSPHRASE)
const recoveryPrivate = openRecoveryPrivateKey(recovery.privateKeyPem, PASSPHRASE).jwk
const MAX_AGE = 96 * 3_600_000
const A = 'T-000A'
const B = 'T-000B'
const STREAM_A = 'POS_QUEUE_S1_T-000A'

const item = (seq: number): OwedItem => ({ seq, operation: 'payment', messageId: `${A}-sale-${seq}` })
const copyOf = (owed: OwedItem): QueueCopy =>
  queueCopyOf(
    { storeId: 'S1', terminalId: A },
    owed.messageId,
    { ...owed, body: { note: 'sealed' }, amountMinor: 1_000 + owed.seq, currency: 'USD' },
    Date.now(),
  )

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

describe.runIf(natsServerAvailable())('what each lane may do at the store server', () => {
  let server: StoreServer
  let admin: StoreConnection
  let laneB: NatsConnection
  const laneKey = makeCopyKeyPair()
  const enrolment = JSON.stringify(
    makeEnrolment(recoveryPrivate, { storeId: 'S1', terminalId: A, publicKey: laneKey.publicKey, by: 'test', now: new Date() }),
  )
  const publicKeyOf = (seed: string) => nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey()

  beforeAll(async () => {
    server = await startStoreServer({ terminals: [A, B] })
    admin = new StoreConnection(
      adminConnectionSettings({ servers: [server.url], storeId: 'S1', name: 'test admin', maxAgeMs: MAX_AGE }, server.adminSeed),
    )
    laneB = await connect({
      servers: server.url,
      authenticator: nkeyAuthenticator(new TextEncoder().encode(server.laneSeed(B))),
      inboxPrefix: laneInboxPrefix('S1', B),
      name: 'lane B',
    })
  })
  afterAll(async () => {
    await laneB?.close()
    await admin?.close()
    await server?.close()
  })

  it('the server file holds public keys only; each seed is in its own owner-only file', () => {
    const text = readFileSync(server.configFile, 'utf8')
    for (const who of ['admin', A, B]) {
      const seed = readFileSync(server.seedFile(who), 'utf8').trim()
      expect(seed).toMatch(/^SU[A-Z2-7]{56}$/)
      expect(statSync(server.seedFile(who)).mode & 0o777).toBe(0o600)
      expect(text).not.toContain(seed)
      expect(text).toContain(publicKeyOf(seed))
    }
    expect(statSync(join(server.dir, 'seeds')).mode & 0o777).toBe(0o700)
    expect(text).not.toMatch(/\bS[UOANC][A-Z2-7]{50,}/)
  })

  it('lane A does all its work: its stream, copies published and erased, a withdrawal, heartbeats, its enrolment, its fence read and watched', async () => {
    const owed: OwedItem[] = []
    const fenced: FenceRecord[] = []
    const link = new StoreLink(
      {
        servers: [server.url],
        storeId: 'S1',
        terminalId: A,
        nkeySeed: server.laneSeed(A),
        recoveryPublicKey: recovery.publicKey,
        copyKey: laneKey.privateJwk,
        enrolment,
        requireReplica: true,
        ackTimeoutMs: 2_000,
        heartbeatMs: 200,
        maxAgeMs: MAX_AGE,
        version: 'test',
      },
      pino({ level: 'silent' }),
    )
    try {
      expect(await link.fenceAtStart()).toBeUndefined()
      link.start({
        queue: { owed: () => owed, copyOf },
        status: () => ({
          queueDepth: owed.length,
          storedCount: owed.length,
          attentionCount: 0,
          alarms: [],
          reader: 'ready',
          bank: 'unreachable',
        }),
        onFenced: (fence) => void fenced.push(fence),
      })
      // An offline approval's copy: its stream made, the copy acknowledged.
      expect(await link.replica.confirm([copyOf(item(1))])).toBe(true)
      link.replica.journaled([item(1)])
      owed.push(item(1), item(2))
      link.replica.queueChanged()
      const subject = (n: number) => copySubject('S1', A, 'payment', item(n).messageId)
      expect(
        await until(
          () => admin.copySubjects(A, 3_000),
          (s) => s.length === 2,
        ),
      ).toEqual([subject(1), subject(2)].sort())

      // The bank answered the first: the pass erases its copy.
      owed.splice(0, 1)
      link.replica.queueChanged()
      expect(
        await until(
          () => admin.copySubjects(A, 3_000),
          (s) => s.length === 1,
        ),
      ).toEqual([subject(2)])

      // A void withdraws the second: its tombstone replaces the copy at the store.
      expect(
        await link.replica.withdraw([queueTombstoneOf({ storeId: 'S1', terminalId: A }, item(2).messageId, item(2), Date.now())]),
      ).toBe(true)
      const stored = await admin.readCopy(subject(2), 3_000)
      const opened = await new CopyOpener(recoveryPrivate).open(stored!.data, subject(2), [laneKey.publicKey])
      expect(opened).toMatchObject({ kind: 'withdrawn', messageId: item(2).messageId })

      // Its heartbeat and its enrolment, as the admin reads them.
      const beat = await until(
        () => admin.readHeartbeatRaw(A, 3_000),
        (found) => found !== undefined,
      )
      expect(parseHeartbeat(beat!.raw, 'S1', A)).toMatchObject({ terminalId: A, fenced: false })
      expect((await admin.readEnrolmentHistory(A, 3_000)).map((raw) => new TextDecoder().decode(raw))).toEqual([enrolment])

      // The admin fences it: the watch tells the lane, which then publishes and withdraws nothing.
      const fence = { storeId: 'S1', terminalId: A, rescuedAt: new Date().toISOString(), by: 'back office', rescueId: 'r-1' }
      await fenceTerminal(admin, fence, 3_000)
      expect(
        await until(
          () => fenced,
          (seen) => seen.length > 0,
        ),
      ).toEqual([fence])
      expect(link.alarms().map((alarm) => alarm.code)).toContain('QUEUE_RESCUED')
      expect(await link.replica.confirm([copyOf(item(3))])).toBe(false)
      expect(
        await link.replica.withdraw([queueTombstoneOf({ storeId: 'S1', terminalId: A }, item(1).messageId, item(1), Date.now())]),
      ).toBe(false)
    } finally {
      await link.close()
    }
    // Not one call of lane A was refused: the server logs every violation with the user's key.
    const refused = server
      .log()
      .split('\n')
      .filter((line) => /Violation/.test(line) && line.includes(publicKeyOf(server.laneSeed(A))))
    expect(refused).toEqual([])
  })

  it('lane B works on its own stream, and its events go out', async () => {
    const own = new StoreConnection({
      servers: [server.url],
      storeId: 'S1',
      terminalId: B,
      nkeySeed: server.laneSeed(B),
      name: 'lane B own',
      maxAgeMs: MAX_AGE,
    })
    try {
      await own.ensureStream(3_000)
      const ack = await (await own.jetstream(3_000)).publish(copySubject('S1', B, 'payment', 'b-1'), new Uint8Array([1]))
      expect(ack.stream).toBe('POS_QUEUE_S1_T-000B')
      expect(await own.copySubjects(B, 3_000)).toEqual(['pos.queue.S1.T-000B.payment.b-1'])
      expect(await own.readFenceRaw(B, 3_000)).toBeUndefined()
    } finally {
      await own.close()
    }
    // Its events reach whoever may read them (the admin), and the server took them without a word.
    const listener = await connect({ servers: server.url, authenticator: nkeyAuthenticator(new TextEncoder().encode(server.adminSeed)) })
    const heard: string[] = []
    listener.subscribe('pos.events.S1.T-000B.>', { callback: (_, msg) => void heard.push(msg.subject) })
    await listener.flush()
    laneB.publish('pos.events.S1.T-000B.sale', '{}')
    await laneB.flush()
    expect(
      await until(
        () => heard,
        (h) => h.length > 0,
      ),
    ).toEqual(['pos.events.S1.T-000B.sale'])
    await listener.close()
  })

  // Each a request lane B sends with its own credentials and inbox: refused by the server.
  const sealed = JSON.stringify({ name: STREAM_A, subjects: ['pos.queue.S1.T-000A.>'], sealed: true })
  it.each<[string, string, string]>([
    ["a copy on A's subject", 'pos.queue.S1.T-000A.payment.forged', 'x'],
    ["a tombstone over A's copy", `pos.queue.S1.T-000A.payment.${A}-sale-2`, 'x'],
    ["A's stream deleted", `$JS.API.STREAM.DELETE.${STREAM_A}`, ''],
    ["A's stream purged", `$JS.API.STREAM.PURGE.${STREAM_A}`, ''],
    ["A's stream sealed", `$JS.API.STREAM.UPDATE.${STREAM_A}`, sealed],
    ["A's stream made (before A)", `$JS.API.STREAM.CREATE.${STREAM_A}`, sealed],
    ["A's stream's info (its copies' subjects)", `$JS.API.STREAM.INFO.${STREAM_A}`, '{"subjects_filter":">"}'],
    ["a message of A's stream", `$JS.API.STREAM.MSG.GET.${STREAM_A}`, '{"seq":1}'],
    ["a message of A's stream, directly", `$JS.API.DIRECT.GET.${STREAM_A}`, '{"seq":1}'],
    ["a message of A's stream erased", `$JS.API.STREAM.MSG.DELETE.${STREAM_A}`, '{"seq":1}'],
    ["a consumer on A's stream", `$JS.API.CONSUMER.CREATE.${STREAM_A}`, '{}'],
    ["a named consumer on A's copies", `$JS.API.CONSUMER.CREATE.${STREAM_A}.c.pos.queue.S1.T-000A.>`, '{}'],
    ["A's fence put (a lane fenced)", '$KV.pos_fence.S1.T-000A', '{}'],
    ["A's fence read", '$JS.API.DIRECT.GET.KV_pos_fence.$KV.pos_fence.S1.T-000A', ''],
    ['the fence bucket read by sequence', '$JS.API.STREAM.MSG.GET.KV_pos_fence', '{"seq":1}'],
    ["A's fence watched", '$JS.API.CONSUMER.CREATE.KV_pos_fence.w.$KV.pos_fence.S1.T-000A', '{}'],
    ['the fence bucket changed', '$JS.API.STREAM.UPDATE.KV_pos_fence', '{"name":"KV_pos_fence"}'],
    ['the fence bucket purged (every fence lifted)', '$JS.API.STREAM.PURGE.KV_pos_fence', ''],
    ['the fence bucket deleted', '$JS.API.STREAM.DELETE.KV_pos_fence', ''],
    ["A's heartbeat put (a dead lane shown alive)", '$KV.pos_fleet.S1.T-000A', '{}'],
    ["A's heartbeat read", '$JS.API.DIRECT.GET.KV_pos_fleet.$KV.pos_fleet.S1.T-000A', ''],
    ["the heartbeats' keys listed", '$JS.API.STREAM.INFO.KV_pos_fleet', '{"subjects_filter":">"}'],
    ["A's enrolment put", '$KV.pos_enrol.S1.T-000A', '{}'],
    ['the enrolments read', '$JS.API.STREAM.MSG.GET.KV_pos_enrol', '{"seq":1}'],
    ["an event on A's subject", 'pos.events.S1.T-000A.sale', '{}'],
    ["the streams' names", '$JS.API.STREAM.NAMES', ''],
    ['the streams listed', '$JS.API.STREAM.LIST', ''],
    ["the account's figures", '$JS.API.INFO', ''],
  ])('lane B is refused %s', async (_, subject, body) => {
    await expect(laneB.request(subject, body, { timeout: 5_000 })).rejects.toThrow(
      new RegExp(`Permissions Violation for Publish to "${escaped(subject)}"`),
    )
  })

  it('lane B is refused a JetStream publish to A’s copy subject, as the client reports it', async () => {
    await expect(jetstream(laneB).publish('pos.queue.S1.T-000A.reversal.forged', new Uint8Array([1]))).rejects.toThrow(
      /Permissions Violation for Publish to "pos\.queue\.S1\.T-000A\.reversal\.forged"/,
    )
  })

  it.each([
    ["A's events", 'pos.events.S1.T-000A.>'],
    ["every lane's events", 'pos.events.>'],
    ["A's replies", `${laneInboxPrefix('S1', A)}.>`],
    ["the admin's replies", '_INBOX.>'],
    ['the fences as they are put', '$KV.pos_fence.>'],
    ['everything', '>'],
  ])('lane B may not listen to %s', async (_, subject) => {
    const subscription = laneB.subscribe(subject)
    const ended = await Promise.race([
      subscription.closed.then((error) => error?.message ?? 'closed without a word'),
      new Promise<string>((resolve) => setTimeout(() => resolve('not refused'), 5_000)),
    ])
    expect(ended).toMatch(new RegExp(`Permissions Violation for Subscription to "${escaped(subject)}"`))
  })

  it('the store admin does what the rescue, lifting a fence and the fleet need', async () => {
    const subjects = await admin.copySubjects(A, 3_000)
    expect(subjects).toHaveLength(1)
    const read = await admin.readCopies(A, subjects.length, 3_000)
    expect(read.map((copy) => copy.subject)).toEqual(subjects)
    expect(await admin.readLegacyCopies(A, 3_000)).toEqual([])
    expect(await admin.readEnrolmentHistory(A, 3_000)).toHaveLength(1)
    expect(await admin.readHeartbeatRaw(A, 3_000)).toBeDefined()
    expect((await admin.listHeartbeatsRaw(3_000)).map((beat) => beat.key)).toContain('S1.T-000A')
    const lanes = await readFleet(admin, 3_000)
    expect(lanes.find((lane) => lane.terminalId === A)?.fence).toMatchObject({ by: 'back office' })
    // The rescue erases what it sent; fencing and lifting by revision.
    expect(await admin.erase(subjects[0]!, 3_000, read[0]!.seq)).toBe(true)
    expect(await admin.copySubjects(A, 3_000)).toEqual([])
    const { revision } = (await readFenceEntry(admin, 'S1', A, 3_000))!
    await liftFence(admin, 'S1', A, 3_000, revision)
    expect(await readFenceEntry(admin, 'S1', A, 3_000)).toBeUndefined()
  })

  it('in a JetStream domain (a store server in a chain), a lane does its work through the domain’s API', async () => {
    const chained = await startStoreServer({ terminals: [A], domain: 'store17' })
    const settings = { servers: [chained.url], storeId: 'S1', domain: 'store17', name: 'test', maxAgeMs: MAX_AGE }
    const storeAdmin = new StoreConnection(adminConnectionSettings(settings, chained.adminSeed))
    const lane = new StoreConnection({ ...settings, terminalId: A, nkeySeed: chained.laneSeed(A) })
    const seen: Array<string | undefined> = []
    const stopWatch = lane.watchFence(A, (raw) => void seen.push(raw && new TextDecoder().decode(raw)))
    try {
      expect(await lane.copySubjects(A, 3_000)).toEqual([])
      await (await lane.jetstream(3_000)).publish(copySubject('S1', A, 'payment', 'd-1'), new Uint8Array([1]))
      expect(await lane.copySubjects(A, 3_000)).toEqual([copySubject('S1', A, 'payment', 'd-1')])
      expect(await lane.erase(copySubject('S1', A, 'payment', 'd-1'), 3_000)).toBe(true)
      await lane.putHeartbeat(A, '{}', 3_000)
      await lane.putEnrolment(A, enrolment, 3_000)
      expect(await lane.readFenceRaw(A, 3_000)).toBeUndefined()
      const fence = { storeId: 'S1', terminalId: A, rescuedAt: new Date().toISOString(), by: 'hub', rescueId: 'r-9' }
      await fenceTerminal(storeAdmin, fence, 3_000)
      expect(JSON.parse(new TextDecoder().decode((await lane.readFenceRaw(A, 3_000))!.raw))).toEqual(fence)
      expect(
        await until(
          () => seen,
          (s) => s.length > 0,
        ),
      ).toEqual([JSON.stringify(fence)])
      expect(
        chained
          .log()
          .split('\n')
          .filter((line) => /Violation/.test(line)),
      ).toEqual([])
    } finally {
      stopWatch()
      await lane.close()
      await storeAdmin.close()
      await chained.close()
    }
  })

  it('the old shared stream, retired as docs/store.md says, leaves the lanes their subjects and the admin its copies', async () => {
    const upgrading = await startStoreServer({ terminals: [A] })
    const settings = { servers: [upgrading.url], storeId: 'S1', name: 'test admin', maxAgeMs: MAX_AGE }
    const storeAdmin = new StoreConnection(adminConnectionSettings(settings, upgrading.adminSeed))
    const lane = new StoreConnection({ ...settings, terminalId: A, nkeySeed: upgrading.laneSeed(A), name: 'lane A' })
    try {
      // The stream every lane shared, with a copy of A's in it.
      const jsm = await storeAdmin.manager(3_000)
      await jsm.streams.add({ name: 'POS_QUEUE_S1', subjects: ['pos.queue.S1.>'], max_msgs_per_subject: 1 })
      await (await storeAdmin.jetstream(3_000)).publish(copySubject('S1', A, 'payment', 'old-1'), new Uint8Array([1, 2, 3]))
      // While it takes every lane's subjects, a lane cannot make its own stream, and says why.
      await expect(lane.ensureStream(3_000)).rejects.toThrow(/old shared stream must be retired first/)
      // `nats stream edit POS_QUEUE_S1 --subjects 'pos.retired.S1.>'`: its copies keep their subjects.
      const info = await jsm.streams.info('POS_QUEUE_S1')
      await jsm.streams.update('POS_QUEUE_S1', { ...info.config, subjects: ['pos.retired.S1.>'] })
      await lane.ensureStream(3_000)
      expect(await storeAdmin.readLegacyCopies(A, 3_000)).toEqual([
        { subject: copySubject('S1', A, 'payment', 'old-1'), seq: 1, data: new Uint8Array([1, 2, 3]) },
      ])
      expect(await storeAdmin.readLegacyCopies(B, 3_000)).toEqual([])
    } finally {
      await lane.close()
      await storeAdmin.close()
      await upgrading.close()
    }
  })

  it('`fleet --store-admin` and `rescue --store-admin` take the admin seed file; a file that is not one is said plainly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-permissions-cli-'))
    try {
      const config = join(dir, 'config.json')
      writeFileSync(
        config,
        JSON.stringify({
          mode: 'training',
          host: { offlineBaseUrl: 'https://127.0.0.1:1', baseUrl: 'https://127.0.0.1:1', aid: 'ACQ-0001' },
          merchant: { storeId: 'S1', terminalId: 'T-0009', merchantId: 'M1' },
          store: { servers: [server.url], recoveryPublicKey: recovery.publicKey },
        }),
      )
      const cli = (args: string[]) =>
        spawnSync(process.execPath, ['bin/pos-agent.js', '--config', config, '--data-dir', join(dir, 'data'), ...args], {
          encoding: 'utf8',
          timeout: 40_000,
          env: { ...process.env, POS_AGENT_CONFIG: '' },
        })
      const fleet = cli(['fleet', '--json', '--store-admin', server.seedFile('admin')])
      expect(fleet.stderr).toBe('')
      const lanes = JSON.parse(fleet.stdout) as Array<{ terminalId: string }>
      expect(lanes.map((lane) => lane.terminalId)).toContain(A)
      const notASeed = join(dir, 'not-a-seed')
      writeFileSync(notASeed, 'hello\n')
      const wrong = cli(['fleet', '--store-admin', notASeed])
      expect(wrong.status).toBe(3)
      expect(wrong.stderr).toMatch(/does not hold a user NKey seed/)
      const help = cli(['rescue', '--help'])
      expect(help.stdout).toMatch(/--store-admin <seed file>/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
