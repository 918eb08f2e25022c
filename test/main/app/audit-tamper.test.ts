/**
 * The audit trail against someone who can write the journal file: the agent keeps a trail (its key
 * and head in the real OS keychain), stops, and the file is edited as an attacker would, with
 * SQLite's append-only triggers dropped and put back: one record changed without re-hashing; thirty
 * records deleted and the rest renumbered and re-hashed with plain SHA-256, as the former chain
 * allowed; the tail cut off; everything rewritten consistently under a key of the attacker's own.
 * Each is found by `pos-agent audit verify` (the built command line, exit 6, where it breaks) and by
 * the agent's check at start: the AUDIT_BROKEN alarm on the status panel (appInfo), in /metrics and
 * in `doctor`. An untouched trail passes all of them.
 */
import { spawnSync } from 'node:child_process'
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { composeEngine, JOURNAL_FILE, type Engine } from '../../../src-main/app/compose'
import { journalTag } from '../../../src-main/journal'
import { auditHeadAccount, auditKeyAccount, dataKeyAccount, installIdAccount, KeytarSecretStore } from '../../../src-main/keychain'
import { AgentMetrics } from '../../../src-main/metrics'
import { ScriptedCardReader } from '../../fakes/scripted-card-reader'
import { eventually, startEngineHarness, testSettings, type EngineHarness } from '../../support/engine-harness'
import { OWNER_POS, testService } from '../../support/service-harness'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'

const hasKeychain = await secretServiceAvailable()
const run = requireComponent('a Secret Service (gnome-keyring)', hasKeychain, INSTALL.keychain)
const TERMINAL = `T-AUDIT-${process.pid}`
const TRIGGERS = [
  "CREATE TRIGGER audit_never_changes BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;",
  "CREATE TRIGGER audit_never_deleted BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;",
]
const COLUMNS = 'seq, at, action, door, via, actor, subject, ok, detail'

let harness: EngineHarness
let keychain: KeytarSecretStore
const dirs: string[] = []
const reader = new ScriptedCardReader()

beforeAll(async () => {
  if (!run) return
  harness = await startEngineHarness(reader)
  keychain = await KeytarSecretStore.open()
})
afterAll(async () => {
  if (!run) return
  for (const dir of dirs) {
    const tag = journalTag(join(dir, JOURNAL_FILE))
    await keychain.delete(auditKeyAccount(tag))
    await keychain.delete(auditHeadAccount(tag))
  }
  await keychain.delete(dataKeyAccount(TERMINAL))
  await keychain.delete(installIdAccount(TERMINAL))
  await harness.close()
  for (const dir of dirs) rmSync(dirname(dir), { recursive: true, force: true })
})

async function engineIn(dir: string, idleMs?: number): Promise<Engine> {
  const base = testSettings(dir, idleMs === undefined ? {} : { journalWatch: { idleMs, everyMs: 50, pollMs: 20 } })
  return composeEngine(
    { ...base, merchant: { ...base.merchant, terminalId: TERMINAL } },
    { reader, host: harness.client, secrets: keychain, logger: pino({ level: 'silent' }) },
  )
}

/** A lane's data folder whose trail, after the record that seals it, holds 14 records, a burst of 30 refused approvals, and 3 more. */
async function laneWithTrail(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'pos-audit-tamper-')), 'lane')
  mkdirSync(dir)
  dirs.push(dir)
  const engine = await engineIn(dir)
  const trail = engine.journal.audit
  for (let i = 0; i < 13; i++) trail.append({ action: 'signIn', door: 'counter', via: 'window:abc', actor: 'M1', subject: 'M1', ok: true })
  for (let i = 0; i < 30; i++)
    trail.append({ action: 'approve', door: 'pos', via: 'token:lane', subject: 'M2', ok: false, detail: 'PIN_WRONG' })
  for (let i = 0; i < 3; i++) trail.append({ action: 'unlockOperator', door: 'counter', actor: 'M1', subject: 'M2', ok: true })
  expect(trail.head()?.seq).toBe(47)
  await engine.close()
  return dir
}

