/**
 * How safe the store's copy is (docs/store.md "How safe the store's copy is"), against Debian's
 * nats-server 2.9.10 on 127.0.0.1: a lane reads the server's version and its stream's replicas and
 * says `buffered` (one server, no `sync_interval`), whether or not the operator states
 * `store.syncAlways`; doctor, the fleet's line, the metrics and the heartbeat say it in plain words; a
 * store that requires `synced` refuses offline approvals while the copy is buffered, with an alarm.
 * The configuration `server-config` writes for this version starts the server; the one for 2.10 and
 * later (with `sync_interval: always`) is refused by it, which is why the version decides.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { nkeys } from '@nats-io/transport-node'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { checkStore } from '../../../src-main/app'
import { parseConfig } from '../../../src-main/config'
import { MemorySecretStore } from '../../../src-main/keychain'
import { AgentMetrics } from '../../../src-main/metrics/agent-metrics'
import {
  classifyDurability,
  clusterNodesOf,
  fleetTable,
  fleetView,
  installedServerVersion,
  makeCopyKeyPair,
  makeRecoveryKeyPair,
  readFleet,
  serverConfig,
  StoreConnection,
  StoreLink,
} from '../../../src-main/store'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { AID, eventually } from '../../support/engine-harness'
import { internalWordsIn } from '../../support/internal-words'
import { natsServerAvailable } from '../../support/nats-server'
import { copiesAtStore, startLane } from '../../support/store-lane'
import { freePort } from '../../support/store-server'
import { storeBed } from './store-bed'

const keys = makeRecoveryKeyPair('durability test passphrase')

/** Polls an asynchronous check until it finds something, at most 8 seconds. */
async function untilFound<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (const until = Date.now() + 8_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const found = await check()
    if (found !== undefined) return found
  }
  throw new Error('not found in time')
}
const laneKey = makeCopyKeyPair()

