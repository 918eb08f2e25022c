/**
 * A three-server store for tests: the three files `clusterConfigs` writes (one machine, three ports
 * of 127.0.0.1, each server with its own JetStream folder), run by Debian's real `nats-server`; each
 * server can be killed (SIGKILL) and started again on its own folder and ports, as a machine that
 * lost its power. `close()` stops them all and removes their folders.
 */
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nkeys } from '@nats-io/transport-node'
import { clusterConfigs, installedServerVersion, laneName, type ClusterNode } from '../../../src-main/store'
import { startNatsFromConfig } from '../../support/nats-server'
import { freePort } from '../../support/store-server'

export interface ClusterServer {
  node: ClusterNode
  url: string
  kill(): Promise<void>
  start(): Promise<void>
  readonly running: boolean
}

export interface ThreeServers {
  servers: ClusterServer[]
  urls: string[]
  adminSeed: string
  laneSeed(terminalId: string): string
  seedFile(terminalId: string): string
  /** The three configuration files' text, as written. */
  texts: string[]
  close(): Promise<void>
}

export async function startThreeServers(options: { storeId: string; terminals: string[] }): Promise<ThreeServers> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-three-servers-'))
  const seedsDir = join(dir, 'seeds')
  mkdirSync(seedsDir, { mode: 0o700 })
  const user = () => nkeys.createUser()
  const admin = user()
  const lanes = new Map(options.terminals.map((terminalId) => [terminalId, user()]))
  const seedOf = (pair: ReturnType<typeof user>) => new TextDecoder().decode(pair.getSeed())
  for (const [terminalId, pair] of lanes)
    writeFileSync(join(seedsDir, `${laneName(options.storeId, terminalId)}.nk`), `${seedOf(pair)}\n`, { mode: 0o600 })
  const nodes: ClusterNode[] = []
  for (const name of ['store-1', 'store-2', 'store-3'])
    nodes.push({
      name,
      host: '127.0.0.1',
      clientPort: await freePort(),
      clusterPort: await freePort(),
      storeDir: join(dir, name, 'jetstream'),
    })
  const configs = clusterConfigs({
    clusterName: 'pos-store',
    nodes,
    routeUser: 'store-route',
    routePassword: randomBytes(18).toString('base64url'),
    admin: admin.getPublicKey(),
    lanes: [...lanes].map(([terminalId, pair]) => ({ storeId: options.storeId, terminalId, publicKey: pair.getPublicKey() })),
    writtenAt: new Date().toISOString(),
    serverVersion: installedServerVersion(),
  })
  const servers = configs.map(({ node, text }) => {
    const file = join(dir, `${node.name}.conf`)
    writeFileSync(file, text)
    let child: ChildProcess | undefined
    const server: ClusterServer = {
      node,
      url: `nats://127.0.0.1:${node.clientPort}`,
      get running() {
        return child !== undefined
      },
      async start() {
        child = await startNatsFromConfig(file, node.name)
      },
      async kill() {
        const proc = child
        child = undefined
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
        await new Promise<void>((resolve) => {
          proc.once('exit', () => resolve())
          proc.kill('SIGKILL')
        })
      },
    }
    return server
  })
  try {
    await Promise.all(servers.map((server) => server.start()))
  } catch (error) {
    await Promise.all(servers.map((server) => server.kill()))
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    servers,
    urls: servers.map((server) => server.url),
    adminSeed: seedOf(admin),
    laneSeed: (terminalId) => seedOf(lanes.get(terminalId)!),
    seedFile: (terminalId) => join(seedsDir, `${laneName(options.storeId, terminalId)}.nk`),
    texts: configs.map(({ text }) => text),
    async close() {
      await Promise.all(servers.map((server) => server.kill()))
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
