/**
 * A store server as a store would run it: the configuration `pos-agent store server-config` writes
 * (one NKey user per lane, an admin user), started with the real `nats-server` on a free port of
 * 127.0.0.1, its log kept (it names every refused publish and subscription), and restarted on the same
 * store folder and port as a back-office machine that lost its power. And a TCP forwarder in front of
 * it that can be cut and restored, as a lane's network cable pulled and plugged back.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, Socket, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverConfigCommand } from '../../src-main/cli/commands/server-config-command'
import { laneName } from '../../src-main/store'

export interface StoreServer {
  url: string
  port: number
  dir: string
  /** The server's configuration file. */
  configFile: string
  /** The admin's seed, and each lane's. */
  adminSeed: string
  laneSeed(terminalId: string): string
  seedFile(terminalId: string | 'admin'): string
  /** What the server logged so far. */
  log(): string
  /** SIGKILL, then started again with the same configuration: the same store folder, the same port. */
  restart(): Promise<void>
  close(): Promise<void>
}

/** A port the kernel just gave and took back: free, as far as anyone can tell. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export async function startStoreServer(options: { storeId?: string; terminals: string[]; domain?: string }): Promise<StoreServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-store-server-'))
  const storeId = options.storeId ?? 'S1'
  const port = await freePort()
  const configFile = join(dir, 'nats.conf')
  const seeds = join(dir, 'seeds')
  const code = serverConfigCommand({
    store: storeId,
    terminals: options.terminals,
    out: configFile,
    seeds,
    listen: `127.0.0.1:${port}`,
    storeDir: join(dir, 'jetstream'),
    domain: options.domain,
    now: () => new Date(),
    print: () => undefined,
  })
  if (code !== 0) throw new Error(`server-config exited with ${code}`)
  const seedFile = (terminalId: string) => join(seeds, terminalId === 'admin' ? 'admin.nk' : `${laneName(storeId, terminalId)}.nk`)
  const seed = (terminalId: string) => readFileSync(seedFile(terminalId), 'utf8').trim()
  let log = ''
  let child: ChildProcess | undefined
  const launch = async () => {
    const proc = spawn('nats-server', ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
    child = proc
    let started = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server did not start in time:\n${started}`)), 10_000)
      proc.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString()
        started += chunk.toString()
        if (/Server is ready/.test(started)) {
          clearTimeout(timer)
          resolve()
        }
      })
      proc.once('exit', (exit) => {
        clearTimeout(timer)
        reject(new Error(`nats-server exited with ${exit}:\n${started}`))
      })
    })
  }
  const kill = async () => {
    const proc = child
    child = undefined
    if (proc && proc.exitCode === null && proc.signalCode === null)
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve())
        proc.kill('SIGKILL')
      })
  }
  await launch()
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    dir,
    configFile,
    adminSeed: seed('admin'),
    laneSeed: seed,
    seedFile,
    log: () => log,
    restart: async () => {
      await kill()
      await launch()
    },
    close: async () => {
      await kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface Forwarder {
  url: string
  /** Every connection through it dropped, and no new one taken, until `restore()`. */
  cut(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}

/** A TCP forwarder on a free port of 127.0.0.1 to `targetPort`. */
export async function startForwarder(targetPort: number): Promise<Forwarder> {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = async () => {
    const next = createServer((inbound) => {
      const outbound = new Socket()
      sockets.add(inbound).add(outbound)
      const drop = () => {
        inbound.destroy()
        outbound.destroy()
        sockets.delete(inbound)
        sockets.delete(outbound)
      }
      inbound.on('error', drop).on('close', drop)
      outbound.on('error', drop).on('close', drop)
      outbound.connect(targetPort, '127.0.0.1', () => {
        inbound.pipe(outbound)
        outbound.pipe(inbound)
      })
    })
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => resolve())
    })
    port = (next.address() as { port: number }).port
    server = next
  }
  const cut = async () => {
    const closing = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    if (closing) await new Promise((resolve) => closing.close(resolve))
  }
  await listen()
  return {
    get url() {
      return `nats://127.0.0.1:${port}`
    },
    cut,
    restore: listen,
    close: cut,
  }
}
