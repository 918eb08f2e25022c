/**
 * The pos-agent command line as an integrator uses it: real processes, the real keychain, real
 * HTTPS to a training host. Exit codes are part of the contract (README "Exit codes").
 */
import { spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { samplePayment } from '../../support/sample-bodies'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'
import { KeytarSecretStore, smtpPasswordAccount } from '../../../src-main/keychain'

const work = mkdtempSync(join(tmpdir(), 'pos-cli-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function cli(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/pos-agent.js', ...args], {
      env: {
        ...process.env,
        POS_AGENT_DATA_DIR: join(work, 'data'),
        POS_AGENT_CONFIG: '',
        XDG_CONFIG_HOME: join(work, 'no-config'),
        ...options.env,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(options.stdin ?? '')
  })
}

const payment = (value: string, id: string) =>
  JSON.stringify(
    samplePayment({
      merchantTransInfo: { merchantTransID: id, merchantTransTime: '2026-11-21T10:00:00+01:00' },
      transAmount: { currency: 'USD', value },
    }),
  )

describe('help and usage', () => {
  it.each([
    [[]],
    [['key', 'set']],
    [['key', 'status']],
    [['sign']],
    [['verify']],
    [['send']],
    [['config', 'check']],
    [['training-host']],
    [['email', 'password']],
    [['setup']],
  ])('%j --help exits 0', async (args) => {
    const run = await cli([...args, '--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: pos-agent/m)
  })

  it('the help lists first-run setup among the commands', async () => {
    const run = await cli(['--help'])
    expect(run.stdout).toMatch(/^\s+setup \[options\]\s+first-run setup/m)
  })

  it('an unknown command exits 2 with a message on stderr', async () => {
    const run = await cli(['pay-everything'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/unknown command/)
  })
})

describe('send in training mode (no configuration)', () => {
  it('approves, prints the outcome class and exits 0', async () => {
    const run = await cli(['send', 'payment'], { stdin: payment('12.34', 'CLI-1') })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^payment: approved in \d+ ms/)
  })

  it('--json prints one machine-readable line; a decline exits 10', async () => {
    const run = await cli(['send', 'payment', '--json'], { stdin: payment('10.51', 'CLI-2') })
    expect(run.code).toBe(10)
    expect(JSON.parse(run.stdout.trim())).toMatchObject({ kind: 'declined', pspFailureCode: '51' })
  })

  it('an invalid body is refused before sending (exit 11), garbage JSON is an error (exit 1)', async () => {
    const bad = await cli(['send', 'payment'], { stdin: JSON.stringify({ autoCapture: true }) })
    expect(bad.code).toBe(11)
    expect(bad.stdout).toMatch(/refused before sending: merchantTransInfo is required/)
    const garbage = await cli(['send', 'payment'], { stdin: '{"autoCapture": tru' })
    expect(garbage.code).toBe(1)
    expect(garbage.stderr.trim().split('\n')).toHaveLength(1)
    expect(garbage.stderr).toMatch(/^pos-agent: the request body is not JSON/)
  })
})

const keychain = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)

describe.runIf(keychain)('production configuration, keychain and a separately running host', () => {
  const AID = `CLI-ACQ-${process.pid}`
  const KEY = 'cli-test-signing-key-0123456789a'
  let host: TrainingHost
  let config: string

  beforeAll(async () => {
    host = await startTrainingHost({ stateDir: join(work, 'host'), signingKeys: { [AID]: KEY } })
    config = join(work, 'config.json')
    writeFileSync(
      config,
      JSON.stringify({
        host: { offlineBaseUrl: host.url, baseUrl: host.url, aid: AID, caFile: host.caFile, responseTimeoutMs: 5_000 },
        merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
      }),
    )
  })
  afterAll(() => host.close())

  it('key status without a key exits 4; key set validates, stores, and never echoes the key', async () => {
    expect((await cli(['--config', config, 'key', 'status'])).code).toBe(4)
    const short = await cli(['--config', config, 'key', 'set'], { stdin: 'too-short\n' })
    expect(short.code).toBe(4)
    expect(short.stderr).toMatch(/exactly 32 characters/)
    const set = await cli(['--config', config, 'key', 'set'], { stdin: `${KEY}\n` })
    expect(set.code).toBe(0)
    const kcv = createHmac('sha256', KEY).update('KCV').digest('hex').slice(0, 6).toUpperCase()
    expect(set.stdout).toContain(kcv)
    expect(set.stdout + set.stderr).not.toContain(KEY)
    const status = await cli(['--config', config, 'key', 'status', '--json'])
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toEqual({ aid: AID, present: true, kcv, store: 'os-keychain' })
  })

  it('email password keeps the SMTP password in the keychain, never echoed; without email settings it says what to set', async () => {
    const withEmail = join(work, 'config-email.json')
    const user = `till-${process.pid}`
    writeFileSync(
      withEmail,
      JSON.stringify({
        host: { offlineBaseUrl: host.url, baseUrl: host.url, aid: AID, caFile: host.caFile },
        merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
        email: { host: 'mail.example.com', user, from: 'receipts@example.com' },
      }),
    )
    const set = await cli(['--config', withEmail, 'email', 'password'], { stdin: 'open sesame 42\n' })
    expect(set.code).toBe(0)
    expect(set.stdout).toContain(`SMTP password for ${user} at mail.example.com stored in the OS keychain`)
    expect(set.stdout + set.stderr).not.toContain('open sesame 42')
    const keychainStore = await KeytarSecretStore.open()
    expect(await keychainStore.get(smtpPasswordAccount(user, 'mail.example.com'))).toBe('open sesame 42')
    await keychainStore.delete(smtpPasswordAccount(user, 'mail.example.com'))

    const without = await cli(['--config', config, 'email', 'password'], { stdin: 'x\n' })
    expect(without.code).toBe(3)
    expect(without.stderr).toMatch(/no email\.user in the configuration/)
  })

  it('send reaches the configured host over verified TLS', async () => {
    const run = await cli(['--config', config, 'send', 'payment', '--json'], { stdin: payment('7.00', `CLI-P-${process.pid}`) })
    expect(run.code).toBe(0)
    expect(host.ledger().entries.some((e) => e.merchantTransID === `CLI-P-${process.pid}`)).toBe(true)
    const reversal = await cli(['--config', config, 'send', 'reversal', `CLI-P-${process.pid}`], {
      stdin: '{"initiatingReason":"cli test"}',
    })
    expect(reversal.code).toBe(0)
  })

  it('a host that is down exits 12 (notDelivered)', async () => {
    const down = join(work, 'down.json')
    writeFileSync(
      down,
      JSON.stringify({
        host: { offlineBaseUrl: 'https://127.0.0.1:9', baseUrl: 'https://127.0.0.1:9', aid: AID, caFile: host.caFile },
        merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
      }),
    )
    const run = await cli(['--config', down, 'send', 'payment'], { stdin: payment('7.00', 'CLI-DOWN') })
    expect(run.code).toBe(12)
    expect(run.stdout).toMatch(/never reached the host/)
  })

  it('sign prints the string to sign with the key masked, and verify checks it', async () => {
    const body = '{"a":1}'
    const args = ['--path', '/g2/v0/payment/acq/X/svc.offline.payment', '--date-time', '2026-11-21T10:00:00+01:00', '--msg-id', 'abc123']
    const signed = await cli(['--config', config, 'sign', ...args, '--json'], { stdin: body })
    expect(signed.code).toBe(0)
    const out = JSON.parse(signed.stdout) as { stringToSign: string; signature: string }
    const text = `POST\n/g2/v0/payment/acq/X/svc.offline.payment\n2026-11-21T10:00:00+01:00\n${KEY}\nabc123\n${body}`
    expect(out.signature).toBe(createHmac('sha256', KEY).update(text).digest('hex'))
    expect(out.stringToSign).not.toContain(KEY)
    expect(out.stringToSign.split('\n')[3]).toMatch(/^<signing key, KCV [0-9A-F]{6}>$/)
    expect((await cli(['--config', config, 'verify', ...args, '--authorization', out.signature], { stdin: body })).code).toBe(0)
    const bad = await cli(['--config', config, 'verify', ...args, '--authorization', out.signature], { stdin: '{"a":2}' })
    expect(bad.code).toBe(5)
    expect(bad.stdout).toMatch(/does NOT match/)
  })

  it('doctor checks the host over TLS, the reader and the queue, and says what to fix', async () => {
    const withReader = join(work, 'doctor.json')
    writeFileSync(
      withReader,
      JSON.stringify({
        host: { offlineBaseUrl: host.url, baseUrl: host.url, aid: AID, caFile: host.caFile },
        merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
        device: { path: '/dev/null' },
      }),
    )
    const ok = await cli(['--config', withReader, 'doctor', '--json'])
    const report = JSON.parse(ok.stdout) as { status: string; findings: Array<{ level: string; area: string; text: string }> }
    expect(report.findings.find((f) => f.area === 'host TLS')).toMatchObject({ level: 'ok', text: expect.stringMatching(/TLSv1\.[23]/) })
    expect(report.findings.find((f) => f.area === 'card reader')).toMatchObject({ level: 'ok', text: 'port /dev/null' })
    expect(report.findings.find((f) => f.area === 'signing key')?.level).toBe('ok')
    const missing = join(work, 'doctor-missing.json')
    writeFileSync(
      missing,
      JSON.stringify({
        host: { offlineBaseUrl: 'https://127.0.0.1:9', baseUrl: host.url, aid: AID, caFile: host.caFile },
        merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
        device: { path: '/dev/no-such-reader' },
      }),
    )
    const bad = await cli(['--config', missing, 'doctor'])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toMatch(/FAIL {2}card reader +\/dev\/no-such-reader does not exist/)
    expect(bad.stdout).toMatch(/FAIL {2}host .*unreachable/)
    expect(bad.stdout).toMatch(/NOT READY/)
  })

  it('config check passes on a good file and names the bad field of a broken one (exit 3)', async () => {
    const good = await cli(['--config', config, 'config', 'check'])
    expect(good.code).toBe(0)
    expect(good.stdout).toMatch(/configuration OK/)
    const broken = join(work, 'broken.json')
    writeFileSync(
      broken,
      JSON.stringify({
        host: { offlineBaseUrl: 'http://plain', baseUrl: host.url, aid: AID },
        merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
      }),
    )
    const bad = await cli(['--config', broken, 'config', 'check'])
    expect(bad.code).toBe(3)
    expect(bad.stderr).toMatch(/host\.offlineBaseUrl: must be an https:\/\/ URL/)
  })
})

describe('training-host command', () => {
  it('starts with faults from flags, serves over HTTPS, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/pos-agent.js', 'training-host', '--port', '0', '--fault', 'payment:http-503x1'], {
      env: { ...process.env, POS_AGENT_DATA_DIR: join(work, 'th'), POS_AGENT_CONFIG: '', XDG_CONFIG_HOME: join(work, 'no-config') },
    })
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000)
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const match = /listening on (https:\/\/127\.0\.0\.1:\d+)[\s\S]*faults: .*\n/.exec(out)
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    expect(out).toMatch(/faults: payment:http-503x1/)
    const health = await fetch(`${url}/admin/health`).catch((e: unknown) => e)
    expect(health).toBeInstanceOf(Error) // its certificate is not publicly trusted: validation holds
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
