/**
 * No caller can take the local server's connections: a read-only token minting customer displays and
 * holding their event streams, and one program holding more connections than the cap, half-sent and
 * reopened as they are cut, each run as a process of its own against the real server on 127.0.0.1,
 * while the cashier window and a POS with its token go on being served. Also: an idle connection is
 * cut and a live event stream, however quiet, is not; the cap stays below the files the process may
 * open; credentials that open nothing are in the audit trail, counted. The caps are set low through
 * the server's options (a few hundred sockets prove the mechanism), except in the test of the cap
 * sized for a process allowed 1,024 files, which runs `serve` itself under that limit.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectionCapWithin, FILES_KEPT, openFileLimit, SERVER_LIMITS, serverLimitsFor } from '../../../src-main/api'
import { fileLimitOf } from '../../../src-main/api/connection-guard'
import { WINDOWS_PER_OPENER } from '../../../src-main/service'
import { displayHoarder, flood } from '../../support/connection-attackers'
import { startApiHarness, type ApiHarness } from './api-harness'
import { SseClient } from './sse-client'

type Answer = { status: number; code?: string }

async function as(api: ApiHarness, headers: Record<string, string>, operation: string, body: unknown = {}): Promise<Answer> {
  const reply = await api.call('POST', `/v1/ops/${operation}`, { body: JSON.stringify(body), headers }).catch(() => undefined)
  if (!reply) return { status: 0, code: 'no answer' }
  const json = JSON.parse(reply.body || '{}') as { error?: { code: string } }
  return { status: reply.status, ...(json.error ? { code: json.error.code } : {}) }
}

/** One call on a connection of its own (as a POS that does not keep its connections, or curl, would). */
function freshCall(origin: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL('/v1/ops/appInfo', origin)
  return new Promise((resolve) => {
    const request = httpRequest(url, { method: 'POST', agent: false, headers: { host: url.host, ...headers } }, (response) => {
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }))
    })
    request.on('error', () => resolve({ status: 0, code: 'no answer' }))
    request.end('{}')
  })
}

/** Ten calls each from a POS with its token and from the cashier window, one after the other, each on a new connection. */
async function honestCalls(origin: string, pos: string, counter: string): Promise<Answer[]> {
  const answers: Answer[] = []
  for (let i = 0; i < 10; i++) {
    answers.push(await freshCall(origin, { authorization: `Bearer ${pos}` }))
    answers.push(await freshCall(origin, { cookie: counter }))
  }
  return answers
}

const allServed = Array.from({ length: 20 }, () => ({ status: 200 }))

async function posToken(api: ApiHarness, counter: string, scopes?: string[]): Promise<string> {
  const reply = await api.call('POST', '/v1/ops/createToken', {
    body: JSON.stringify({ name: `Lane POS ${Math.random()}`, ...(scopes ? { scopes } : {}) }),
    headers: { cookie: counter },
  })
  return (JSON.parse(reply.body) as { value: { token: string } }).value.token
}

const portOf = (api: ApiHarness) => Number(new URL(api.server.url).port)

describe('a read-only token minting customer displays and holding their event streams', () => {
  let api: ApiHarness
  beforeAll(async () => {
    api = await startApiHarness({ server: { heartbeatMs: 500, limits: { maxConnections: 80, reservedConnections: 16 } } })
  })
  afterAll(async () => {
    await api.close()
  })

  it('gets a few displays and a few streams; the POS and the cashier window stay served meanwhile', async () => {
    const counter = await api.cashierSession()
    const readOnly = await posToken(api, counter, ['read'])
    const pos = await posToken(api, counter)
    const hoarder = displayHoarder(portOf(api), readOnly, 30)
    try {
      // It keeps asking for streams as fast as it is refused.
      const report = await hoarder.until((r) => r.tried > 300)
      expect(report.windows).toBe(WINDOWS_PER_OPENER.token)
      expect(report.refusals).toEqual({ TOO_MANY_WINDOWS: 30 - WINDOWS_PER_OPENER.token })
      expect(report.most).toBe(SERVER_LIMITS.streamsPerOpener)
      expect(await honestCalls(api.server.url, pos, counter)).toEqual(allServed)
      // The cashier window follows the agent too.
      const stream = await SseClient.open(`${api.server.url}/v1/events`, { cookie: counter })
      await stream.waitFor((s) => s.named('snapshot').length === 1)
      stream.close()
      expect((await hoarder.until((r) => r.tried > report.tried + 100)).most).toBe(SERVER_LIMITS.streamsPerOpener)
    } finally {
      await hoarder.stop()
    }
  })
})

describe('one program holding more connections than the cap, half-sent, reopened as they are cut', () => {
  let api: ApiHarness
  beforeAll(async () => {
    api = await startApiHarness({ server: { limits: { maxConnections: 120, reservedConnections: 24, firstRequestMs: 1_000 } } })
  })
  afterAll(async () => {
    await api.close()
  })

  it('leaves a POS with its token and the cashier window served', async () => {
    const counter = await api.cashierSession()
    const pos = await posToken(api, counter)
    const attack = flood(portOf(api), 200)
    try {
      // At full strength: every connection it asked for opened, and the server cutting them.
      await attack.until((r) => r.opened >= 200 && r.cut >= 100)
      expect(await honestCalls(api.server.url, pos, counter)).toEqual(allServed)
    } finally {
      await attack.stop()
    }
  })
})

