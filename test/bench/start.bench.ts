/**
 * bench:start, cold start of the command line to serving: from spawning `pos-agent serve` (training
 * mode, no configuration) to its first successful HTTP answer on 127.0.0.1, on a data folder whose
 * journal is empty and on one holding `--rows` historical sales (1,000,000 by default), alternating
 * the two. Each folder is started once untimed first (the first start makes the training CA and the
 * API token); `firstStartMs` is that start on the empty folder. Target: under 700 ms on both.
 *
 * The filled journal is made once per schema version and row count and kept in the system's temp
 * folder (filling a million rows takes minutes); each run starts on a copy of it.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { JOURNAL_FILE } from '../../src-main/app/compose'
import { TRAINING_IDENTITY } from '../../src-main/config'
import { median, report } from './support/bench-kit'
import { ensureBuilt, timeColdStart } from './support/cold-start'
import { fillHistory, JOURNAL_SCHEMA_VERSION } from './support/journal-history'

const ROOT = resolve(import.meta.dirname, '..', '..')
const { values } = parseArgs({ options: { rows: { type: 'string' }, starts: { type: 'string' } }, strict: true })
const ROWS = Number(values.rows ?? process.env.BENCH_START_ROWS ?? 1_000_000)
const STARTS = Number(values.starts ?? process.env.BENCH_STARTS ?? 7)
const TARGET_MS = 700
if (!Number.isInteger(ROWS) || ROWS < 1 || !Number.isInteger(STARTS) || STARTS < 1)
  throw new Error('--rows and --starts take whole numbers of at least 1')

/** The cached journal of `ROWS` sales of the training terminal (only its own sales: training refuses another's). */
function filledJournal(): string {
  const cache = join(tmpdir(), 'pos-agent-bench', `start-journal-v${JOURNAL_SCHEMA_VERSION}-${ROWS}`)
  const file = join(cache, JOURNAL_FILE)
  if (existsSync(file)) return file
  const making = `${cache}.${process.pid}`
  mkdirSync(making, { recursive: true })
  const began = performance.now()
  fillHistory(making, ROWS, `${TRAINING_IDENTITY.terminalId}-H`)
  console.error(`[start] filled ${ROWS} historical sales in ${((performance.now() - began) / 1000).toFixed(1)} s (kept in ${cache})`)
  rmSync(cache, { recursive: true, force: true })
  renameSync(making, cache) // whole or not at all: an interrupted fill is never taken for a cached one
  return file
}

const work = mkdtempSync(join(tmpdir(), 'pos-bench-start-'))
const folders = (name: string) => {
  const dataDir = join(work, name, 'data')
  const configHome = join(work, name, 'xdg')
  mkdirSync(dataDir, { recursive: true })
  mkdirSync(configHome, { recursive: true })
  return { dataDir, configHome }
}

try {
  ensureBuilt(ROOT)
  const empty = folders('empty')
  const full = folders('history')
  copyFileSync(filledJournal(), join(full.dataDir, JOURNAL_FILE))
  const firstStartMs = await timeColdStart(ROOT, empty.dataDir, empty.configHome)
  await timeColdStart(ROOT, full.dataDir, full.configHome)
  const times = { empty: [] as number[], history: [] as number[] }
  for (let i = 0; i < STARTS; i++) {
    times.empty.push(await timeColdStart(ROOT, empty.dataDir, empty.configHome))
    times.history.push(await timeColdStart(ROOT, full.dataDir, full.configHome))
    console.error(
      `[start] start ${i + 1}/${STARTS}: empty ${times.empty.at(-1)!.toFixed(0)} ms, ${ROWS} rows ${times.history.at(-1)!.toFixed(0)} ms`,
    )
  }
  const ms = (n: number) => Math.round(n)
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b)
  report({
    bench: 'start',
    command: 'pos-agent serve (training)',
    startEmptyMsP50: ms(median(times.empty)),
    startEmptyMsMin: ms(sorted(times.empty)[0]!),
    startHistoryMsP50: ms(median(times.history)),
    startHistoryMsMin: ms(sorted(times.history)[0]!),
    historyRows: ROWS,
    historyRatioP50: Number((median(times.history) / median(times.empty)).toFixed(3)),
    firstStartMs: ms(firstStartMs),
    starts: STARTS,
    targetMs: TARGET_MS,
  })
} finally {
  rmSync(work, { recursive: true, force: true })
}