/** The file edited around SQLite: the append-only triggers dropped, the change, the triggers put back. */
function tamper(dir: string, change: (db: Database.Database) => void): void {
  const db = new Database(join(dir, JOURNAL_FILE), { timeout: 10_000 })
  db.transaction(() => {
    db.exec('DROP TRIGGER audit_never_changes; DROP TRIGGER audit_never_deleted')
    change(db)
    for (const trigger of TRIGGERS) db.exec(trigger)
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}

type Row = [number, number, string, string, string | null, string | null, string | null, number, string | null]

/** Renumbers from 1 and re-links every record from the genesis with `link` (the attacker's hash). */
function relink(db: Database.Database, link: (previous: string, fields: string) => string): void {
  const rows = db.prepare(`SELECT ${COLUMNS} FROM audit ORDER BY seq`).raw().all() as Row[]
  db.exec('DELETE FROM audit')
  const insert = db.prepare(`INSERT INTO audit (${COLUMNS}, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  let previous = '0'.repeat(64)
  rows.forEach((row, i) => {
    const seq = i + 1
    const [, at, action, door, via, actor, subject, ok, detail] = row
    const hash = link(previous, JSON.stringify([seq, at, action, door, via, actor, subject, ok === 1, detail]))
    insert.run(seq, at, action, door, via, actor, subject, ok, detail, previous, hash)
    previous = hash
  })
}

const sha256 = (previous: string, fields: string) => createHash('sha256').update(`${previous}\n${fields}`).digest('hex')

/** `pos-agent audit verify --json` (or another command) on the data folder, the built command line, training mode. */
function cli(dir: string, ...args: string[]): { status: number | null; out: Record<string, unknown> } {
  const env = { ...process.env, POS_AGENT_DATA_DIR: dir, POS_AGENT_CONFIG: '', XDG_CONFIG_HOME: join(dir, 'no-config') }
  const ran = spawnSync(process.execPath, ['bin/pos-agent.js', ...args], { env, encoding: 'utf8', timeout: 60_000 })
  const last = ran.stdout.trim().split('\n').at(-1) ?? ''
  try {
    return { status: ran.status, out: JSON.parse(last) as Record<string, unknown> }
  } catch {
    throw new Error(`not JSON from pos-agent ${args.join(' ')} (exit ${ran.status}):\n${ran.stdout}\n${ran.stderr}`)
  }
}

const kindsOf = (out: Record<string, unknown>) =>
  (out.problems as Array<{ kind: string; from: number; to: number }>).map((p) => [p.kind, p.from, p.to])

/** The agent started again on the tampered file: its check at start raises the alarm, shown where a manager and monitoring look. */
async function alarmAfterRestart(dir: string): Promise<string> {
  const engine = await engineIn(dir)
  try {
    await engine.checkedAtStart
    expect(engine.alarms.map((a) => a.code)).toContain('AUDIT_BROKEN')
    const service = testService({ ...harness, engine }, reader)
    const info = await service.dispatch(OWNER_POS, 'appInfo', {})
    const alarm = (info as { ok: true; value: { alarms: Array<{ code: string; message: string }> } }).value.alarms.find(
      (a) => a.code === 'AUDIT_BROKEN',
    )
    expect(alarm?.message).toMatch(/^The record of who did what on this terminal \(its audit trail\) was altered: /)
    const metrics = new AgentMetrics({ info: { terminalId: TERMINAL, mode: 'training', currency: 'USD' }, alarmCodes: ['AUDIT_BROKEN'] })
    metrics.watch({ txn: engine.txn, forwarder: engine.forwarder, journal: engine.journal, reader, alarms: () => engine.alarms })
    expect(await metrics.scrape()).toMatch(/^pos_agent_alarms\{code="AUDIT_BROKEN"\} 1$/m)
    metrics.close()
    service.close()
    return alarm!.message
  } finally {
    await engine.close()
  }
}

describe.runIf(run)('the audit trail against an edited journal file', () => {
  it('untouched: `audit verify` says intact (exit 0), and the agent raises no alarm', async () => {
    const dir = await laneWithTrail()
    const verified = cli(dir, 'audit', 'verify', '--json')
    expect(verified).toMatchObject({ status: 0, out: { intact: true, records: 47, problems: [] } })
    const engine = await engineIn(dir)
    await engine.checkedAtStart
    expect(engine.alarms.map((a) => a.code)).not.toContain('AUDIT_BROKEN')
    await engine.close()
  })

  it('one record changed without re-hashing: found where, by `audit verify`, the alarm and `doctor`', async () => {
    const dir = await laneWithTrail()
    tamper(dir, (db) => db.prepare("UPDATE audit SET detail = 'nothing here' WHERE seq = 3").run())
    const verified = cli(dir, 'audit', 'verify', '--json')
    expect(verified.status).toBe(6)
    expect(verified.out.intact).toBe(false)
    expect(kindsOf(verified.out)).toEqual([['edited', 3, 3]])
    expect(await alarmAfterRestart(dir)).toContain('record 3 was changed after it was written')
    const doctor = cli(dir, 'doctor', '--json')
    const finding = (doctor.out.findings as Array<{ area: string; level: string; text: string }>).find((f) => f.area === 'audit trail')
    expect(finding).toMatchObject({ level: 'fail' })
    expect(finding!.text).toMatch(/^AUDIT_BROKEN: altered: record 3 was changed after it was written/)
  })

  it('the 30 refused approvals deleted, the rest renumbered and re-hashed with plain SHA-256: found', async () => {
    const dir = await laneWithTrail()
    tamper(dir, (db) => {
      db.prepare('DELETE FROM audit WHERE seq BETWEEN 15 AND 44').run()
      relink(db, sha256)
    })
    const verified = cli(dir, 'audit', 'verify', '--json')
    expect(verified.status).toBe(6)
    // None of the re-hashed records carries the trail's seal, and the keychain kept record 47 as the last.
    expect(kindsOf(verified.out)).toEqual([
      ['edited', 1, 17],
      ['truncated', 18, 47],
    ])
    expect(await alarmAfterRestart(dir)).toContain('records 1 to 17 were changed after they were written')
  })

  it('the last 3 records cut off: found against the head kept in the keychain', async () => {
    const dir = await laneWithTrail()
    tamper(dir, (db) => db.prepare('DELETE FROM audit WHERE seq > (SELECT max(seq) FROM audit) - 3').run())
    const verified = cli(dir, 'audit', 'verify', '--json')
    expect(verified.status).toBe(6)
    expect(kindsOf(verified.out)).toEqual([['truncated', 45, 47]])
    expect(await alarmAfterRestart(dir)).toContain('the trail ends at record 44, but the keychain kept record 47 as its last')
  })

  it('everything rewritten consistently, the same number of records, under a key that is not the trail’s: found', async () => {
    const dir = await laneWithTrail()
    const forged = randomBytes(32)
    tamper(dir, (db) => {
      db.prepare("UPDATE audit SET detail = NULL, ok = 1 WHERE action = 'approve'").run()
      relink(db, (previous, fields) => createHmac('sha256', forged).update(`${previous}\n${fields}`).digest('hex'))
    })
    const verified = cli(dir, 'audit', 'verify', '--json')
    expect(verified.status).toBe(6)
    expect(kindsOf(verified.out)).toEqual([
      ['edited', 1, 47],
      ['anchor', 47, 47],
    ])
    expect(await alarmAfterRestart(dir)).toContain('records 1 to 47 were changed after they were written')
  })

  it('while the agent runs: the end cut off under it, and a record added after: the check at idle raises the alarm, live', async () => {
    const dir = await laneWithTrail()
    const engine = await engineIn(dir, 100)
    const service = testService({ ...harness, engine }, reader)
    const events: Array<{ type: string; alarm?: { code: string } }> = []
    service.on('event', (event) => events.push(event))
    try {
      await engine.checkedAtStart
      expect(engine.alarms.map((a) => a.code)).not.toContain('AUDIT_BROKEN')
      tamper(dir, (db) => db.prepare('DELETE FROM audit WHERE seq > 45').run())
      // The agent goes on writing: its new record takes number 46 again, which the kept head (47) is not.
      engine.journal.audit.append({ action: 'signIn', door: 'counter', actor: 'M1', subject: 'M1', ok: true })
      await eventually(() => engine.alarms.some((a) => a.code === 'AUDIT_BROKEN'), 15_000)
      expect(engine.alarms.find((a) => a.code === 'AUDIT_BROKEN')?.message).toContain('record 47')
      expect(events.some((e) => e.type === 'alarm' && e.alarm?.code === 'AUDIT_BROKEN')).toBe(true)
    } finally {
      service.close()
      await engine.close()
    }
  })

  it('a head printed on a Z-report holds the trail as well: `--head` from the slip, a wrong one refused', async () => {
    const dir = await laneWithTrail()
    const intact = cli(dir, 'audit', 'verify', '--json')
    const head = intact.out.head as { seq: number; check: string }
    expect(head.seq).toBe(47)
    expect(cli(dir, 'audit', 'verify', '--json', '--head', `${head.seq}:${head.check}`).status).toBe(0)
    const wrong = cli(dir, 'audit', 'verify', '--json', '--head', `${head.seq}:00000000`)
    expect(wrong.status).toBe(6)
    expect(kindsOf(wrong.out)).toEqual([['anchor', 47, 47]])
  })
})
