/**
 * One cold start of the command line, timed from spawn to the first successful HTTP answer: the
 * command the package declares (package.json "bin", what `npm start` runs where Electron cannot start)
 * with `serve` in training mode on a given data folder, polled on 127.0.0.1 until `/v1/health` answers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'

const START_DEADLINE_MS = 120_000
const POLL_MS = 5

/** The command line's entry point as the package declares it. */
export function cliEntry(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin?: Record<string, string> }
  const entry = pkg.bin?.['pos-agent']
  if (!entry) throw new Error('package.json declares no "pos-agent" command (bin)')
  return entry
}

function newest(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name)
    return Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)
}

/** Builds the app as `npm start` does (scripts/start.mjs) when the build is missing or older than the sources. */
export function ensureBuilt(root: string): void {
  const built = join(root, 'out/renderer/index.html')
  const stale =
    !existsSync(built) || ['src-main', 'src-renderer', 'src-shared'].some((d) => newest(join(root, d)) > statSync(built).mtimeMs)
  if (!stale) return
  console.error('[start] building the app (electron-vite build)...')
  const build = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
    timeout: 600_000,
  })
  if (build.status !== 0) throw new Error(`the build failed (status ${build.status})`)
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/health', agent: false, timeout: 2_000 }, (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode === 200))
    })
    req.once('timeout', () => req.destroy())
    req.once('error', () => resolve(false))
    req.end()
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.kill('SIGTERM')
  const ended = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))])
  if (!ended && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL') // its own process group: the socat pair of the simulated PIN pad too
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
  }
}

/** Milliseconds from spawning `serve` on `dataDir` to its first 200 on 127.0.0.1; the agent is stopped again. */
export async function timeColdStart(root: string, dataDir: string, configHome: string): Promise<number> {
  const port = await freePort()
  const output: string[] = []
  const started = performance.now()
  const child = spawn(process.execPath, [cliEntry(root), '--data-dir', dataDir, 'serve', '--port', String(port)], {
    cwd: root,
    env: { ...process.env, POS_AGENT_CONFIG: '', POS_AGENT_DATA_DIR: dataDir, XDG_CONFIG_HOME: configHome },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const keep = (chunk: Buffer): void => void output.push(chunk.toString('utf8'))
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  try {
    while (!(await healthy(port))) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`serve exited (code ${child.exitCode ?? child.signalCode}) before answering:\n${output.join('')}`)
      if (performance.now() - started > START_DEADLINE_MS)
        throw new Error(`serve did not answer within ${START_DEADLINE_MS / 1000} s:\n${output.join('')}`)
      await new Promise((r) => setTimeout(r, POLL_MS))
    }
    return performance.now() - started
  } finally {
    await stop(child)
  }
}
