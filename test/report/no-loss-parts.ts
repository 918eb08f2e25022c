/**
 * The runs behind the no-loss report (docs/no-loss-report.md), each a checker that already exists,
 * given a budget and a seed and summed up the same way:
 *
 * - `chaos`: the chaos checker's sequences (test/chaos/chaos-engine.ts) with more SIGKILLs drawn in,
 *   until the kill target is reached: sales, voids, returns, tips and closes, host faults and outages,
 *   overlapping commands, store server outages, each run settled and checked against the host's
 *   ledger and the journal.
 * - `store`: the rescue model (test/support/rescue-model.ts): the store server killed and restarted,
 *   a lane killed, frozen and cut off, rescues racing a living lane.
 * - `cluster`: the three-server store losing one server, its own test run here when nats-server is
 *   installed (`CLUSTER_TEST_FILE`); the report says so when it is not.
 * - `upgrade`: the last release's journal, owing every kind of item, sent by this checkout
 *   (test/support/upgrade-journal.ts).
 *
 * A failing run keeps its seed, its path and the command that replays it.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { commandArb, runScenario, type ChaosCommand, type Scenario } from '../chaos/chaos-engine'
import { gitIn } from '../bench/support/baseline-checkout'
import { commandAvailable } from '../support/system'
import { describeFailure as describeStoreFailure, runRescueModel, type ModelCommand } from '../support/rescue-model'
import { ROOT, runUpgrade, upgradeRelease } from '../support/upgrade-journal'

export type PartId = 'chaos' | 'store' | 'cluster' | 'upgrade'

export interface PartResult {
  id: PartId
  /** Skipped (the reason) when this machine lacks what the part needs, or the checkout lacks the test. */
  skipped?: string
  seed?: number
  runs: number
  /** Sales, returns and queued items the part checked. */
  items: number
  kills: number
  /** Every fault injected, by kind (kills included). */
  faults: Record<string, number>
  violations: number
  /** What failed, the seed and path, and the command that replays it. */
  failure?: string
  /** The one command that runs this part again as it ran. */
  replay: string
  ms: number
  details: Record<string, unknown>
}

export interface Budget {
  /** Stop drawing chaos runs once this many SIGKILLs happened (or `chaosMaxRuns` ran). */
  chaosKills: number
  chaosMaxRuns: number
  storeRuns: number
  storeCommandsPerRun: number
  upgrade: boolean
}

export const FULL_BUDGET: Budget = { chaosKills: 1_000, chaosMaxRuns: 2_000, storeRuns: 30, storeCommandsPerRun: 16, upgrade: true }
export const SHORT_BUDGET: Budget = { chaosKills: 20, chaosMaxRuns: 10, storeRuns: 3, storeCommandsPerRun: 10, upgrade: true }

const add = (into: Record<string, number>, key: string, n = 1): void => void (into[key] = (into[key] ?? 0) + n)

/** The chaos checker's commands, with a SIGKILL (now, or a moment from now) drawn one time in four more. */
const killArb: fc.Arbitrary<ChaosCommand> = fc.oneof(
  fc.constant({ kind: 'kill' as const }),
  fc.integer({ min: 0, max: 600 }).map((afterMs): ChaosCommand => ({ kind: 'killSoon', afterMs })),
)
export const killHeavyScenarioArb: fc.Arbitrary<Scenario> = fc.record({
  restaurant: fc.boolean(),
  store: commandAvailable('nats-server') ? fc.boolean() : fc.constant(false),
  manager: fc.boolean(),
  commands: fc.array(fc.oneof({ weight: 3, arbitrary: commandArb }, { weight: 1, arbitrary: killArb }), {
    minLength: 8,
    maxLength: 40,
    size: 'medium',
  }),
})

/** The chaos commands that are faults, in the words of the report. */
const FAULT_WORDS: Readonly<Record<string, string>> = {
  hostDown: 'bank unreachable',
  hostUp: 'bank back',
  clearFaults: "bank's faults cleared",
  storeDown: 'store server unreachable',
  storeSlow: 'store server slow',
  storeUp: 'store server back',
  storeRestart: 'store server restarted',
}

/** The faults a sequence drew, by kind; overlapping commands (a sale or return not waited for) counted apart. */
export function chaosFaultsOf(commands: readonly ChaosCommand[]): Record<string, number> {
  const faults: Record<string, number> = {}
  for (const command of commands) {
    if (command.kind === 'fault') add(faults, `bank fault ${command.fault.replace(/=.*/, '')}`)
    else if (FAULT_WORDS[command.kind]) add(faults, FAULT_WORDS[command.kind]!)
    if ('wait' in command && command.wait === false) add(faults, 'overlapping command')
  }
  return faults
}

