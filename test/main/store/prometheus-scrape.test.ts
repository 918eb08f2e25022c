/**
 * Prometheus stays the metrics plane (docs/store.md, docs/monitoring.md): a real Prometheus (Debian's
 * `prometheus`) scrapes two agents (`pos-agent serve`, training mode) with each one's bearer token,
 * and a scrape without the token is refused.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServe, type ServeProcess } from '../../e2e/harness'
import { commandAvailable, requireComponent } from '../../support/system'

const available = requireComponent(
  'prometheus',
  commandAvailable('prometheus'),
  'run `scripts/install-system-deps.sh test` (apt-get install prometheus)',
)

/** A port free right now on 127.0.0.1 (Prometheus cannot report a port the kernel picked). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe.runIf(available)('a real Prometheus scraping two agents', () => {
  const agents: ServeProcess[] = []
  let prometheus: ChildProcess | undefined
  const dir = mkdtempSync(join(tmpdir(), 'pos-prometheus-'))
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve))
      prometheus.kill('SIGTERM')
      await exited
    }
    for (const agent of agents) await agent.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('reads both lanes with their tokens; a scrape without one is refused', async () => {
    agents.push(await startServe('prometheus-lane-1'), await startServe('prometheus-lane-2'))
    const job = (name: string, agent: ServeProcess, token: string | undefined) => {
      const file = join(dir, `${name}.token`)
      if (token) writeFileSync(file, token, { mode: 0o600 })
      return [
        `  - job_name: ${name}`,
        '    scrape_interval: 1s',
        ...(token ? ['    authorization:', '      type: Bearer', `      credentials_file: ${file}`] : []),
        '    static_configs:',
        `      - targets: ['${new URL(agent.uiUrl).host}']`,
      ].join('\n')
    }
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'scrape_configs:',
        job('lane-1', agents[0]!, agents[0]!.token),
        job('lane-2', agents[1]!, agents[1]!.token),
        job('no-token', agents[0]!, undefined),
      ].join('\n'),
    )
    const port = await freePort()
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    )
    const query = async (promql: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`)
      const body = (await response.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }
      return body.data.result
    }
    const deadline = Date.now() + 45_000
    let up: Array<{ metric: Record<string, string>; value: [number, string] }> = []
    const upOf = (job: string) => up.find((series) => series.metric.job === job)?.value[1]
    for (;;) {
      up = await query('up').catch(() => [])
      if ((up.length === 3 && upOf('lane-1') === '1' && upOf('lane-2') === '1') || Date.now() > deadline) break
      await new Promise((r) => setTimeout(r, 500))
    }
    expect([upOf('lane-1'), upOf('lane-2'), upOf('no-token')]).toEqual(['1', '1', '0'])
    const lanes = await query('pos_agent_info')
    expect(lanes.map((series) => series.metric.job).sort()).toEqual(['lane-1', 'lane-2'])
    expect(lanes.every((series) => series.metric.terminal_id === 'TRAIN-T01' && series.metric.mode === 'training')).toBe(true)
  }, 120_000)
})
