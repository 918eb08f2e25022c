/**
 * A real nats-server (Debian package `nats-server`) for tests: JetStream on, bound to 127.0.0.1 on
 * a port the kernel picks, its store in a temporary folder. `restart()` keeps the store and the
 * port (a store server that came back); `stop()` is a clean stop, `kill()` a SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commandAvailable, requireComponent } from './system'

export const NATS_INSTALL = 'run `scripts/install-system-deps.sh test` (apt-get install nats-server)'

export function natsServerAvailable(): boolean {
  return requireComponent('nats-server', commandAvailable('nats-server'), NATS_INSTALL)
}

export interface NatsServerOptions {
  /** JetStream domain of this server (a store server under a chain's hub). */
  domain?: string
  /** Listen for leaf-node connections (a chain's hub); the port is in `leafPort`. */
  leafListen?: boolean
  /** Connect to a hub as a leaf node (`nats-leaf://127.0.0.1:<port>`). */
  leafRemote?: string
  /** The JetStream API of this server is reachable from a hub (a store server in a chain). */
  jetstream?: boolean
  /** Clients must speak TLS with this certificate and key (PEM files); the URL is then `tls://`. */
  tls?: { certFile: string; keyFile: string }
}

export interface NatsServer {
  url: string
  port: number
  leafPort: number | undefined
  dir: string
  restart(): Promise<void>
  stop(): Promise<void>
  kill(): Promise<void>
  /** Freezes the server (SIGSTOP): up, connected, and answering nothing, as a hung machine. */
  pause(): void
  resume(): void
  close(): Promise<void>
}

export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-nats-'))
  let port = -1
  let leafPort: number | undefined = options.leafListen ? -1 : undefined
  let child: ChildProcess | undefined
  // The same name across restarts: JetStream keeps its streams under the server's identity.
  const name = `pos-test-${process.pid}-${Math.floor(Math.random() * 1e9)}`
  const write = () => {
    const lines = [
      `listen: "127.0.0.1:${port}"`,
      `server_name: "${name}"`,
      options.jetstream === false
        ? ''
        : `jetstream { store_dir: "${join(dir, 'js')}"${options.domain ? `, domain: "${options.domain}"` : ''} }`,
      leafPort !== undefined ? `leafnodes { listen: "127.0.0.1:${leafPort}" }` : '',
      options.leafRemote ? `leafnodes { remotes: [ { url: "${options.leafRemote}" } ] }` : '',
      options.tls ? `tls { cert_file: "${options.tls.certFile}", key_file: "${options.tls.keyFile}", timeout: 2 }` : '',
    ]
    writeFileSync(join(dir, 'server.conf'), lines.join('\n'))
  }
  const launch = async () => {
    write()
    const proc = spawn('nats-server', ['-c', join(dir, 'server.conf')], { stdio: ['ignore', 'pipe', 'pipe'] })
    child = proc
    let log = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server did not start in time:\n${log}`)), 10_000)
      const onData = (chunk: Buffer) => {
        log += chunk.toString()
        if (process.env.DEBUG_NATS) process.stderr.write(chunk)
        const client = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(log)
        const leaf = /Listening for leafnode connections on 127\.0\.0\.1:(\d+)/.exec(log)
        if (client && /Server is ready/.test(log) && (leafPort === undefined || leaf)) {
          port = Number(client[1])
          if (leaf) leafPort = Number(leaf[1])
          clearTimeout(timer)
          proc.stderr.off('data', onData)
          resolve()
        }
      }
      proc.stderr.on('data', onData)
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`nats-server exited with ${code}:\n${log}`))
      })
    })
    if (process.env.DEBUG_NATS) proc.stderr.on('data', (d: Buffer) => process.stderr.write(d))
    proc.stderr.resume()
  }
  const stopWith = async (signal: NodeJS.Signals) => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null) return
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve())
      proc.kill(signal)
    })
  }
  await launch()
  const server: NatsServer = {
    get url() {
      return `${options.tls ? 'tls' : 'nats'}://127.0.0.1:${port}`
    },
    get port() {
      return port
    },
    get leafPort() {
      return leafPort
    },
    dir,
    restart: async () => {
      await stopWith('SIGTERM')
      await launch()
    },
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    close: async () => {
      await stopWith('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return server
}

/**
 * A nats-server started from a configuration file written elsewhere (a cluster's member, a file the
 * command line wrote), resolved once it says it is ready; the caller stops it. `label` names it in errors.
 */
export async function startNatsFromConfig(file: string, label = file): Promise<ChildProcess> {
  const proc = spawn('nats-server', ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  await new Promise<void>((resolve, reject) => {
    // Not ready in time: stopped here, since the caller never gets it to stop.
    const timer = setTimeout(() => {
      proc.kill('SIGKILL')
      reject(new Error(`${label} did not start in time:\n${log}`))
    }, 15_000)
    const onData = (chunk: Buffer) => {
      log += chunk.toString()
      if (process.env.DEBUG_NATS) process.stderr.write(chunk)
      if (/Server is ready/.test(log)) {
        clearTimeout(timer)
        proc.stderr.off('data', onData)
        proc.stderr.resume()
        resolve()
      }
    }
    proc.stderr.on('data', onData)
    proc.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${label} exited with ${code}:\n${log}`))
    })
  })
  return proc
}
