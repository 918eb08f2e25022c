/**
 * `pos-agent lift-fence` against a real nats-server: only the store's recovery key with its
 * passphrase lifts a fence, the manager is asked first (or gives `--yes`), every try is in the
 * audit trail, and a terminal started after the lift is in service again. The real command line too.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { liftFenceCommand, type LiftFenceInput } from '../../../src-main/cli/commands/fence-command'
import { MemorySecretStore } from '../../../src-main/keychain'
import type { AuditEntry } from '../../../src-main/journal'
import { fenceTerminal, makeRecoveryKeyPair, readFence, StoreConnection } from '../../../src-main/store'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { ScriptedCardReader } from '../../fakes/scripted-card-reader'
import { AID, KEY } from '../../support/engine-harness'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'
import { startLane } from '../../support/store-lane'

const PASSPHRASE = 'the manager keeps this one'
const keys = makeRecoveryKeyPair(PASSPHRASE)
const MAX_AGE = 96 * 3_600_000
const FENCE = { storeId: 'S1', terminalId: 'T-0003', rescuedAt: '2026-11-20T09:15:00.000Z', by: 'lane-2', rescueId: 'r-1' }

describe.runIf(natsServerAvailable())('lifting a fence', () => {
  let dir: string
  let nats: NatsServer
  let connection: StoreConnection
  let audited: Array<Omit<AuditEntry, 'door'>>

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-lift-'))
    nats = await startNatsServer()
    connection = new StoreConnection({ servers: [nats.url], storeId: 'S1', name: 'test', maxAgeMs: MAX_AGE })
    await fenceTerminal(connection, FENCE, 3_000)
    audited = []
  })
  afterEach(async () => {
    await connection.close()
    await nats.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const lift = async (overrides: Partial<LiftFenceInput> = {}) => {
    const out: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)))
    const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void out.push(String(line)))
    const questions: string[] = []
    try {
      const code = await liftFenceCommand({
        connection: { servers: [nats.url], storeId: 'S1', maxAgeMs: MAX_AGE },
        terminalId: 'T-0003',
        recoveryPublicKey: keys.publicKey,
        keyPem: keys.privateKeyPem,
        passphrase: PASSPHRASE,
        confirm: async (question) => (questions.push(question), true),
        audit: (entry) => void audited.push(entry),
        timeoutMs: 3_000,
        ...overrides,
      })
      return { code, out: out.join('\n'), questions }
    } finally {
      log.mockRestore()
      error.mockRestore()
    }
  }

  it('refuses a wrong passphrase and another store’s key, changing nothing, and records each try', async () => {
    const wrong = await lift({ passphrase: 'not the passphrase at all' })
    expect(wrong.code).toBe(2)
    expect(wrong.out).toMatch(/wrong passphrase.*nothing was changed/)
    const other = makeRecoveryKeyPair('another store passphrase')
    const elsewhere = await lift({ keyPem: other.privateKeyPem, passphrase: 'another store passphrase' })
    expect(elsewhere.code).toBe(2)
    expect(elsewhere.out).toMatch(/not the recovery key of store S1.*nothing was changed/)
    expect(wrong.questions.concat(elsewhere.questions)).toEqual([])
    expect(await readFence(connection, 'S1', 'T-0003', 3_000)).toEqual(FENCE)
    expect(audited).toEqual([
      { action: 'liftFence', subject: 'S1/T-0003', ok: false, detail: 'the recovery key did not open' },
      { action: 'liftFence', subject: 'S1/T-0003', ok: false, detail: "not this store's recovery key" },
    ])
  })

  it('asks first, in plain words; a manager who says no keeps the fence', async () => {
    const declined = await lift({ confirm: async () => false })
    expect(declined.code).toBe(1)
    expect(declined.out).toMatch(/nothing was changed: the fence stays/)
    expect(await readFence(connection, 'S1', 'T-0003', 3_000)).toEqual(FENCE)
    expect(audited).toEqual([])
  })

  it('lifts it once confirmed, records who rescued and when, and the terminal started again is in service', async () => {
    const lifted = await lift()
    expect(lifted.code).toBe(0)
    expect(lifted.questions).toHaveLength(1)
    expect(lifted.questions[0]).toMatch(
      /rescued on 2026-11-20 09:15 \(from lane-2\)[\s\S]*left nothing waiting[\s\S]*Lift the fence of terminal T-0003\?/,
    )
    expect(lifted.out).toMatch(/is lifted: restart that terminal/)
    expect(await readFence(connection, 'S1', 'T-0003', 3_000)).toBeUndefined()
    expect(audited).toEqual([
      {
        action: 'liftFence',
        subject: 'S1/T-0003',
        ok: true,
        detail: 'fence of 2026-11-20T09:15:00.000Z from lane-2 (rescue r-1); 0 messages still at the store',
      },
    ])
    // Nothing left to lift: said plainly, nothing recorded.
    const again = await lift()
    expect(again).toMatchObject({ code: 0, questions: [] })
    expect(again.out).toMatch(/is not fenced: nothing to lift/)
    expect(audited).toHaveLength(1)

    const host: TrainingHost = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
    const lane = await startLane({
      dir: join(dir, 'T-0003'),
      hostUrl: host.url,
      caPem: host.caPem,
      natsUrl: nats.url,
      terminalId: 'T-0003',
      reader: new ScriptedCardReader(),
      secrets: new MemorySecretStore(),
      recoveryPublicKey: keys.publicKey,
    })
    try {
      expect(lane.engine.alarms.map((alarm) => alarm.code)).not.toContain('QUEUE_RESCUED')
      expect(lane.wiring.link.replicaState().fenced).toBe(false)
    } finally {
      await lane.close()
      await host.close()
    }
  })

  it('from the real command line: the passphrase on standard input, --yes, and the fence is gone', async () => {
    const keyFile = join(dir, 'recovery.pem')
    writeFileSync(keyFile, keys.privateKeyPem, { mode: 0o600 })
    const config = join(dir, 'config.json')
    // Training mode: the keychain may be absent on a test machine; the store section is what is used.
    writeFileSync(
      config,
      JSON.stringify({
        mode: 'training',
        host: { offlineBaseUrl: 'https://127.0.0.1:1', baseUrl: 'https://127.0.0.1:1', aid: AID },
        merchant: { storeId: 'S1', terminalId: 'T-0009', merchantId: 'M1' },
        store: { servers: [nats.url], recoveryPublicKey: keys.publicKey },
      }),
    )
    const run = await cli(
      ['--config', config, '--data-dir', join(dir, 'data'), 'lift-fence', '--terminal', 'T-0003', '--recovery-key', keyFile, '--yes'],
      `${PASSPHRASE}\n`,
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/Lift the fence of terminal T-0003\?[\s\S]*is lifted/)
    expect(await readFence(connection, 'S1', 'T-0003', 3_000)).toBeUndefined()
    const help = await cli(['lift-fence', '--help'], '')
    expect(help.stdout).toMatch(/--terminal <id>[\s\S]*--recovery-key <file>[\s\S]*--yes/)
  })
})

function cli(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/pos-agent.js', ...args], { env: { ...process.env, POS_AGENT_CONFIG: '' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(stdin)
  })
}
