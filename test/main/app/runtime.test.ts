/**
 * Starting without a configuration file: training mode, unless the data folder holds a production
 * terminal's journal (its configuration went missing). Real journal files, the real CLI.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openRuntime } from '../../../src-main/app'
import { MissingConfigurationError } from '../../../src-main/config'
import { JOURNAL_FILE, JOURNAL_MIGRATIONS, openJournalDatabase } from '../../../src-main/journal'

const work = mkdtempSync(join(tmpdir(), 'pos-runtime-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A data folder whose journal holds one sale under `saleId`, with `queued` items still owed to the host. */
function dataDirWith(name: string, saleId: string, queued = 0): string {
  const dir = join(work, name)
  mkdirSync(dir, { recursive: true })
  const db = openJournalDatabase(join(dir, JOURNAL_FILE), { migrations: JOURNAL_MIGRATIONS })
  db.prepare(
    `INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture)
     VALUES (?, 'storedOffline', 1, 1, '2026-11-24', '2026-11-24T10:00:00Z', 1234, 'USD', 1)`,
  ).run(saleId)
  for (let i = 0; i < queued; i++) {
    db.prepare(
      "INSERT INTO outbox (sale_id, operation, message_id, priority, state, next_attempt_at, created_at) VALUES (?, 'payment', ?, 1, 'pending', 0, 0)",
    ).run(saleId, `${saleId}-${i}`)
  }
  db.close()
  return dir
}

const noConfig = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  POS_AGENT_CONFIG: '',
  XDG_CONFIG_HOME: join(work, 'no-config'),
  POS_AGENT_DATA_DIR: dataDir,
})

describe('no configuration file', () => {
  it('starts training mode on an empty data folder', async () => {
    const runtime = await openRuntime({ env: noConfig(join(work, 'empty')) })
    expect(runtime.mode).toBe('training')
    expect(runtime.refusal).toBeUndefined()
  })

  it('starts training mode over a journal of training sales', async () => {
    const runtime = await openRuntime({ env: noConfig(dataDirWith('training', 'TRAIN-T01-00000007', 1)) })
    expect(runtime.mode).toBe('training')
  })

  it('refuses to start over a production journal, saying the configuration went missing and what waits', async () => {
    const dir = dataDirWith('production', 'T-0001-00000042', 2)
    const error = await openRuntime({ env: noConfig(dir) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingConfigurationError)
    expect((error as Error).message).toMatch(/the configuration went missing; 2 stored payments and reversals are kept and wait for it/)
    expect((error as Error).message).toContain('T-0001-00000042')
  })

  it('the doctor opens it anyway and reports the refusal', async () => {
    const runtime = await openRuntime({ env: noConfig(dataDirWith('production-doctor', 'T-0001-00000001')), report: true })
    expect(runtime.refusal).toBeInstanceOf(MissingConfigurationError)
  })

  it('from the command line: serve exits 3 with one line; doctor fails on the configuration line', () => {
    const dir = dataDirWith('production-cli', 'T-0001-00000009', 1)
    const serve = spawnSync(process.execPath, ['bin/pos-agent.js', 'serve', '--port', '0'], {
      env: noConfig(dir),
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(serve.status).toBe(3)
    expect(serve.stderr.trim().split('\n')).toHaveLength(1)
    expect(serve.stderr).toMatch(/^pos-agent: no configuration file was found, but .* holds a production journal/)
    const doctor = spawnSync(process.execPath, ['bin/pos-agent.js', 'doctor', '--json'], {
      env: noConfig(dir),
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(doctor.status).toBe(1)
    const report = JSON.parse(doctor.stdout) as { findings: Array<{ level: string; area: string; text: string }> }
    expect(report.findings.find((f) => f.area === 'configuration')).toMatchObject({
      level: 'fail',
      text: expect.stringMatching(/configuration went missing/),
    })
  })
})

describe('production without an OS keychain', () => {
  const config = join(work, 'production.json')
  const env = (): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = {
      ...noConfig(join(work, 'keychain-data')),
      POS_AGENT_CONFIG: config,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/pos-agent-test-bus',
    }
    delete e.DISPLAY
    return e
  }
  writeFileSync(
    config,
    JSON.stringify({
      mode: 'production',
      host: { offlineBaseUrl: 'https://127.0.0.1:9/', baseUrl: 'https://127.0.0.1:9/', aid: 'ACQ-1' },
      merchant: { storeId: 'S1', terminalId: 'T-0001', merchantId: 'M1' },
      device: { path: join(work, 'no-such-tty') },
    }),
  )

  it('refuses to start in one line: what is missing and what to install', () => {
    const serve = spawnSync(process.execPath, ['bin/pos-agent.js', 'serve', '--port', '0'], {
      env: env(),
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(serve.status).toBe(4)
    expect(serve.stderr.trim().split('\n')).toHaveLength(1)
    expect(serve.stderr).toMatch(
      /^pos-agent: (the OS keychain library \(keytar\) is not installed .*npm install keytar --no-save|no OS keychain answered .*gnome-keyring)/,
    )
  })

  it('the doctor reports the same words as a failing keychain line', () => {
    const doctor = spawnSync(process.execPath, ['bin/pos-agent.js', 'doctor', '--json'], { env: env(), encoding: 'utf8', timeout: 30_000 })
    expect(doctor.status).toBe(1)
    const report = JSON.parse(doctor.stdout) as { findings: Array<{ level: string; area: string; text: string; fix?: string }> }
    const keychain = report.findings.find((f) => f.area === 'keychain')
    expect(keychain).toMatchObject({ level: 'fail', text: expect.stringMatching(/production will not start without it/) })
    expect(keychain?.fix).toMatch(/npm install keytar --no-save|gnome-keyring/)
  })
})
