/**
 * `npm run report:no-loss [-- --short] [--only chaos,store,cluster,upgrade] [--seed S] [--path P]
 *  [--chaos-kills N] [--store-runs N] [--out <folder>]`: runs the chaos checker, the store's faults,
 * the three-server store's test (when this checkout has it) and the update with payments owed, and
 * writes docs/no-loss-report.md with its chart docs/no-loss-report.svg (no-loss-render.ts).
 *
 * The full run (≥ 1,000 SIGKILLs) is the release's report. `--short` (or NO_LOSS_SHORT=1) is the
 * small budget CI can afford: it writes nothing unless `--out` names a folder. Any violation prints
 * what failed, its seed and the command that replays it, and the exit code is 1.
 *
 * The chaos worker keeps its data key in the Secret Service, so outside a desktop session this script
 * starts itself again under dbus-run-session with a throwaway gnome-keyring in a throwaway HOME, as
 * `npm run chaos` does.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { arch, cpus, release, type } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { rerunInPrivateKeyring } from '../support/private-keyring'
import type { Budget, PartId, PartResult } from './no-loss-parts'
import type { ReportConfig } from './no-loss-render'

const ROOT = resolve(import.meta.dirname, '..', '..')
const { values } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    only: { type: 'string' },
    seed: { type: 'string' },
    path: { type: 'string' },
    'chaos-kills': { type: 'string' },
    'store-runs': { type: 'string' },
    out: { type: 'string' },
  },
})

if (!rerunInPrivateKeyring('noloss')) {
  await main()
}

async function main(): Promise<void> {
  const { FULL_BUDGET, SHORT_BUDGET, chaosPart, clusterPart, storePart, upgradePart } = await import('./no-loss-parts')
  const { renderChart, renderReport, totalViolations } = await import('./no-loss-render')
  const { secretServiceAvailable } = await import('../support/system')

  const short = values.short || process.env.NO_LOSS_SHORT === '1'
  const budget = { ...(short ? SHORT_BUDGET : FULL_BUDGET) }
  if (values['chaos-kills'] !== undefined) budget.chaosKills = Number(values['chaos-kills'])
  if (values['store-runs'] !== undefined) budget.storeRuns = Number(values['store-runs'])
  const only = new Set((values.only ?? 'chaos,store,cluster,upgrade').split(',') as PartId[])
  const seed = values.seed !== undefined ? Number(values.seed) : (Date.now() ^ (Math.random() * 0x100000000)) | 0
  const say = (line: string): void => void process.stderr.write(`[no-loss] ${line}\n`)
  say(`seed ${seed}${values.path ? `, path ${values.path}` : ''}; ${short ? 'short' : 'full'} budget ${JSON.stringify(budget)}`)

  const parts: PartResult[] = []
  if (only.has('chaos')) {
    if (await secretServiceAvailable()) parts.push(await chaosPart(budget, seed, values.path, say))
    else
      parts.push({
        id: 'chaos',
        skipped: 'the Secret Service (gnome-keyring) is not available',
        runs: 0,
        items: 0,
        kills: 0,
        faults: {},
        violations: 0,
        replay: `npm run report:no-loss -- --only chaos --seed ${seed}`,
        ms: 0,
        details: {},
      })
  }
  if (only.has('store')) parts.push(await storePart(budget, seed, values.path, say))
  if (only.has('cluster')) parts.push(clusterPart())
  if (only.has('upgrade') && budget.upgrade) parts.push(await upgradePart(say))

  for (const part of parts) {
    say(
      `${part.id}: ${part.skipped ? `not run (${part.skipped})` : `${part.runs} runs, ${part.items} items, ${part.kills} kills, ${part.violations} violations`}`,
    )
    if (part.failure) process.stderr.write(`${part.failure}\n`)
  }
  const violations = totalViolations(parts)
  const out = values.out ?? (short || values.only !== undefined ? undefined : join(ROOT, 'docs'))
  if (out !== undefined) {
    mkdirSync(out, { recursive: true })
    const chaos = parts.find((p) => p.id === 'chaos' && p.skipped === undefined)
    const killsPerMinute = chaos && chaos.ms > 0 ? Math.round(chaos.kills / (chaos.ms / 60_000)) : 0
    const config = machineConfig(
      short
        ? 'short'
        : values.only !== undefined || values['chaos-kills'] !== undefined || values['store-runs'] !== undefined
          ? 'mid-size'
          : 'full',
      budget,
      killsPerMinute,
    )
    // Formatted as the repository's other docs are (CI checks them with prettier).
    const { format, resolveConfig } = await import('prettier')
    const mdFile = join(out, 'no-loss-report.md')
    writeFileSync(mdFile, await format(renderReport(parts, config), { ...(await resolveConfig(mdFile)), filepath: mdFile }))
    writeFileSync(join(out, 'no-loss-report.svg'), renderChart(parts))
    say(`wrote ${join(out, 'no-loss-report.md')} and no-loss-report.svg`)
  }
  console.log(
    JSON.stringify({ report: 'no-loss', seed, violations, parts: parts.map(({ details: _details, failure: _failure, ...p }) => p) }),
  )
  process.exit(violations > 0 ? 1 : 0)
}

function machineConfig(mode: 'full' | 'short' | 'mid-size', budget: Budget, killsPerMinute: number): ReportConfig {
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || 'not installed'
  const version = (pkg: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version
  const sqlite = spawnSync(
    process.execPath,
    ['-e', "const D=require('better-sqlite3');console.log(new D(':memory:').prepare('select sqlite_version()').pluck().get())"],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  ).stdout.trim()
  const nats = run('nats-server', ['--version'])
  return {
    commit: run('git', ['rev-parse', '--short=12', 'HEAD']),
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    natsServer: nats,
    sqlite,
    betterSqlite3: version('better-sqlite3'),
    fastCheck: version('fast-check'),
    os: `${type()} ${release()} ${arch()}, ${cpus().length} cores`,
    mode,
    budget,
    killsPerMinute,
    natsSync:
      'one server per test, JetStream with its defaults (test/support/nats-server.ts): a copy it acknowledges is in its memory and reaches its disk with its next periodic sync (every two minutes by default), so the copy is buffered, not synced',
  }
}
