/**
 * Kills in the middle of a group: a child process forwards a backlog of stored payments with 16 at the
 * host at once, and is killed with SIGKILL while a group is out (claimed and counted, not yet
 * answered in the journal), again and again; then the host's ledger and the journal must agree: every
 * payment charged exactly once, every answer journaled exactly once, nothing left owed.
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { AID, KEY } from '../../support/engine-harness'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'

const BACKLOG = 240
const KILLS = 6
const keychain = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)

describe.runIf(keychain)('forwarding in groups, killed mid-group', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-forward-kill-'))
  const service = `pos-agent-forward-kill-${randomUUID()}`
  const journalFile = join(dir, 'agent', 'journal.sqlite')
  let host: TrainingHost

  beforeAll(async () => {
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
  })
  afterAll(async () => {
    await host.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** Starts the worker; resolves `seen` once its output contains `line`. */
  const worker = (mode: string, ...args: string[]) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/support/forward-kill-worker.ts', join(dir, 'agent'), host.url, host.caFile, service, mode, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    const listeners: Array<() => void> = []
    const collect = (d: Buffer) => {
      out += d.toString()
      listeners.forEach((l) => l())
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const seen = (pattern: RegExp, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker never printed ${pattern}: ${out}`)), timeoutMs)
        const check = () => {
          if (!pattern.test(out)) return
          clearTimeout(timer)
          resolve()
        }
        listeners.push(check)
        check()
        void exited.then(() => setTimeout(() => reject(new Error(`worker exited before ${pattern}: ${out}`)), 50))
      })
    return { child, exited, seen, output: () => out }
  }

  const until = async (condition: () => boolean, timeoutMs = 60_000) => {
    for (const started = Date.now(); !condition(); await new Promise((r) => setTimeout(r, 10)))
      if (Date.now() - started > timeoutMs) throw new Error('the worker forwarded nothing within a minute')
  }

  const owed = () => {
    const db = new Database(journalFile, { readonly: true })
    try {
      return db.prepare("SELECT state, count(*) AS n FROM outbox WHERE state IN ('pending', 'inflight') GROUP BY state").all() as Array<{
        state: string
        n: number
      }>
    } finally {
      db.close()
    }
  }

  it(`${KILLS} SIGKILLs while groups are out: each payment charged once, each answer journaled once, nothing owed`, async () => {
    const fill = worker('fill', String(BACKLOG))
    expect(await fill.exited, fill.output()).toBe(0)
    let killedWithGroupOut = 0
    for (let kill = 0; kill < KILLS; kill++) {
      host.clearFaults()
      // a slow host keeps a whole window out; every third round the host charges and drops the answer
      host.setFault('payment', kill % 3 === 2 ? 'process-then-drop' : 'delay=40')
      const charged = host.ledger().payments.length
      const run = worker('forward')
      await run.seen(/ready/)
      // the host has taken new payments: the window is out (with dropped answers nothing is journaled)
      await until(() => host.ledger().payments.length > charged || /forwarded \d+/.test(run.output()))
      await new Promise((r) => setTimeout(r, 30 + kill * 25))
      run.child.kill('SIGKILL')
      await run.exited
      // claimed and counted before it went out, not answered in the journal: a group was at the host
      if (owed().some((row) => row.state === 'inflight')) killedWithGroupOut++
    }
    host.clearFaults()
    const settle = worker('settle')
    expect(await settle.exited, settle.output()).toBe(0)

    expect(killedWithGroupOut, 'kills that landed while a group was out').toBeGreaterThan(0)
    const db = new Database(journalFile, { readonly: true })
    const sales = db.prepare('SELECT id, state FROM sale').all() as Array<{ id: string; state: string }>
    const answers = db
      .prepare("SELECT sale_id AS id, count(*) AS n FROM sale_event WHERE type = 'forwardAnswered' GROUP BY sale_id")
      .all() as Array<{ id: string; n: number }>
    const items = db.prepare("SELECT state, count(*) AS n FROM outbox WHERE operation = 'payment' GROUP BY state").all()
    db.close()
    const payments = host.ledger().payments
    expect(sales).toHaveLength(BACKLOG)
    expect(sales.filter((s) => s.state !== 'forwarded')).toEqual([])
    expect(items).toEqual([{ state: 'done', n: BACKLOG }])
    expect(answers.filter((a) => a.n !== 1)).toEqual([])
    expect(answers).toHaveLength(BACKLOG)
    // the host holds each payment once, charged: a resent message is the same message
    expect(payments).toHaveLength(BACKLOG)
    expect(new Set(payments.map((p) => p.merchantTransID))).toEqual(new Set(sales.map((s) => s.id)))
    expect(payments.filter((p) => p.status !== 'Captured' && p.status !== 'Authorised')).toEqual([])
  }, 240_000)
})