export async function chaosPart(
  budget: Budget,
  seed: number,
  path?: string,
  log: (line: string) => void = () => undefined,
): Promise<PartResult> {
  const started = Date.now()
  const tlsDir = mkdtempSync(join(tmpdir(), 'pos-noloss-tls-'))
  const faults: Record<string, number> = {}
  const totals = { runs: 0, kills: 0, sales: 0, returns: 0, commands: 0, races: 0, nexoChecks: 0, withStore: 0 }
  let failing: { scenario: Scenario; violations: string[] } | undefined
  try {
    const result = await fc.check(
      fc.asyncProperty(killHeavyScenarioArb, async (scenario) => {
        // The target reached: the remaining draws are not run (a replayed path always runs).
        if (path === undefined && totals.kills >= budget.chaosKills) return true
        const report = await runScenario(scenario, { tlsDir })
        totals.runs++
        totals.kills += report.kills
        totals.sales += report.sales
        totals.returns += report.returns
        totals.commands += report.commands
        totals.races += report.races
        totals.nexoChecks += report.nexoChecks
        if (scenario.store === true) totals.withStore++
        for (const [kind, n] of Object.entries(chaosFaultsOf(scenario.commands))) add(faults, kind, n)
        log(
          `chaos run ${totals.runs}: ${report.kills} kills, ${report.sales} sales, ${report.violations.length} violations (${totals.kills} kills so far)`,
        )
        if (report.violations.length > 0) failing = { scenario, violations: report.violations }
        return report.violations.length === 0
      }),
      { numRuns: path === undefined ? budget.chaosMaxRuns : 1, seed, ...(path !== undefined ? { path } : {}), endOnFailure: true },
    )
    faults.SIGKILL = totals.kills
    const replayOf = (p: string | undefined) =>
      `npm run report:no-loss -- --only chaos --seed ${seed}${p ? ` --path ${p}` : ` --chaos-kills ${budget.chaosKills}`}`
    return {
      id: 'chaos',
      seed,
      runs: totals.runs,
      items: totals.sales + totals.returns,
      kills: totals.kills,
      faults,
      violations: result.failed ? 1 : 0,
      ...(result.failed
        ? {
            failure: [
              `chaos: invariant violated (seed ${seed}, path ${result.counterexamplePath ?? '?'})`,
              ...(failing?.violations ?? [String(result.errorInstance)]).map((v) => `  - ${v}`),
              `replay: ${replayOf(result.counterexamplePath ?? undefined)}`,
              `    or: npm run chaos -- --scenario '${JSON.stringify(failing?.scenario)}'`,
            ].join('\n'),
          }
        : {}),
      replay: replayOf(path),
      ms: Date.now() - started,
      details: { ...totals },
    }
  } finally {
    rmSync(tlsDir, { recursive: true, force: true })
  }
}

