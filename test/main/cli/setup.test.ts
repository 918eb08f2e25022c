/**
 * `pos-agent setup` as a manager uses it: a real process, the real keychain, a training host over
 * HTTPS with its own CA; the configuration it writes is the one `config check` and `serve` load.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src-main/config'
import { AuditStore, ephemeralAuditKey, JOURNAL_FILE, JOURNAL_MIGRATIONS, openJournalDatabase } from '../../../src-main/journal'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'

const work = mkdtempSync(join(tmpdir(), 'pos-setup-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const keychain = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)

const env = (dir: string) => ({
  ...process.env,
  POS_AGENT_DATA_DIR: join(dir, 'data'),
  POS_AGENT_CONFIG: '',
  XDG_CONFIG_HOME: join(dir, 'cfg'),
})

/** Starts setup and returns its page's origin with a session cookie. */
async function startSetup(
  dir: string,
  args: string[] = [],
): Promise<{ child: ChildProcess; origin: string; cookie: string; out: () => string }> {
  const child = spawn(process.execPath, ['bin/pos-agent.js', ...args, 'setup'], { env: env(dir) })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no link: ${out}`)), 20_000)
    child.stdout.on('data', () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/setup\?launch=\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
  })
  const opened = await fetch(link, { redirect: 'manual' })
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!
  return { child, origin: new URL(link).origin, cookie, out: () => out }
}

async function stop(child: ChildProcess): Promise<void> {
  const closed = new Promise((resolve) => child.once('close', resolve))
  child.kill('SIGTERM')
  await closed
}

function cli(dir: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/pos-agent.js', ...args], { env: env(dir) })
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.on('close', (code) => resolve({ code, stdout }))
  })
}

/** The audit trail of the data folder's journal: action, door, actor, ok; never the key. */
function trailOf(dir: string): unknown[][] {
  const db = openJournalDatabase(join(dir, 'data', JOURNAL_FILE), { migrations: JOURNAL_MIGRATIONS })
  try {
    const trail = new AuditStore(db, ephemeralAuditKey()).between(0, Number.MAX_SAFE_INTEGER)
    expect(JSON.stringify(trail)).not.toMatch(/setup-test-signing-key/)
    return trail.map((r) => [r.action, r.door, r.actor, r.ok])
  } finally {
    db.close()
  }
}

describe.runIf(keychain)('first-run setup', () => {
  const AID = `SETUP-ACQ-${process.pid}`
  const KEY = 'setup-test-signing-key-012345678'
  let host: TrainingHost
  const dir = join(work, 'one')
  const configFile = join(dir, 'cfg', 'pos-agent', 'config.json')

  beforeAll(async () => {
    host = await startTrainingHost({ stateDir: join(work, 'host'), signingKeys: { [AID]: KEY } })
  })
  afterAll(() => host.close())

  const form = () => ({
    offlineBaseUrl: host.url,
    baseUrl: host.url,
    aid: AID,
    storeId: 'S-1',
    terminalId: 'T-1',
    merchantId: 'M-1',
    storeName: 'Corner Cafe',
    storeAddress1: '12 Main Street',
    currency: 'usd',
    signingKey: KEY,
    caFile: host.caFile,
    managerId: '1',
    managerName: 'Ada',
    managerPin: '4321',
  })

  it('refuses bad fields by name and writes nothing; then writes a configuration loadConfig and serve accept', async () => {
    const setup = await startSetup(dir)
    try {
      const post = (body: unknown) =>
        fetch(`${setup.origin}/setup/submit`, { method: 'POST', headers: { cookie: setup.cookie }, body: JSON.stringify(body) }).then(
          (r) => r.json() as Promise<Record<string, unknown>>,
        )
      expect((await fetch(`${setup.origin}/setup/state`)).status).toBe(401)
      const bad = await post({ ...form(), offlineBaseUrl: 'http://plain.example', terminalId: 'T 1', currency: 'XXY', signingKey: 'short' })
      expect(bad.ok).toBe(false)
      expect(Object.keys(bad.problems as object).sort()).toEqual(['currency', 'offlineBaseUrl', 'signingKey', 'terminalId'])
      expect(() => statSync(configFile)).toThrow()

      const page = await (await fetch(`${setup.origin}/setup`, { headers: { cookie: setup.cookie } })).text()
      const good = await post(form())
      expect(good).toMatchObject({ ok: true, keyCheckValue: expect.stringMatching(/^[0-9A-F]{6}$/) })
      const checks = good.checks as { id: string; level: string }[]
      // No card reader is plugged in here: that is the one problem, and it makes the terminal not ready.
      expect(checks.filter((c) => c.level === 'fail').map((c) => c.id)).toEqual(['reader'])
      expect(good.ready).toBe(false)
      expect(checks.find((c) => c.id === 'signature')?.level).toBe('ok')
      expect(checks.find((c) => c.id === 'security')?.level).toBe('ok')
      expect(JSON.stringify(good) + page).not.toContain(KEY)

      expect(statSync(configFile).mode & 0o777).toBe(0o600)
      // The data folder and the logs are the owner's only (the journal holds the operators, the logs who did what).
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700)
      expect(statSync(join(dir, 'data', 'logs')).mode & 0o777).toBe(0o700)
      for (const name of readdirSync(join(dir, 'data', 'logs')).filter((n) => n.endsWith('.log')))
        expect(statSync(join(dir, 'data', 'logs', name)).mode & 0o777).toBe(0o600)
      expect(readFileSync(configFile, 'utf8')).not.toContain(KEY)
      // What setup changed is in the journal's audit trail, by the setup door: the key and the first
      // manager as the service records them (no operator acts before the first one exists), the
      // configuration with the first manager named.
      expect(trailOf(dir)).toEqual([
        ['auditSealed', 'agent', undefined, true],
        ['setSigningKey', 'setup', undefined, true],
        ['configChanged', 'setup', '1', true],
        ['addOperator', 'setup', undefined, true],
      ])
      const loaded = loadConfig({ flag: configFile })!
      expect(loaded.config).toMatchObject({ mode: 'production', currency: 'USD', host: { aid: AID, caFile: host.caFile } })
      expect(loaded.config.merchant).toMatchObject({ terminalId: 'T-1', storeName: 'Corner Cafe', storeAddress: ['12 Main Street'] })

      // A working configuration is replaced only with a manager's number and PIN.
      const refused = await post({ ...form(), storeName: 'Other' })
      expect(Object.keys(refused.problems as object)).toEqual(expect.arrayContaining(['approverId', 'approverPin']))
      const wrong = await post({ ...form(), storeName: 'Other', approverId: '1', approverPin: '9999' })
      expect(wrong.ok).toBe(false)
      expect(readFileSync(configFile, 'utf8')).not.toContain('Other')
      const approved = await post({ ...form(), storeName: 'Other', approverId: '1', approverPin: '4321' })
      expect(approved.ok).toBe(true)
      expect(readFileSync(configFile, 'utf8')).toContain('Other')
      // The manager's approval went through the service: the wrong PIN and the right one, each kept.
      expect(trailOf(dir).slice(4)).toEqual([
        ['approval', 'setup', '1', false],
        ['setSigningKey', 'setup', undefined, false],
        ['approval', 'setup', '1', true],
        ['setSigningKey', 'setup', '1', true],
        ['configChanged', 'setup', '1', true],
      ])
    } finally {
      await stop(setup.child)
    }
    expect(setup.out()).not.toContain(KEY)
    const logs = join(dir, 'data', 'logs')
    for (const file of readdirSync(logs)) expect(readFileSync(join(logs, file), 'utf8')).not.toContain(KEY)

    const check = await cli(dir, ['config', 'check'])
    expect(check.code).toBe(0)
    const serve = spawn(process.execPath, ['bin/pos-agent.js', 'serve', '--port', '0'], { env: env(dir) })
    let out = ''
    serve.stdout.on('data', (d: Buffer) => (out += d.toString()))
    serve.stderr.on('data', (d: Buffer) => (out += d.toString()))
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000)
      serve.stdout.on('data', () => {
        if (out.includes('serving the cashier UI')) {
          clearTimeout(timer)
          resolve()
        }
      })
      serve.once('close', () => reject(new Error(`serve stopped: ${out}`)))
    })
    expect(out).not.toMatch(/TRAINING MODE/)
    await stop(serve)
  }, 90_000)
})

describe.runIf(keychain)('serve on a terminal not set up yet', () => {
  it('opens first-run setup instead of refusing to start; a configuration with a bad value still names it', async () => {
    const dir = join(work, 'not-set-up')
    const configFile = join(dir, 'cfg', 'pos-agent', 'config.json')
    mkdirSync(dirname(configFile), { recursive: true })
    writeFileSync(configFile, JSON.stringify({ mode: 'production', currency: 'EUR' }))
    const serve = spawn(process.execPath, ['bin/pos-agent.js', 'serve', '--port', '0'], { env: env(dir) })
    let out = ''
    serve.stdout.on('data', (d: Buffer) => (out += d.toString()))
    serve.stderr.on('data', (d: Buffer) => (out += d.toString()))
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no setup link: ${out}`)), 20_000)
        serve.stdout.on('data', () => {
          if (/http:\/\/127\.0\.0\.1:\d+\/setup\?launch=\S+/.test(out)) {
            clearTimeout(timer)
            resolve()
          }
        })
        serve.once('close', () => reject(new Error(`serve stopped: ${out}`)))
      })
      expect(out).toContain('This terminal is not set up yet')
      expect(out).not.toMatch(/TRAINING MODE|serving the cashier UI/)
    } finally {
      await stop(serve)
    }

    // Every section there, one value wrong: the field is named, nothing is started.
    writeFileSync(
      configFile,
      JSON.stringify({
        mode: 'production',
        host: { offlineBaseUrl: 'http://insecure.example', baseUrl: 'https://gw.example', aid: 'A1' },
        merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
      }),
    )
    const refused = await cli(dir, ['serve', '--port', '0'])
    expect(refused.code).toBe(3)
  }, 60_000)
})
