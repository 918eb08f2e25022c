/**
 * `npm run bench:<name> [-- --baseline <ref>|none] [--rounds N] [bench flags]`: runs
 * test/bench/<name>.bench.ts here and the same bench of the baseline commit in its own checkout,
 * alternating (current, baseline, ...) `N` times each (3 by default), then prints one JSON line:
 * the median of every figure on each side and their ratio current / baseline (support/compare.ts).
 *
 * The baseline is the nearest release HEAD contains (its `v*` tag, a remote's tag in a clone without
 * tags, or its release commit; support/baseline-checkout.ts) unless `--baseline` or $BENCH_BASELINE
 * names another ref; with none, this checkout runs alone as `"baseline":"none"`, and the line's
 * `baselineNote` says why. The baseline runs its own copy of the bench file; a bench that did not
 * exist there is reported as `"baseline":"absent"` with the current figures alone.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { BaselineError, fileAt, gitIn, prepareCheckout, resolveBaseline } from './support/baseline-checkout'
import {
  CompareUsageError,
  figuresLine,
  parseCompareArgs,
  schedule,
  summaryLine,
  type BaselineLabel,
  type Figures,
} from './support/compare'

const ROOT = resolve(import.meta.dirname, '..', '..')
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 60 * 60_000)
const say = (line: string): void => void process.stderr.write(`[bench] ${line}\n`)

let running: ReturnType<typeof spawn> | undefined

/** One run of a bench file in `cwd`; its output goes to stderr, its closing JSON line comes back. */
function runOnce(cwd: string, file: string, args: readonly string[], label: string): Promise<Figures> {
  return new Promise((done, fail) => {
    const env = { ...process.env }
    delete env.BENCH_BASELINE
    // its own process group, so a timeout or Ctrl+C reaches the hosts and browsers it started
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    })
    running = child
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      process.stderr.write(chunk)
    })
    const timer = setTimeout(() => {
      say(`${label} ran longer than ${RUN_TIMEOUT_MS / 60_000} min: stopping it`)
      stopGroup(child, 'SIGKILL')
    }, RUN_TIMEOUT_MS)
    child.once('error', fail)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      running = undefined
      const figures = figuresLine(stdout)
      if (code === 0 && figures) return done(figures)
      fail(new Error(`${label} ${code === 0 ? 'printed no JSON line of figures' : `failed (exit ${code ?? signal})`}`))
    })
  })
}

function stopGroup(child: ReturnType<typeof spawn>, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (running) stopGroup(running, signal)
    process.exit(130)
  })

async function main(): Promise<void> {
  const options = parseCompareArgs(process.argv.slice(2), process.env)
  const file = `test/bench/${options.bench}.bench.ts`
  if (!existsSync(join(ROOT, file))) {
    const known = readdirSync(join(ROOT, 'test/bench')).filter((f) => f.endsWith('.bench.ts'))
    throw new CompareUsageError(`there is no ${file}; the benches are ${known.map((f) => f.replace('.bench.ts', '')).join(', ')}`)
  }
  const git = gitIn(ROOT)
  const resolved = resolveBaseline(options.baseline, git)
  let label: BaselineLabel
  let baselineDir: string | undefined
  if (resolved.kind === 'none') {
    label = resolved
    say(resolved.note ?? 'this checkout alone, as asked (--baseline none)')
  } else {
    if (resolved.note !== undefined) say(resolved.note)
    label = fileAt(git, resolved.commit, file) ? resolved : { ...resolved, kind: 'absent' }
    if (label.kind === 'ref') {
      say(`comparing with ${resolved.ref} (${resolved.commit.slice(0, 12)})`)
      baselineDir = await prepareCheckout(ROOT, resolved.commit, process.env, say)
    } else say(`${file} does not exist in ${resolved.ref}: the current figures alone`)
  }
  const runs: Record<'current' | 'baseline', Figures[]> = { current: [], baseline: [] }
  const order = schedule(options.rounds, baselineDir !== undefined)
  for (const [i, side] of order.entries()) {
    const name = side === 'current' ? 'current' : `baseline ${label.kind === 'ref' ? label.ref : ''}`
    say(`run ${i + 1}/${order.length}: ${options.bench}, ${name}`)
    runs[side].push(await runOnce(side === 'current' ? ROOT : baselineDir!, file, options.benchArgs, name))
  }
  console.log(JSON.stringify(summaryLine(options.bench, label, runs.current, runs.baseline)))
}

try {
  await main()
} catch (error) {
  const known = error instanceof CompareUsageError || error instanceof BaselineError
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(known ? 2 : 1)
}