/** The store model's commands, by kind, from its trace lines (`3: {"kind":"kill"} → …`). */
export function storeFaultsOf(traceLines: readonly string[]): Record<string, number> {
  const names: Record<string, string> = {
    kill: 'lane killed or restarted',
    freeze: 'lane frozen or thawed',
    cable: 'lane cut off or plugged back',
    storeRestart: 'store server killed and restarted',
    rescue: 'rescue from another lane',
    bank: 'bank down or up',
  }
  const faults: Record<string, number> = {}
  for (const line of traceLines) {
    const kind = /^\s*\d+: \{"kind":"(\w+)"/.exec(line)?.[1]
    if (kind && names[kind]) add(faults, names[kind])
  }
  return faults
}

export async function storePart(
  budget: Budget,
  seed: number,
  path?: string,
  log: (line: string) => void = () => undefined,
): Promise<PartResult> {
  const replay = (p?: string) =>
    `RESCUE_MODEL_SEED=${seed}${p ? ` RESCUE_MODEL_PATH=${p}` : ''} RESCUE_MODEL_RUNS=${budget.storeRuns} RESCUE_MODEL_COMMANDS_PER_RUN=${budget.storeCommandsPerRun} npm test -- test/main/store/rescue-model.test.ts`
  if (!commandAvailable('nats-server'))
    return {
      id: 'store',
      skipped: 'nats-server is not installed',
      runs: 0,
      items: 0,
      kills: 0,
      faults: {},
      violations: 0,
      replay: replay(),
      ms: 0,
      details: {},
    }
  const trace: string[] = []
  const summary = await runRescueModel({
    runs: budget.storeRuns,
    maxCommands: budget.storeCommandsPerRun,
    seed,
    ...(path !== undefined ? { path } : {}),
    trace: true,
    log: (line) => (line.startsWith('  ') ? trace.push(line) : log(`store ${line}`)),
  })
  const faults = storeFaultsOf(trace)
  const { failure, ...totals } = summary
  return {
    id: 'store',
    seed,
    runs: summary.runs,
    items: summary.sales,
    kills: (faults['lane killed or restarted'] ?? 0) + (faults['store server killed and restarted'] ?? 0),
    faults,
    violations: failure ? 1 : 0,
    ...(failure ? { failure: describeStoreFailure(summary) } : {}),
    replay: replay(path),
    ms: summary.ms,
    details: totals,
  }
}

/**
 * The three-server store losing one server: its own test (a JetStream cluster of three real Debian
 * nats-servers on 127.0.0.1; one killed with SIGKILL during a burst of offline approvals and started
 * again, then another killed once it caught up; docs/store.md "A three-server store"). The test
 * writes how many payments it approved and rescued to CLUSTER_TALLY's file; a run counts two kills.
 */
export const CLUSTER_TEST_FILE = 'test/main/store/three-server-store.test.ts'
export const CLUSTER_TALLY = 'POS_THREE_SERVER_TALLY'

export function clusterPart(): PartResult {
  const replay = `npm test -- ${CLUSTER_TEST_FILE}`
  const base = { id: 'cluster' as const, runs: 0, items: 0, kills: 0, faults: {}, violations: 0, replay, ms: 0, details: {} }
  if (!existsSync(join(ROOT, CLUSTER_TEST_FILE))) return { ...base, skipped: `this checkout has no ${CLUSTER_TEST_FILE}` }
  if (!commandAvailable('nats-server'))
    return { ...base, skipped: 'nats-server is not installed on this machine (apt-get install nats-server)' }
  const started = Date.now()
  const tallyDir = mkdtempSync(join(tmpdir(), 'pos-cluster-tally-'))
  const tally = join(tallyDir, 'approved')
  try {
    const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', CLUSTER_TEST_FILE, '--reporter=dot'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 15 * 60_000,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', [CLUSTER_TALLY]: tally },
    })
    // Without colours' escape codes, which split vitest's summary line.
    // eslint-disable-next-line no-control-regex
    const out = `${run.stdout}\n${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, '')
    const passed = Number(/Tests\s+(?:\S+\s+)*?(\d+) passed/.exec(out)?.[1] ?? 0)
    const failed = Number(/(\d+) failed/.exec(out)?.[1] ?? 0)
    const runs = passed + failed
    const items = existsSync(tally)
      ? readFileSync(tally, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .reduce((sum, line) => sum + Number(line), 0)
      : 0
    const ok = run.status === 0 && runs > 0
    return {
      ...base,
      runs,
      items,
      faults: { 'store server killed (SIGKILL) and started again': runs, 'a second store server killed (SIGKILL)': runs },
      kills: 2 * runs,
      violations: ok ? 0 : Math.max(1, failed),
      ...(ok ? {} : { failure: `${CLUSTER_TEST_FILE} failed (exit ${run.status}, ${runs} tests run):\n${out.slice(-4000)}` }),
      ms: Date.now() - started,
    }
  } finally {
    rmSync(tallyDir, { recursive: true, force: true })
  }
}

export async function upgradePart(log: (line: string) => void = () => undefined): Promise<PartResult> {
  const release = upgradeRelease(gitIn(ROOT))
  const replay = 'npm test -- test/main/journal/upgrade.test.ts'
  const base = { id: 'upgrade' as const, runs: 0, items: 0, kills: 0, faults: {}, violations: 0, replay, ms: 0 }
  if ('none' in release) return { ...base, skipped: release.none, details: {} }
  const report = await runUpgrade(release, (line) => log(`upgrade ${line}`))
  return {
    ...base,
    runs: 1,
    items: report.items,
    faults: { 'update with items owed': 1 },
    violations: report.violations.length,
    ...(report.violations.length > 0
      ? { failure: ['upgrade: items lost or repeated', ...report.violations.map((v) => `  - ${v}`), `replay: ${replay}`].join('\n') }
      : {}),
    ms: report.ms,
    details: {
      release: `${report.release.ref} (${report.release.commit.slice(0, 12)})`,
      releaseNote: report.release.note,
      fromVersion: report.fromVersion,
      toVersion: report.toVersion,
      owed: report.owed,
      forwardedOnce: report.forwardedOnce,
      notCovered: report.notCovered,
    },
  }
}

export type { ModelCommand }
