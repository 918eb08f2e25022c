/**
 * The comparison every benchmark shares (`npm run bench:<name> -- --baseline <ref> --rounds N`): what
 * the command line asks for, the order of the runs, and the summary line. Pure: the git checkout of the
 * baseline is baseline-checkout.ts, the child processes are run-bench.ts.
 *
 * A figure is the median over the rounds of each side; its ratio is current / baseline. The machine is
 * shared and noisy, so the two sides alternate (current, baseline, current, ...) and a burst of noise
 * lands on both rather than on one. The machine's speed also drifts over the minutes a comparison
 * takes (a round of the same side can be 15% slower than the one before), which the medians of the
 * two sides mix in: `pairedRatios` is, per figure, the median over the rounds of each round's own
 * current / baseline, the two runs of a round being back to back, so a drift slower than a round
 * cancels out. Both are printed.
 */

export type Figures = Record<string, unknown>

export interface CompareOptions {
  bench: string
  /** A git ref or commit; `none` skips the baseline; undefined means the newest release tag. */
  baseline: string | undefined
  rounds: number
  /** Everything else on the command line goes to the bench itself (e.g. `--rows 100000`). */
  benchArgs: string[]
}

export class CompareUsageError extends Error {
  override name = 'CompareUsageError'
}

export const DEFAULT_ROUNDS = 3

export function parseCompareArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CompareOptions {
  const [bench, ...rest] = argv
  if (!bench || bench.startsWith('-')) throw new CompareUsageError('which bench? e.g. `run-bench.ts engine --baseline v1.0.0`')
  let baseline = env.BENCH_BASELINE?.trim() || undefined
  let rounds: number | undefined
  const benchArgs: string[] = []
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    if (flag !== '--baseline' && flag !== '--rounds') {
      benchArgs.push(arg)
      continue
    }
    const value = inline ?? rest[++i]
    if (value === undefined || value === '') throw new CompareUsageError(`${flag} needs a value`)
    if (flag === '--baseline') baseline = value
    else {
      rounds = Number(value)
      if (!Number.isInteger(rounds) || rounds < 1)
        throw new CompareUsageError(`--rounds must be a whole number of at least 1, not "${value}"`)
    }
  }
  return { bench, baseline, rounds: rounds ?? DEFAULT_ROUNDS, benchArgs }
}

export type Side = 'current' | 'baseline'

/** current, baseline, current, baseline, ...: `rounds` of each, the current first. */
export function schedule(rounds: number, withBaseline: boolean): Side[] {
  return Array.from({ length: rounds }, () => (withBaseline ? (['current', 'baseline'] as const) : (['current'] as const))).flat()
}

/** The last line of a bench's standard output that is a JSON object: every bench ends with one. */
export function figuresLine(stdout: string): Figures | undefined {
  const lines = stdout.split('\n').map((l) => l.trim())
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!
    if (!line.startsWith('{')) continue
    try {
      const parsed: unknown = JSON.parse(line)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Figures
    } catch {
      // a line that only looks like JSON: keep looking upwards
    }
  }
  return undefined
}

/** The middle value; for an even count the mean of the two middle ones. */
export function medianOf(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000

/**
 * Per figure, the median over the runs of a side. A figure that is not a number (a flag, a nested
 * object of targets) is kept as it is when every run agrees, else as the list of what each run said.
 */
export function medianFigures(runs: readonly Figures[]): Figures {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r)))]
  const out: Figures = {}
  for (const name of names) {
    const values = runs.map((r) => r[name]).filter((v) => v !== undefined)
    if (values.length > 0 && values.every((v) => typeof v === 'number' && Number.isFinite(v)))
      out[name] = round3(medianOf(values as number[]))
    else {
      const distinct = [...new Set(values.map((v) => JSON.stringify(v)))]
      out[name] = distinct.length === 1 ? values[0] : values
    }
  }
  return out
}

/**
 * Figures where more is better: rates, and the in-process ratios of a rate to its baseline rate.
 * Every other numeric figure is a time, a size or a ratio of times: less is better.
 */
const HIGHER_IS_BETTER: Record<string, readonly string[]> = {
  gateway: ['ratio'],
  device: ['ratio'],
  engine: ['forwardingRatio'],
}

export function higherIsBetter(bench: string, figure: string): boolean {
  return /PerSecond$/i.test(figure) || (HIGHER_IS_BETTER[bench] ?? []).includes(figure)
}

/**
 * current / baseline for each numeric figure both sides have. A figure with the same value in every
 * run of both sides is a setting of the bench (a row count), not a measurement: no ratio; nor is a
 * target (a name ending in "Target"), which a newer release may have moved.
 */
export function ratios(currentRuns: readonly Figures[], baselineRuns: readonly Figures[]): Record<string, number | null> {
  const current = medianFigures(currentRuns)
  const baseline = medianFigures(baselineRuns)
  const out: Record<string, number | null> = {}
  for (const [name, value] of Object.entries(current)) {
    if (name === 'bench' || name.endsWith('Target')) continue
    const base = baseline[name]
    if (typeof value !== 'number' || typeof base !== 'number') continue
    const all = [...currentRuns, ...baselineRuns].map((r) => r[name])
    if (all.every((v) => v === all[0])) continue
    out[name] = base === 0 ? null : round3(value / base)
  }
  return out
}

/**
 * Per figure, the median over the rounds of current / baseline within the round (the i-th run of each
 * side, run one after the other). Figures left out as in `ratios`; a round whose baseline is 0 counts
 * for nothing.
 */
export function pairedRatios(currentRuns: readonly Figures[], baselineRuns: readonly Figures[]): Record<string, number | null> {
  const out: Record<string, number | null> = {}
  for (const name of Object.keys(ratios(currentRuns, baselineRuns))) {
    const each: number[] = []
    for (let round = 0; round < Math.min(currentRuns.length, baselineRuns.length); round++) {
      const value = currentRuns[round]![name]
      const base = baselineRuns[round]![name]
      if (typeof value === 'number' && typeof base === 'number' && base !== 0) each.push(value / base)
    }
    out[name] = each.length === 0 ? null : round3(medianOf(each))
  }
  return out
}

/** `note`: how the baseline was found, or why there is none (a clone without tags), for the JSON line. */
export type BaselineLabel =
  | { kind: 'none'; note?: string | undefined }
  | { kind: 'absent'; ref: string; commit: string; note?: string | undefined }
  | { kind: 'ref'; ref: string; commit: string; note?: string | undefined }

/** The one JSON line the comparison ends with. */
export function summaryLine(
  bench: string,
  baseline: BaselineLabel,
  currentRuns: readonly Figures[],
  baselineRuns: readonly Figures[],
): Figures {
  const rounds = currentRuns.length
  const current = medianFigures(currentRuns)
  const note = baseline.note === undefined ? {} : { baselineNote: baseline.note }
  if (baseline.kind === 'none') return { bench, baseline: 'none', ...note, rounds, current }
  if (baseline.kind === 'absent')
    return { bench, baseline: 'absent', baselineRef: baseline.ref, baselineCommit: baseline.commit, ...note, rounds, current }
  const figureRatios = ratios(currentRuns, baselineRuns)
  return {
    bench,
    baseline: baseline.ref,
    baselineCommit: baseline.commit,
    ...note,
    rounds,
    current,
    baselineFigures: medianFigures(baselineRuns),
    ratios: figureRatios,
    pairedRatios: pairedRatios(currentRuns, baselineRuns),
    higherIsBetter: Object.keys(figureRatios).filter((name) => higherIsBetter(bench, name)),
  }
}