describe('the store copy is classified from what the store server says', () => {
  it('three replicas are synced on any version; one server is synced only with sync_interval: always on 2.10 or later', () => {
    expect(classifyDurability({ serverVersion: '2.9.10', streamReplicas: 3, syncAlwaysStated: false })).toMatchObject({
      durability: 'synced',
      label: 'on 3 servers',
    })
    expect(classifyDurability({ serverVersion: '2.10.22', streamReplicas: 1, syncAlwaysStated: true })).toMatchObject({
      durability: 'synced',
      label: 'on disk',
    })
    expect(classifyDurability({ serverVersion: 'v2.11.0-RC.1', streamReplicas: 1, syncAlwaysStated: true }).durability).toBe('synced')
    expect(classifyDurability({ serverVersion: '3.0.0', streamReplicas: 1, syncAlwaysStated: true }).durability).toBe('synced')
    // Not stated: a client cannot read sync_interval, so it counts as the default (two minutes).
    expect(classifyDurability({ serverVersion: '2.12.1', streamReplicas: 1, syncAlwaysStated: false }).durability).toBe('buffered')
    const old = classifyDurability({ serverVersion: '2.9.10', streamReplicas: 1, syncAlwaysStated: true })
    expect(old.durability).toBe('buffered')
    expect(old.words).toMatch(/store\.syncAlways is set, but nats-server 2\.9\.10 cannot write every copy at once \(2\.10 or later can\)/)
    expect(classifyDurability({ serverVersion: undefined, streamReplicas: undefined, syncAlwaysStated: true }).durability).toBe('buffered')
    expect(classifyDurability({ serverVersion: 'junk', streamReplicas: 1, syncAlwaysStated: true }).durability).toBe('buffered')
  })

  it('server-config writes sync_interval: always for 2.10 and later, and for 2.9 a comment saying what it lacks', () => {
    const base = {
      listen: '127.0.0.1:4222',
      storeDir: '/var/lib/nats/jetstream',
      admin: 'UADMIN',
      lanes: [],
      writtenAt: '2026-11-28T00:00:00Z',
    }
    const current = serverConfig({ ...base, serverVersion: '2.10.22' })
    expect(current).toMatch(/^ {2}sync_interval: always$/m)
    expect(current).toMatch(/# Every copy on disk before the store server acknowledges it/)
    const old = serverConfig({ ...base, serverVersion: '2.9.10' })
    expect(old).not.toMatch(/^\s*sync_interval/m)
    expect(old).toMatch(/# nats-server 2\.9\.10 has no sync_interval \(2\.10 or later has\)/)
    const unknown = serverConfig(base)
    expect(unknown).toMatch(/^ {2}# sync_interval: always$/m)
  })

  it('--cluster 3 places three servers on one machine (three ports each) or on three hosts', () => {
    expect(clusterNodesOf({ host: '0.0.0.0', clientPort: 4222, clusterPort: 6222, storeDir: '/var/lib/nats/jetstream/' })).toEqual([
      { name: 'store-1', host: '0.0.0.0', clientPort: 4222, clusterPort: 6222, storeDir: '/var/lib/nats/jetstream/store-1' },
      { name: 'store-2', host: '0.0.0.0', clientPort: 4223, clusterPort: 6223, storeDir: '/var/lib/nats/jetstream/store-2' },
      { name: 'store-3', host: '0.0.0.0', clientPort: 4224, clusterPort: 6224, storeDir: '/var/lib/nats/jetstream/store-3' },
    ])
    expect(
      clusterNodesOf({ host: '0.0.0.0', clientPort: 4222, clusterPort: 6222, storeDir: '/srv/js', hosts: ['bo-1', 'bo-2', 'bo-3'] }).map(
        (node) => [node.name, node.host, node.clientPort, node.clusterPort, node.storeDir],
      ),
    ).toEqual([
      ['store-1', 'bo-1', 4222, 6222, '/srv/js'],
      ['store-2', 'bo-2', 4222, 6222, '/srv/js'],
      ['store-3', 'bo-3', 4222, 6222, '/srv/js'],
    ])
    expect(() => clusterNodesOf({ host: 'h', clientPort: 4222, clusterPort: 4223, storeDir: '/s' })).toThrow(/overlap/)
    expect(() => clusterNodesOf({ host: 'h', clientPort: 4222, clusterPort: 6222, storeDir: '/s', hosts: ['a', 'a', 'b'] })).toThrow(
      /three different hosts/,
    )
  })
})

describe.runIf(natsServerAvailable())("the store copy against Debian's nats-server", () => {
  const bed = storeBed('pos-durability-', { recoveryPublicKey: keys.publicKey, copyKey: laneKey.privateJwk })

  const open = (reader: ScriptedCardReader, link: { requireDurable?: boolean; syncAlways?: boolean }) =>
    startLane({ ...bed.laneOptions(reader), heartbeatMs: 200 }, link)

  it('the configuration written for the installed version starts it; the one for 2.10 and later is refused by 2.9', async () => {
    const version = installedServerVersion()
    expect(version).toMatch(/^\d+\.\d+\.\d+/)
    const start = async (text: string): Promise<string> => {
      const file = join(bed.dir, `nats-${Math.random().toString(36).slice(2)}.conf`)
      writeFileSync(file, text)
      const child = spawn('nats-server', ['-c', file], { stdio: ['ignore', 'pipe', 'pipe'] })
      let log = ''
      return new Promise<string>((resolve) => {
        const done = (what: string) => {
          clearTimeout(timer)
          if (child.exitCode === null) child.kill('SIGKILL')
          resolve(what)
        }
        const timer = setTimeout(() => done(`no answer:\n${log}`), 10_000)
        child.stderr.on('data', (chunk: Buffer) => {
          log += chunk.toString()
          if (/Server is ready/.test(log)) done('ready')
        })
        child.once('exit', () => done(`exited:\n${log}`))
      })
    }
    const input = async (serverVersion: string | undefined) => ({
      listen: `127.0.0.1:${await freePort()}`,
      storeDir: join(bed.dir, 'js'),
      admin: nkeys.createUser().getPublicKey(),
      lanes: [],
      writtenAt: new Date().toISOString(),
      serverVersion,
    })
    expect(await start(serverConfig(await input(version)))).toBe('ready')
    if (version?.startsWith('2.9.')) {
      const refused = await start(serverConfig(await input('2.10.0')))
      expect(refused).toMatch(/unknown field "sync_interval"/)
    }
  })

  it('a lane on one 2.9.10 server says buffered, even with store.syncAlways stated; doctor, the fleet, the metrics and the heartbeat say it', async () => {
    const reader = new ScriptedCardReader()
    bed.lane = await open(reader, { syncAlways: true })
    const link = bed.lane.wiring.link
    const reading = await eventually(() => link.durability(), 8_000)
    expect(reading.durability).toBe('buffered')
    expect(reading.serverVersion).toBe(installedServerVersion())
    expect(reading.replicas).toBe(1)
    expect(reading.words).toMatch(/store\.syncAlways is set, but nats-server 2\.9\.10 cannot write every copy at once/)
    expect(reading.words).toMatch(/a power cut at the store server in that time loses the copies it took/)
    // Without requireDurable, buffered is said, not alarmed: offline approvals go on.
    expect(bed.lane.engine.alarms.map((a) => a.code)).not.toContain('STORE_COPY_BUFFERED')
    // The status line's words for it, through the engine the service reads the queue status from.
    expect(bed.lane.engine.storeCopy()).toEqual({
      words: 'Copies: held in memory on the store server — a power cut there can lose the last two minutes',
      synced: false,
    })

    const metrics = new AgentMetrics({ info: { terminalId: 'T-0001', mode: 'test', currency: 'USD' }, alarmCodes: [] })
    metrics.watchStoreCopy(() => link.durability()?.durability)
    const scraped = await metrics.registry.metrics()
    expect(scraped).toMatch(/pos_agent_store_copy\{durability="buffered"\} 1/)
    expect(scraped).toMatch(/pos_agent_store_copy\{durability="synced"\} 0/)
    metrics.close()

    // The fleet reads it from the lane's heartbeat.
    const admin = new StoreConnection({ servers: [bed.nats.url], storeId: 'S1', name: 'fleet', maxAgeMs: 3_600_000 })
    try {
      const lanes = await untilFound(async () => {
        const view = fleetView(await readFleet(admin, 3_000), Date.now())
        return view[0]?.heartbeat?.storeCopy ? view : undefined
      })
      expect(lanes[0]!.heartbeat).toMatchObject({ storeCopy: 'buffered', storeCopyLabel: 'in memory only' })
      expect(fleetTable(lanes)).toMatch(/S1 T-0001 .* store copy: in memory only, lost if the store server loses power\n {2}ok/)
    } finally {
      await admin.close()
    }

    // doctor, with the lane's configuration: a warning in plain words.
    const config = parseConfig(
      {
        mode: 'production',
        host: { offlineBaseUrl: bed.host.url, baseUrl: bed.host.url, aid: AID },
        merchant: { storeId: 'S1', terminalId: 'T-0001', merchantId: 'M1', pspInfo: { mcc: '5812' } },
        currency: 'USD',
        store: { servers: [bed.nats.url], recoveryPublicKey: keys.publicKey, syncAlways: true },
      },
      join(bed.dir, 'config.json'),
    )
    const findings: Array<{ level: string; area: string; text: string }> = []
    await checkStore(config, new MemorySecretStore(), bed.dir, (level, area, text) => void findings.push({ level, area, text }))
    const copy = findings.find((f) => f.area === 'store copy')
    expect(copy).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(/^buffered: store\.syncAlways is set, but nats-server 2\.9\.10/),
    })
  })

  it('the status line learns the copy’s class the moment it is read, and only when it changes', async () => {
    const link = new StoreLink(
      {
        servers: [bed.nats.url],
        storeId: 'S1',
        terminalId: 'T-0001',
        recoveryPublicKey: keys.publicKey,
        copyKey: undefined,
        enrolment: undefined,
        requireReplica: false,
        ackTimeoutMs: 1_000,
        heartbeatMs: 60_000,
        maxAgeMs: 3_600_000,
        version: 'test',
      },
      pino({ level: 'silent' }),
    )
    const told: Array<{ words: string; synced: boolean }> = []
    const stop = link.onCopyViewChange(() => told.push(link.copyView()))
    try {
      expect(link.copyView().words).not.toMatch(/memory/)
      await link.readDurability(3_000)
      expect(told).toEqual([
        { words: 'Copies: held in memory on the store server — a power cut there can lose the last two minutes', synced: false },
      ])
      // Read again (once a minute, after a reconnect): the same class tells nobody.
      await link.readDurability(3_000)
      expect(told).toHaveLength(1)
    } finally {
      stop()
      await link.close()
    }
  })

  it('store.requireDurable on a buffered store: offline approvals are refused with an alarm in plain words, online sales go on', async () => {
    const reader = new ScriptedCardReader().present({ card: TEST_CARDS.chipVisa() }, { card: TEST_CARDS.chipVisa() })
    bed.lane = await open(reader, { requireDurable: true })
    await eventually(() => bed.lane!.wiring.link.durability(), 8_000)
    const alarm = bed.lane.engine.alarms.find((a) => a.code === 'STORE_COPY_BUFFERED')
    expect(alarm?.message).toMatch(
      /^Offline approvals are refused: this store requires every copy on disk or on three servers, and the store server keeps its copies in memory only \(nats-server 2\.9\.10, one server\)/,
    )
    expect(internalWordsIn(alarm!.message)).toEqual([])

    const online = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 1_500, currency: 'USD' }).id)
    expect(online.state).toBe('approved')
    bed.host.setFault('*', 'http-503')
    const offline = await bed.lane.engine.txn.waitForOutcome(bed.lane.engine.txn.sales.start({ amountMinor: 4_200, currency: 'USD' }).id)
    expect(offline.state).toBe('declined')
    expect(offline.reason).toMatch(/can't be approved offline now: .*try again when the bank is back, or take another payment/)
    // Nothing was stored, and nothing was published for it.
    expect(bed.lane.engine.forwarder.status().storedCount).toBe(0)
    expect(await copiesAtStore(bed.nats.url, 'T-0001')).toEqual([])

    // doctor fails it, saying why.
    const config = parseConfig(
      {
        mode: 'production',
        host: { offlineBaseUrl: bed.host.url, baseUrl: bed.host.url, aid: AID },
        merchant: { storeId: 'S1', terminalId: 'T-0001', merchantId: 'M1', pspInfo: { mcc: '5812' } },
        currency: 'USD',
        store: { servers: [bed.nats.url], recoveryPublicKey: keys.publicKey, requireDurable: true },
      },
      join(bed.dir, 'config.json'),
    )
    const findings: Array<{ level: string; area: string; text: string }> = []
    await checkStore(config, new MemorySecretStore(), bed.dir, (level, area, text) => void findings.push({ level, area, text }))
    expect(findings.find((f) => f.area === 'store copy')).toMatchObject({
      level: 'fail',
      text: expect.stringMatching(/^buffered: .*store\.requireDurable is set, so this terminal refuses offline approvals$/),
    })
  })
})