describe('idle connections and live streams', () => {
  let api: ApiHarness
  beforeAll(async () => {
    api = await startApiHarness({ server: { heartbeatMs: 100, limits: { firstRequestMs: 300, streamIdleMs: 300 } } })
  })
  afterAll(async () => {
    await api.close()
  })

  it('a connection that sends nothing is cut; a live event stream, quiet but for its heartbeat, is not', async () => {
    const stream = await api.events()
    await stream.waitFor((s) => s.named('snapshot').length === 1)
    for (let i = 0; i < 3; i++) {
      const silent = connect(portOf(api), '127.0.0.1')
      await new Promise<void>((resolve) => silent.once('close', () => resolve()))
    }
    // Past several idle times now, the stream goes on.
    const beats = stream.named('heartbeat').length
    await stream.waitFor((s) => s.named('heartbeat').length >= beats + 6)
    expect(stream.response.destroyed).toBe(false)
    expect(stream.response.complete).toBe(false)
    stream.close()
  })
})

describe('credentials that open nothing', () => {
  it('are in the audit trail, the first at once and the rest of the minute as one count', async () => {
    const api = await startApiHarness()
    try {
      const wrong = `${api.token.slice(0, -1)}${api.token.endsWith('A') ? 'B' : 'A'}`
      for (let i = 0; i < 30; i++) expect((await as(api, { authorization: `Bearer ${wrong}` }, 'appInfo')).status).toBe(401)
      for (let i = 0; i < 5; i++) expect((await as(api, { cookie: 'pos_session=ended-or-never' }, 'appInfo')).status).toBe(401)
      for (let i = 0; i < 3; i++) await api.call('GET', '/?launch=not-a-link')
      const at = Date.now()
      const soFar = api.engine.engine.journal.audit.between(0, at + 1).filter((r) => /Refused$/.test(r.action))
      expect(soFar.map(({ action, door, ok }) => ({ action, door, ok }))).toEqual([
        { action: 'tokenRefused', door: 'pos', ok: false },
        { action: 'sessionRefused', door: 'counter', ok: false },
        { action: 'launchRefused', door: 'counter', ok: false },
      ])
      // The agent stops: the counts running are written.
      await api.server.close()
      api.service.close()
      const counts = api.engine.engine.journal.audit
        .between(at, Date.now() + 1)
        .filter((r) => /Refused$/.test(r.action))
        .map((r) => r.detail)
      expect(counts).toEqual([
        expect.stringMatching(/^29 more of a wrong or revoked token in the minute from /),
        expect.stringMatching(/^4 more of a session of no open window/),
        expect.stringMatching(/^2 more of a launch link unknown, used or expired/),
      ])
    } finally {
      await api.engine.close()
    }
  })
})

describe('a cap the system never reaches first', () => {
  it('is sized below the files the process may open, with room for its own files and nexo', () => {
    const limited = spawnSync('prlimit', ['--nofile=1024:1024', 'cat', '/proc/self/limits'], { encoding: 'utf8' })
    if (limited.status === null && process.env.CI !== 'true')
      return console.warn('prlimit is missing: the sizing is checked by arithmetic only')
    expect(fileLimitOf(limited.stdout)).toBe(1024)
    expect(openFileLimit()).toBe(Number(spawnSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim()))
    const limits = serverLimitsFor(1024)
    expect(limits.maxConnections).toBe((1024 - FILES_KEPT) / 2)
    expect(limits.maxConnections * 2 + FILES_KEPT).toBeLessThanOrEqual(1024)
    expect(limits.reservedConnections).toBe(Math.floor(limits.maxConnections / 8))
    expect(serverLimitsFor(1_048_576).maxConnections).toBe(SERVER_LIMITS.maxConnections)
    expect(connectionCapWithin(undefined, 2048)).toBe(2048)
  })

  it('`serve` allowed 1,024 files says its cap, and a flood past the limit leaves the counter and a POS served', async () => {
    if (spawnSync('prlimit', ['--version']).status !== 0) {
      if (process.env.CI === 'true') throw new Error('prlimit (util-linux) is needed for this test')
      return console.warn('prlimit is missing: skipped the agent allowed 1,024 files')
    }
    const dir = mkdtempSync(join(tmpdir(), 'pos-fd-limit-'))
    const child: ChildProcess = spawn('prlimit', ['--nofile=1024:1024', process.execPath, 'bin/pos-agent.js', 'serve', '--port', '0'], {
      env: { ...process.env, POS_AGENT_DATA_DIR: dir, POS_AGENT_CONFIG: '', XDG_CONFIG_HOME: dir },
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    let attack: ReturnType<typeof flood> | undefined
    try {
      const lines: string[] = []
      const { link, said } = await new Promise<{ link: string; said: string }>((resolve, reject) => {
        child.once('exit', () => reject(new Error(`serve stopped: ${lines.join('\n')}`)))
        let link: string | undefined
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lines.push(line)
          link ??= /serving the cashier UI at (\S+)/.exec(line)?.[1]
          if (link && line.startsWith('connections:')) resolve({ link, said: line })
        })
      })
      expect(said).toBe(
        "connections: at most 384 at once, the last 48 kept for the cashier window and POSes with a token (this process may open 1024 files: the cap stays below, with room for the agent's own files and nexo)",
      )
      const url = new URL(link)
      const token = readFileSync(join(dir, 'api-token'), 'utf8').trim()
      const opened = await fetch(link, { redirect: 'manual' })
      const counter = opened.headers.get('set-cookie')!.split(';')[0]!
      attack = flood(Number(url.port), 1_100)
      await attack.until((r) => r.opened >= 1_100 && r.cut >= 500, 20_000)
      expect(await honestCalls(url.origin, token, counter)).toEqual(allServed)
    } finally {
      await attack?.stop()
      child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    }
  }, 40_000)
})
