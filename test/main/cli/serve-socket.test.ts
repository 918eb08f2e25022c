/**
 * `pos-agent serve` under a service manager that keeps the port (systemd socket activation): the
 * listening socket is handed over as fd 3 with LISTEN_FDS and LISTEN_PID, the agent serves on it, and
 * the port is never free for another program while the agent restarts. Without the variables, or for
 * another process's pid, it binds its own port as usual.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { socketActivation } from '../../../src-main/cli/commands/serve-command'

const dir = mkdtempSync(join(tmpdir(), 'pos-serve-socket-'))
const children: ChildProcess[] = []
afterAll(async () => {
  for (const child of children) {
    const closed = new Promise((resolve) => child.once('close', resolve))
    child.kill('SIGTERM')
    await closed
  }
  rmSync(dir, { recursive: true, force: true })
})

describe('socket activation', () => {
  it('uses fd 3 only when the variables name this very process', () => {
    expect(socketActivation({ LISTEN_FDS: '1', LISTEN_PID: '42' }, 42)).toEqual({ listenFd: 3 })
    expect(socketActivation({ LISTEN_FDS: '1', LISTEN_PID: '41' }, 42)).toEqual({})
    expect(socketActivation({ LISTEN_FDS: '2', LISTEN_PID: '42' }, 42)).toEqual({})
    expect(socketActivation({}, 42)).toEqual({})
  })

  it('serves on the socket the service manager holds, whose port this process never bound', async () => {
    const holder: Server = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const port = (holder.address() as { port: number }).port
    const fd = (holder as unknown as { _handle: { fd: number } })._handle.fd
    // As systemd does: fd 3 is the socket, LISTEN_PID the pid that exec keeps.
    const child = spawn(
      'sh',
      ['-c', 'LISTEN_FDS=1 LISTEN_PID=$$ exec "$0" bin/pos-agent.js --data-dir "$1" serve --port 1', process.execPath, dir],
      {
        stdio: ['ignore', 'pipe', 'pipe', fd],
        env: { ...process.env, HOME: dir, CI: process.env.CI ?? '' },
      },
    )
    children.push(child)
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    const link = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no launch link: ${out}`)), 30_000)
      child.stdout!.on('data', () => {
        const match = /(http:\/\/127\.0\.0\.1:\d+\/\?launch=\S+)/.exec(out)
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    // The parent lets go of its copy: only the agent holds the socket now.
    await new Promise<void>((resolve) => holder.close(() => resolve()))
    expect(new URL(link).port).toBe(String(port))
    const health = await fetch(`http://127.0.0.1:${port}/v1/health`)
    expect(health.status).toBe(200)
  }, 60_000)
})
