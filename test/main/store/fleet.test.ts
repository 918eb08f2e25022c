/**
 * The fleet in view against real nats-servers: every lane's heartbeat in the store's bucket, read by
 * `pos-agent fleet` with what needs a person; a chain's hub sees a store's lanes through a leaf node;
 * and the recovery key made by the real command line opens only with its passphrase.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fleetCommand } from '../../../src-main/cli/commands/store-commands'
import { MemorySecretStore } from '../../../src-main/keychain'
import { makeRecoveryKeyPair, openRecoveryPrivateKey } from '../../../src-main/store'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { ScriptedCardReader } from '../../fakes/scripted-card-reader'
import { AID, KEY } from '../../support/engine-harness'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'
import { startLane, type Lane } from '../../support/store-lane'

const keys = makeRecoveryKeyPair('fleet test passphrase')
const MAX_AGE = 96 * 3_600_000

describe.runIf(natsServerAvailable())('the fleet in view', () => {
  let dir: string
  let host: TrainingHost
  const servers: NatsServer[] = []
  const lanes: Lane[] = []

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-fleet-'))
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
  })
  afterEach(async () => {
    for (const lane of lanes.splice(0)) await lane.close()
    await host.close()
    for (const server of servers.splice(0)) await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const lane = async (natsUrl: string, terminalId: string) => {
    const opened = await startLane({
      dir: join(dir, terminalId),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl,
      terminalId,
      reader: new ScriptedCardReader(),
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
      heartbeatMs: 200,
    })
    lanes.push(opened)
    return opened
  }

  const fleet = async (settings: Parameters<typeof fleetCommand>[0]) => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    try {
      const code = await fleetCommand(settings, true)
      return { code, lanes: JSON.parse(String(log.mock.calls.at(-1)?.[0])) as Array<{ terminalId: string; needsPerson: string[] }> }
    } finally {
      log.mockRestore()
    }
  }

  it('lists every lane of the store and says which one needs a person', async () => {
    const nats = await startNatsServer()
    servers.push(nats)
    await lane(nats.url, 'T-0001')
    const second = await lane(nats.url, 'T-0002')
    const settings = [{ servers: [nats.url], storeId: 'S1', maxAgeMs: MAX_AGE }]
    await until(async () => (await fleet(settings)).lanes.length === 2)
    const healthy = await fleet(settings)
    expect(healthy.code).toBe(0)
    expect(healthy.lanes.map((l) => [l.terminalId, l.needsPerson])).toEqual([
      ['T-0001', []],
      ['T-0002', []],
    ])
    // A lane that stops beating is a lane a person must look at.
    await second.close()
    lanes.splice(lanes.indexOf(second), 1)
    await until(async () => (await fleet(settings)).code === 1)
    const silent = await fleet(settings)
    expect(silent.lanes.find((l) => l.terminalId === 'T-0002')?.needsPerson[0]).toMatch(/^not heard from for \d+ seconds$/)
    expect(silent.lanes.find((l) => l.terminalId === 'T-0001')?.needsPerson).toEqual([])
  })

  it("a chain's hub sees a store's heartbeats through a leaf node", async () => {
    const hub = await startNatsServer({ leafListen: true, domain: 'hub' })
    servers.push(hub)
    const storeServer = await startNatsServer({ domain: 'store1', leafRemote: `nats-leaf://127.0.0.1:${hub.leafPort}` })
    servers.push(storeServer)
    await lane(storeServer.url, 'T-0001')
    const throughHub = [{ servers: [hub.url], storeId: 'S1', domain: 'store1', maxAgeMs: MAX_AGE }]
    await until(async () => (await fleet(throughHub).catch(() => ({ lanes: [] }))).lanes.length === 1, 15_000)
    expect((await fleet(throughHub)).lanes).toMatchObject([{ terminalId: 'T-0001', needsPerson: [] }])
  })
})

describe("the store's commands as a manager finds them", () => {
  it.each([
    [['rescue', '--help'], /--terminal <id>[\s\S]*--recovery-key <file>[\s\S]*--report-dir/],
    [['fleet', '--help'], /what needs a\s+person[\s\S]*--domain/],
    [['store', '--help'], /keygen[\s\S]*password[\s\S]*nkey/],
  ])('%j explains itself', (args, expected) => {
    const run = spawnSync(process.execPath, ['bin/pos-agent.js', ...args], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(expected)
  })
})

describe('pos-agent store keygen', () => {
  it('writes an owner-only private key that opens only with its passphrase, and prints the public key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-keygen-'))
    try {
      const file = join(dir, 'recovery.pem')
      const run = spawnSync(process.execPath, ['bin/pos-agent.js', 'store', 'keygen', '--out', file], {
        input: 'a long passphrase here\n',
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(run.status, run.stderr).toBe(0)
      const publicKey = /store\.recoveryPublicKey:\n([A-Za-z0-9_-]{43})/.exec(run.stdout)?.[1]
      expect(publicKey).toBeDefined()
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(openRecoveryPrivateKey(readFileSync(file, 'utf8'), 'a long passphrase here').publicKey).toBe(publicKey)
      expect(() => openRecoveryPrivateKey(readFileSync(file, 'utf8'), 'another passphrase')).toThrow(/wrong passphrase/)
      const again = spawnSync(process.execPath, ['bin/pos-agent.js', 'store', 'keygen', '--out', file], {
        input: 'x'.repeat(20),
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(again.status).not.toBe(0)
      expect(again.stderr).toMatch(/never overwritten/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

async function until(check: () => Promise<boolean>, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 150))
  }
}
