/**
 * `pos-agent doctor`: one screen that says what is wrong with this terminal and how to fix it:
 * configuration, keychain, serial device, host reachability and TLS, clock, free disk, the queue,
 * the store (enrolment and fence), the audit trail.
 */
import { statfsSync } from 'node:fs'
import {
  checkAuditFile,
  checkHost,
  checkReader,
  checkStore,
  dataKeyPresent,
  keychainState,
  queueOfDataFolder,
  signingKeyStatus,
  type AddFinding,
  type Finding,
  type Runtime,
} from '../../app'
import { EXIT } from '../exit-codes'
import { agreeing, counted } from '../../../src-shared/counted'

const MIN_FREE_BYTES = 500 * 1024 * 1024

export async function doctorCommand(runtime: Runtime, json: boolean): Promise<number> {
  const findings: Finding[] = []
  const add: AddFinding = (level, area, text, fix) => findings.push({ level, area, text, ...(fix ? { fix } : {}) })
  const config = runtime.loaded?.config

  if (config) add('ok', 'configuration', `${runtime.loaded?.file} (mode ${config.mode})`)
  else if (runtime.refusal)
    add('fail', 'configuration', runtime.refusal.message, 'restore the configuration file; nothing in the journal was touched')
  else
    add(
      'warn',
      'configuration',
      'no configuration file: TRAINING MODE, nothing real is charged',
      'write config.json (see README "Configuration") for production',
    )

  checkKeychain(runtime, add)
  const signingKey = await signingKeyStatus(runtime.secrets, runtime.aid)
  if (signingKey.present) add('ok', 'signing key', `present for aid ${runtime.aid}, KCV ${signingKey.kcv}`)
  else
    add(
      config ? 'fail' : 'warn',
      'signing key',
      `none for aid ${runtime.aid}`,
      'run `pos-agent key set` and paste the key from your acquirer',
    )
  const terminalId = config?.merchant.terminalId
  if (terminalId) {
    const present = await dataKeyPresent(runtime.secrets, terminalId)
    add(present ? 'ok' : 'warn', 'data key', present ? 'present' : 'not created yet (made at the first start)')
  }

  if (config) {
    await checkReader(config, add)
    await checkHost(config, add, runtime.clock)
  } else add('ok', 'card reader', 'simulated PIN pad (training)')

  try {
    const { bavail, bsize } = statfsSync(runtime.dataDir)
    const free = bavail * bsize
    add(
      free < MIN_FREE_BYTES ? 'fail' : 'ok',
      'disk',
      `${(free / 1024 ** 3).toFixed(1)} GiB free for ${runtime.dataDir}`,
      'free disk space: a full disk stops new sales (nothing already journaled is lost)',
    )
  } catch {
    add('warn', 'disk', `${runtime.dataDir} does not exist yet (created at the first start)`)
  }
  checkQueue(runtime, add)
  if (config) await checkStore(config, runtime.secrets, runtime.dataDir, add)
  await checkAuditTrail(runtime, add)

  const worst = findings.some((f) => f.level === 'fail') ? 'fail' : findings.some((f) => f.level === 'warn') ? 'warn' : 'ok'
  if (json) console.log(JSON.stringify({ status: worst, findings }))
  else {
    for (const f of findings)
      console.log(
        `${f.level === 'ok' ? 'OK  ' : f.level === 'warn' ? 'WARN' : 'FAIL'}  ${f.area.padEnd(14)} ${f.text}${f.level !== 'ok' && f.fix ? `\n      ${''.padEnd(14)} → ${f.fix}` : ''}`,
      )
    console.log(worst === 'ok' ? 'all checks passed' : worst === 'warn' ? 'usable, with warnings' : 'NOT READY: fix the FAIL lines above')
  }
  return worst === 'fail' ? EXIT.failure : EXIT.ok
}

/** The audit trail as `pos-agent audit verify` reads it; altered, it is the agent's alarm AUDIT_BROKEN. */
async function checkAuditTrail(runtime: Runtime, add: AddFinding): Promise<void> {
  const found = await checkAuditFile(runtime.secrets, runtime.dataDir)
  const support = 'keep this computer as it is and call support; `pos-agent audit verify` lists where the trail breaks'
  switch (found.state) {
    case 'noTrail':
      return add('ok', 'audit trail', 'none yet (started at the first start)')
    case 'noKeychain':
      return add(
        'warn',
        'audit trail',
        'cannot be checked without the OS keychain (the agent checks it itself)',
        'see the keychain line above',
      )
    case 'notSealed':
      return add('ok', 'audit trail', `${counted(found.records, 'record')}, sealed at the agent's next start`)
    case 'keyMissing':
      return add('fail', 'audit trail', 'AUDIT_BROKEN: its key is no longer in the keychain, so it cannot be proven', support)
    case 'checked':
      if (found.verdict.intact) return add('ok', 'audit trail', `intact, ${counted(found.verdict.records, 'record')}`)
      return add('fail', 'audit trail', `AUDIT_BROKEN: altered: ${found.verdict.problems.map((p) => p.words).join('; ')}`, support)
  }
}

/** The same words the agent says when it refuses to start (production) or falls back (training), and setup shows first. */
function checkKeychain(runtime: Runtime, add: AddFinding): void {
  const words = keychainState(runtime.secrets, runtime.mode)
  if (words.ok) return add('ok', 'keychain', words.text)
  add(runtime.mode === 'production' ? 'fail' : 'warn', 'keychain', words.text, words.fix)
}

function checkQueue(runtime: Runtime, add: AddFinding): void {
  const queue = queueOfDataFolder(runtime.dataDir)
  if (queue === undefined) return add('ok', 'queue', 'no journal yet')
  const age = queue.oldestWaitingAt ? `, oldest ${Math.round((runtime.clock.now() - queue.oldestWaitingAt) / 60_000)} min` : ''
  add(
    queue.needsManager > 0 ? 'fail' : queue.waiting > 0 ? 'warn' : 'ok',
    'queue',
    `${queue.waiting} waiting${age}, ${counted(queue.needsManager, 'sale')} ${agreeing(queue.needsManager, 'needs', 'need')} a manager`,
    queue.needsManager > 0
      ? 'open the queue: a manager must retry or acknowledge each sale that needs one (a stored payment the bank declined is money not received)'
      : 'they are forwarded when the host answers',
  )
}
