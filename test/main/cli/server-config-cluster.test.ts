/**
 * `pos-agent store server-config --cluster 3` end to end: the three files it writes start three real
 * `nats-server`s on 127.0.0.1 that form one JetStream cluster, and a lane configured with the three
 * servers and store.replicas: 3 makes its stream with three replicas and reads its copy as synced.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeConnectionOf } from '../../../src-main/app'
import { serverConfigCommand } from '../../../src-main/cli/commands/server-config-command'
import { EXIT } from '../../../src-main/cli/exit-codes'
import { MemorySecretStore, storeSecretAccount } from '../../../src-main/keychain'
import { classifyDurability, laneName, StoreConnection } from '../../../src-main/store'
import { natsServerAvailable, startNatsFromConfig } from '../../support/nats-server'
import { freePort } from '../../support/store-server'

/** A client port whose next two are free as well (three servers on one machine take three). */
async function threeFreePorts(): Promise<number> {
  for (;;) {
    const port = await freePort()
    if (port + 2 > 65_535) continue
    // The kernel hands out ports apart; the two after `port` are probed directly.
    const free = async (p: number) =>
      new Promise<boolean>((resolve) => {
        const server = createServer()
        server.once('error', () => resolve(false))
        server.listen(p, '127.0.0.1', () => server.close(() => resolve(true)))
      })
    if ((await free(port + 1)) && (await free(port + 2))) return port
  }
}

describe.skipIf(!natsServerAvailable())('store server-config --cluster 3', () => {
  let dir: string
  const children: ChildProcess[] = []
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pos-server-config-cluster-'))
  })
  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve()
            child.once('exit', () => resolve())
            child.kill('SIGKILL')
          }),
      ),
    )
    rmSync(dir, { recursive: true, force: true })
  })

  const start = async (file: string) => {
    children.push(await startNatsFromConfig(file))
  }

  it('refuses a cluster of other than three, and three --host that are not three, writing nothing', () => {
    const base = {
      store: 'S1',
      terminals: ['T-0001'],
      seeds: join(dir, 'bad-seeds'),
      listen: '127.0.0.1:4222',
      storeDir: join(dir, 'js'),
      now: () => new Date(),
    }
    const errors: string[] = []
    const original = console.error
    console.error = (text: string) => errors.push(text)
    try {
      expect(serverConfigCommand({ ...base, out: join(dir, 'bad.conf'), cluster: '5' })).toBe(EXIT.usage)
      expect(serverConfigCommand({ ...base, out: join(dir, 'bad.conf'), cluster: '3', hosts: ['a', 'b'] })).toBe(EXIT.usage)
      expect(serverConfigCommand({ ...base, out: join(dir, 'bad.conf'), hosts: ['a', 'b', 'c'] })).toBe(EXIT.usage)
    } finally {
      console.error = original
    }
    expect(errors.join('\n')).toMatch(/--cluster takes 3/)
    expect(errors.join('\n')).toMatch(/three --host/)
    expect(errors.join('\n')).toMatch(/--host and --cluster-port go with --cluster 3/)
    expect(existsSync(join(dir, 'bad-store-1.conf'))).toBe(false)
    expect(existsSync(join(dir, 'bad-seeds'))).toBe(false)
  })

  it('writes three files that three real servers start from, form one cluster, and a lane with store.replicas: 3 reads synced', async () => {
    const clientPort = await threeFreePorts()
    const clusterPort = await threeFreePorts()
    const seeds = join(dir, 'seeds')
    const printed: string[] = []
    const code = serverConfigCommand({
      store: 'S1',
      terminals: ['T-0001'],
      out: join(dir, 'store.conf'),
      seeds,
      listen: `127.0.0.1:${clientPort}`,
      storeDir: join(dir, 'js'),
      cluster: '3',
      clusterPort: String(clusterPort),
      hosts: [],
      now: () => new Date(),
      print: (text) => printed.push(text),
    })
    expect(code).toBe(EXIT.ok)
    const files = ['store-1', 'store-2', 'store-3'].map((name) => join(dir, `store-${name}.conf`))
    for (const file of files) expect(existsSync(file)).toBe(true)
    const summary = printed.join('\n')
    expect(summary).toMatch(/store\.replicas: 3/)
    // The version the files were written for is said: the installed one.
    expect(summary).toMatch(/Written for nats-server \d+\.\d+\.\d+, the one installed here/)
    expect(readFileSync(files[0]!, 'utf8')).toMatch(/has no sync_interval|sync_interval: always/)

    await Promise.all(files.map(start))

    const urls = [0, 1, 2].map((i) => `nats://127.0.0.1:${clientPort + i}`)
    const secrets = new MemorySecretStore()
    const seed = readFileSync(join(seeds, `${laneName('S1', 'T-0001')}.nk`), 'utf8').trim()
    await secrets.set(storeSecretAccount('nkey-seed', 'lane'), seed)
    const settings = await storeConnectionOf(
      { merchant: { storeId: 'S1' }, store: { servers: urls, nkey: 'lane', replicas: 3 } },
      secrets,
      86_400_000,
    )
    expect(settings?.replicas).toBe(3)
    const connection = new StoreConnection({ ...settings!, terminalId: 'T-0001', name: 'server-config-cluster-test' })
    try {
      // A cluster is a few seconds electing its JetStream leader: asked until it answers.
      let facts: { serverVersion: string | undefined; streamReplicas: number | undefined } | undefined
      let last: unknown
      for (let tries = 0; tries < 60 && !facts; tries++) {
        try {
          facts = await connection.durabilityFacts(2_000)
        } catch (error) {
          last = error
          await new Promise((resolve) => setTimeout(resolve, 500))
        }
      }
      if (!facts) throw last
      expect(facts.streamReplicas).toBe(3)
      expect(classifyDurability({ ...facts, syncAlwaysStated: false }).durability).toBe('synced')
    } finally {
      await connection.close()
    }
  })
})
