/**
 * The crash test: a child process running sales and forwarding under host faults is killed with
 * SIGKILL at random moments, restarted each time (CRASH_KILLS times, 200 by default); then the
 * training host's ledger and the journal must agree.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { AID, KEY } from '../../support/engine-harness'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'

const KILLS = Number(process.env.CRASH_KILLS ?? 200)
const keychain = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)

describe.runIf(keychain)(`crash test: ${KILLS} SIGKILLs`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-crash-'))
  const service = `pos-agent-crash-${randomUUID()}`
  let host: TrainingHost

  beforeAll(async () => {
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
  })
  afterAll(async () => {
    await host.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const worker = (
    mode: 'run' | 'settle',
  ): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null>; output: () => string } => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/support/crash-worker.ts', join(dir, 'agent'), host.url, host.caFile, service, mode],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker not ready: ${out}`)), 30_000)
      child.stdout.on('data', () => {
        if (out.includes('ready')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)))
    })
    ready.catch(() => undefined)
    return { child, ready, exited: new Promise((resolve) => child.once('exit', resolve)), output: () => out }
  }

  const FAULTS = ['delay=900', 'http-503', 'process-then-drop', 'drop-before-processing', 'bad-signature'] as const

  it(
    'journal and host ledger agree after every kill',
    async () => {
      let random = 0x2545f491
      const next = () => ((random = (random * 1103515245 + 12345) >>> 0) % 10_000) / 10_000
      for (let kill = 0; kill < KILLS; kill++) {
        host.clearFaults()
        if (next() < 0.6) host.setFault('*', FAULTS[Math.floor(next() * FAULTS.length)]!)
        const run = worker('run')
        await run.ready
        await new Promise((r) => setTimeout(r, 20 + next() * 400))
        run.child.kill('SIGKILL')
        await run.exited
      }
      host.clearFaults()
      const settle = worker('settle')
      await settle.ready
      expect(await settle.exited, settle.output()).toBe(0)

      const db = new Database(join(dir, 'agent', 'journal.sqlite'), { readonly: true })
      const sales = db.prepare('SELECT id, state FROM sale').all() as Array<{ id: string; state: string }>
      const everStored = new Set(
        (db.prepare("SELECT DISTINCT sale_id AS id FROM sale_event WHERE to_state = 'storedOffline'").all() as Array<{ id: string }>).map(
          (r) => r.id,
        ),
      )
      db.close()
      const journal = new Map(sales.map((s) => [s.id, s.state]))
      const payments = host.ledger().payments
      const charged = payments.filter((p) => p.status === 'Captured' || p.status === 'Authorised')

      expect(sales.length, 'sales were run').toBeGreaterThan(KILLS / 2)
      // nothing left at the counter or in flight after recovery
      expect(
        sales.filter((s) =>
          ['created', 'readingCard', 'awaitingConfirmation', 'sending', 'completingCard', 'reversalPending', 'storedOffline'].includes(
            s.state,
          ),
        ),
      ).toEqual([])
      // every payment the host charged is one the journal knows as approved (and not reversed)
      for (const p of charged)
        expect([p.merchantTransID, journal.get(p.merchantTransID)]).toEqual([
          p.merchantTransID,
          expect.stringMatching(/^(approved|forwarded)$/),
        ])
      // every sale the journal holds as approved is charged at the host exactly once
      const chargedIds = new Set(charged.map((p) => p.merchantTransID))
      for (const s of sales.filter((x) => x.state === 'approved' || x.state === 'forwarded'))
        expect([s.id, chargedIds.has(s.id)]).toEqual([s.id, true])
      expect(payments.length).toBe(new Set(payments.map((p) => p.merchantTransID)).size)
      // reversed, declined or abandoned sales are not charged
      for (const s of sales.filter((x) => ['reversed', 'declined', 'abandoned'].includes(x.state)))
        expect([s.id, chargedIds.has(s.id)]).toEqual([s.id, false])
      // every payment ever stored offline reached the host
      for (const id of everStored) expect([id, payments.some((p) => p.merchantTransID === id)]).toEqual([id, true])
      console.log(
        `crash test: ${KILLS} kills, ${sales.length} sales, ${charged.length} charged, ${everStored.size} stored offline, ${sales.filter((s) => s.state === 'reversed').length} reversed`,
      )
    },
    60_000 + KILLS * 3_000,
  )
})
