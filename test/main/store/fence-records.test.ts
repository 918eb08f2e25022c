/**
 * Bad records never take a lane down (docs/store.md "What the store trusts, and what it does not"),
 * against the real nats-server with the configuration `pos-agent store server-config` writes and the
 * real engine: a fence that does not parse, put with the store's admin credential, leaves the agent
 * starting and selling online, counts as a fence (offline approvals and forwarding stop) and names
 * its record in plain words in the alarm, the metrics and the heartbeat go on; `fleet` reads the
 * fences itself and says a heartbeat that does not read is one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fleetCommand } from '../../../src-main/cli/commands/store-commands'
import { MemorySecretStore, storeSecretAccount } from '../../../src-main/keychain'
import { nkeys } from '@nats-io/transport-node'
import { checkStore } from '../../../src-main/app'
import { parseConfig } from '../../../src-main/config'
import { AgentMetrics } from '../../../src-main/metrics'
import {
  adminConnectionSettings,
  FENCE_BUCKET,
  fenceTerminal,
  FLEET_BUCKET,
  makeRecoveryKeyPair,
  parseHeartbeat,
  StoreConnection,
} from '../../../src-main/store'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { AID, eventually, KEY } from '../../support/engine-harness'
import { internalWordsIn } from '../../support/internal-words'
import { natsServerAvailable } from '../../support/nats-server'
import { startLane, type Lane } from '../../support/store-lane'
import { startStoreServer, type StoreServer } from '../../support/store-server'

const keys = makeRecoveryKeyPair('fence records passphrase')
const MAX_AGE = 96 * 3_600_000
const MALFORMED = '{"storeId":"S1","terminalId":"T-0001","rescuedAt":5,"by":"x","rescueId":"x"}'
const RECORD = "key S1.T-0001 in the store server's pos_fence bucket"

describe.runIf(natsServerAvailable())('a record at the store that does not read', () => {
  let dir: string
  let server: StoreServer
  let host: TrainingHost
  let admin: StoreConnection
  let lane: Lane | undefined

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-fence-records-'))
    server = await startStoreServer({ terminals: ['T-0001', 'T-0002'] })
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
    admin = new StoreConnection(
      adminConnectionSettings({ servers: [server.url], storeId: 'S1', name: 'test admin', maxAgeMs: MAX_AGE }, server.adminSeed),
    )
  })
  afterEach(async () => {
    await lane?.close()
    lane = undefined
    await admin.close()
    await host.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const open = (reader: ScriptedCardReader, heartbeatMs = 200) =>
    startLane({
      dir: join(dir, 'T-0001'),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl: server.url,
      terminalId: 'T-0001',
      nkeySeed: server.laneSeed('T-0001'),
      reader,
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
      heartbeatMs,
    })

  const put = async (bucket: typeof FENCE_BUCKET | typeof FLEET_BUCKET, key: string, value: string) =>
    (await admin.bucket(bucket, 3_000)).put(key, value)

  it("doctor names a malformed fence, says whether the terminal is enrolled, and a lane's own credentials are enough to read it", async () => {
    const nkey = nkeys.fromSeed(new TextEncoder().encode(server.laneSeed('T-0001'))).getPublicKey()
    const config = parseConfig(
      {
        mode: 'production',
        host: { offlineBaseUrl: host.url, baseUrl: host.url, aid: AID },
        merchant: { storeId: 'S1', terminalId: 'T-0001', merchantId: 'M1', pspInfo: { mcc: '5812' } },
        currency: 'USD',
        store: { servers: [server.url], nkey, recoveryPublicKey: keys.publicKey },
      },
      join(dir, 'config.json'),
    )
    const secrets = new MemorySecretStore()
    await secrets.set(storeSecretAccount('nkey-seed', nkey), server.laneSeed('T-0001'))
    const findings: Array<{ level: string; area: string; text: string }> = []
    const add = (level: string, area: string, text: string) => void findings.push({ level, area, text })
    await checkStore(config, secrets, dir, add)
    expect(findings).toEqual([
      expect.objectContaining({ level: 'fail', area: 'store enrolment', text: expect.stringMatching(/not enrolled/) }),
      // One Debian nats-server: its copies are in memory for up to two minutes (docs/store.md).
      expect.objectContaining({ level: 'warn', area: 'store copy', text: expect.stringMatching(/^buffered: /) }),
      expect.objectContaining({ level: 'ok', area: 'store fence', text: expect.stringMatching(/not fenced/) }),
    ])
    await put(FENCE_BUCKET, 'S1.T-0001', MALFORMED)
    findings.length = 0
    await checkStore(config, secrets, dir, add)
    const fence = findings.find((f) => f.area === 'store fence')
    expect(fence).toMatchObject({ level: 'fail' })
    expect(fence!.text).toContain(RECORD)
    expect(internalWordsIn(fence!.text)).toEqual([])
  })

  it('a malformed fence: the agent starts, sells online, stores nothing offline, forwards nothing, and its alarm names the record', async () => {
    await put(FENCE_BUCKET, 'S1.T-0001', MALFORMED)
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    lane = await open(reader)
    const engine = lane.engine

    const alarm = engine.alarms.find((a) => a.code === 'QUEUE_RESCUED')
    expect(alarm?.message).toContain(RECORD)
    expect(alarm?.message).toMatch(/online sales go on/)
    expect(internalWordsIn(alarm!.message)).toEqual([])

    // Online sales go on.
    const online = await engine.txn.waitForOutcome(engine.txn.sales.start({ amountMinor: 2_000, currency: 'USD' }).id)
    expect(online.state).toBe('approved')
    // Offline approvals stop: a fence of unknown details is a fence.
    host.setFault('*', 'http-503')
    const offline = await engine.txn.waitForOutcome(engine.txn.sales.start({ amountMinor: 2_100, currency: 'USD' }).id)
    expect(offline.state).not.toBe('storedOffline')
    await expect(engine.forwarder.forwardNow()).rejects.toMatchObject({ code: 'QUEUE_RESCUED' })

    // The metrics read the alarms; the heartbeat goes on, saying the lane counts itself fenced.
    const metrics = new AgentMetrics({ info: { terminalId: 'T-0001', mode: 'test', currency: 'USD' }, alarmCodes: ['QUEUE_RESCUED'] })
    metrics.watch({ txn: engine.txn, forwarder: engine.forwarder, journal: engine.journal, reader, alarms: () => engine.alarms })
    expect(await metrics.registry.metrics()).toMatch(/pos_agent_alarms\{code="QUEUE_RESCUED"\} 1/)
    metrics.close()
    const beat = await until(async () => {
      const found = await admin.readHeartbeatRaw('T-0001', 3_000)
      return found && parseHeartbeat(found.raw, 'S1', 'T-0001')?.fenced ? found : undefined
    })
    expect(parseHeartbeat(beat.raw, 'S1', 'T-0001')).toMatchObject({ fenced: true })
  })

  it('a malformed fence put while the lane runs fences it at once, alarmed, nothing thrown', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() })
    lane = await open(reader)
    expect(lane.engine.alarms.map((a) => a.code)).not.toContain('QUEUE_RESCUED')
    await put(FENCE_BUCKET, 'S1.T-0001', 'this is not a fence')
    const alarm = await eventually(() => lane!.engine.alarms.find((a) => a.code === 'QUEUE_RESCUED'))
    expect(alarm.message).toContain(RECORD)
    expect(lane.wiring.link.replicaState().fenced).toBe(true)
    expect(await lane.wiring.link.replica.confirm([])).toBe(false)
    const online = await lane.engine.txn.waitForOutcome(lane.engine.txn.sales.start({ amountMinor: 1_500, currency: 'USD' }).id)
    expect(online.state).toBe('approved')
  })

  it('`fleet` reads the fences itself: a rescued lane, a fence that does not read, a heartbeat that does not read', async () => {
    // A heartbeat a minute: the lane is not "silent" by the time the table is read on a busy machine.
    lane = await open(new ScriptedCardReader(), 60_000)
    // Its heartbeat written now (a first one at start may have met a store still making its bucket);
    // until the bucket is there, a read of it gets no answer at all (a timeout).
    await until(async () => {
      await lane!.wiring.link.heartbeat()
      return admin.readHeartbeatRaw('T-0001', 3_000).catch(() => undefined)
    }, 20_000)
    await fenceTerminal(
      admin,
      { storeId: 'S1', terminalId: 'T-0001', rescuedAt: '2026-11-20T09:15:00.000Z', by: 'lane-2', rescueId: 'r-1' },
      3_000,
    )
    await put(FLEET_BUCKET, 'S1.T-0002', '{"storeId":"S1","terminalId":"T-0002","lastSeen":"yesterday"}')
    await put(FENCE_BUCKET, 'S1.T-0003', MALFORMED)
    const out: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
    let code: number
    try {
      code = await fleetCommand(
        [adminConnectionSettings({ servers: [server.url], storeId: 'S1', maxAgeMs: MAX_AGE }, server.adminSeed)],
        false,
        // A loaded test machine answers slower than a store's back office: each read gets longer.
        20_000,
      )
    } finally {
      log.mockRestore()
    }
    expect(code).toBe(1)
    const table = out.join('\n')
    expect(table).toMatch(/S1 T-0001 .*\n {2}NEEDS A PERSON: rescued on 2026-11-20 09:15 from lane-2: check it before using it again/)
    expect(table).toContain(
      "S1 T-0002\n  NEEDS A PERSON: its last heartbeat cannot be read (key S1.T-0002 in the store server's pos_fleet bucket)",
    )
    expect(table).toContain(
      "S1 T-0003\n  NEEDS A PERSON: a fence for it is at the store server but cannot be read (key S1.T-0003 in the store server's pos_fence bucket)",
    )
    expect(internalWordsIn(table.replace(/pos_\w+/g, ''))).toEqual([])
  })
})

/** Polls an async reading until it gives something, or fails after `timeoutMs`. */
async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
