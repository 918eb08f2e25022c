/**
 * The shipped Prometheus alert rules (resources/prometheus/pos-agent-alerts.yml) checked and unit
 * tested by Debian's `promtool` (package `prometheus`): each alert fires after its time, not before.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { commandAvailable, requireComponent } from '../../support/system'

const available = requireComponent(
  'promtool',
  commandAvailable('promtool'),
  'run `scripts/install-system-deps.sh test` (apt-get install prometheus)',
)
const here = fileURLToPath(new URL('./prometheus/', import.meta.url))

describe.runIf(available)('the alert rules', () => {
  it('are valid rules', () => {
    const run = spawnSync('promtool', ['check', 'rules', '../../../../resources/prometheus/pos-agent-alerts.yml'], {
      cwd: here,
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/SUCCESS: 5 rules found/)
  })

  it('pass their unit tests (promtool test rules)', () => {
    const run = spawnSync('promtool', ['test', 'rules', 'pos-agent-alerts.test.yml'], { cwd: here, encoding: 'utf8', timeout: 30_000 })
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/SUCCESS/)
  })
})
