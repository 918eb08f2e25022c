/**
 * `npm run chaos -- --runs N [--seed S] [--path P] [--time-limit-s T] [--explore]`
 * or `npm run chaos -- --scenario '<json>'` (one printed sequence): the chaos checker
 * outside vitest, for long runs. Ends with one JSON line; the exit code is 1 when an invariant was
 * violated. --explore runs every sequence without stopping or shrinking at the first failure.
 * CHAOS_SEED and CHAOS_PATH replay a reported failure.
 *
 * The worker keeps its data key in the Secret Service (it must outlive a SIGKILL). Outside a desktop
 * session this script starts itself again under dbus-run-session with a throwaway, unlocked
 * gnome-keyring in a throwaway HOME, as `npm test` does, so no real keyring is touched.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { rerunInPrivateKeyring } from '../support/private-keyring'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    seed: { type: 'string' },
    path: { type: 'string' },
    'time-limit-s': { type: 'string' },
    quiet: { type: 'boolean', default: false },
    explore: { type: 'boolean', default: false },
    scenario: { type: 'string' },
  },
})

if (!rerunInPrivateKeyring('chaos')) {
  const { describeFailure, envSeed, runChaos } = await import('./chaos-engine')
  const { secretServiceAvailable, INSTALL } = await import('../support/system')
  if (!(await secretServiceAvailable())) {
    console.error(`the chaos checker needs the Secret Service (gnome-keyring): ${INSTALL.keychain}`)
    process.exit(2)
  }
  if (values.scenario !== undefined) {
    // A printed sequence, run as it is: timing is real, so this is the surest replay of a shrunk failure.
    const { runScenario } = await import('./chaos-engine')
    const { mkdtempSync: makeTemp, rmSync: remove } = await import('node:fs')
    const tlsDir = makeTemp(join(tmpdir(), 'pos-chaos-tls-'))
    const report = await runScenario(JSON.parse(values.scenario) as Parameters<typeof runScenario>[0], { tlsDir })
    remove(tlsDir, { recursive: true, force: true })
    for (const v of report.violations) console.error(`  - ${v}`)
    const { violations, ...counts } = report
    console.log(JSON.stringify({ chaos: 'engine', runs: 1, ...counts, violations: violations.length }))
    process.exit(violations.length > 0 ? 1 : 0)
  }
  const fromEnv = envSeed()
  const seed = values.seed !== undefined ? Number(values.seed) : fromEnv.seed
  const path = values.path ?? fromEnv.path
  const summary = await runChaos({
    runs: Number(values.runs),
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
    // Shrinking starts a process per step: bounded so that a failing run still ends with its line.
    timeLimitMs: Number(values['time-limit-s'] ?? Math.max(600, Number(values.runs) * 15)) * 1_000,
    explore: values.explore,
    ...(values.quiet ? {} : { log: (line: string) => console.error(line) }),
  })
  if (summary.violations > 0) console.error(describeFailure(summary))
  console.log(JSON.stringify(summary))
  process.exit(summary.violations > 0 ? 1 : 0)
}
