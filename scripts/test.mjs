#!/usr/bin/env node
// `npm test`: the whole suite, the same on a developer machine and in CI.
// Runs vitest inside a private D-Bus session with an unlocked throwaway gnome-keyring when those are
// installed (the keychain tests need a real Secret Service), then prints the plain closing line
// `N passed, N failed` that CI reads. Extra arguments go to vitest (e.g. `npm test -- test/main/gateway`).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
const work = mkdtempSync(join(tmpdir(), 'pos-agent-test-'))
const report = join(work, 'vitest-report.json')
const vitest = [
  process.execPath,
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]

let command = vitest
const env = { ...process.env }
if (has('dbus-run-session') && has('gnome-keyring-daemon') && !process.env.POS_AGENT_TEST_NO_KEYRING) {
  // A throwaway HOME keeps the test keyring away from any real one: gnome-keyring keeps its keyrings
  // under $HOME/.local/share/keyrings, so the test's unlock password never touches the user's.
  env.HOME = join(work, 'home')
  delete env.XDG_DATA_HOME
  delete env.XDG_CONFIG_HOME
  env.KEYRING_PASSWORD = 'pos-agent-test'
  command = [
    'dbus-run-session',
    '--',
    'sh',
    '-c',
    'mkdir -p "$HOME" && printf %s "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"',
    'sh',
    ...vitest,
  ]
} else {
  console.warn(
    '[test] dbus-run-session or gnome-keyring-daemon not found: keychain tests will skip (scripts/install-system-deps.sh installs them)',
  )
}

const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env })
const stop = (signal) => child.kill(signal)
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
child.on('exit', (code, signal) => {
  let passed = 0
  let failed
  let skipped = 0
  if (existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, 'utf8'))
    passed = summary.numPassedTests
    // a suite that fails to load has no failed tests of its own: count it once
    failed = summary.numFailedTests + (summary.numFailedTests === 0 ? (summary.numFailedTestSuites ?? 0) : 0)
    skipped = summary.numPendingTests + (summary.numTodoTests ?? 0)
  } else {
    failed = 1
    console.error('[test] vitest wrote no report')
  }
  rmSync(work, { recursive: true, force: true })
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
  const exitCode = code ?? (signal ? 1 : 0)
  process.exit(exitCode !== 0 ? exitCode : failed > 0 ? 1 : 0)
})
