/** Shared pieces of the benchmarks: a child-process training host, percentiles, the closing JSON line. */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export interface HostProcess {
  url: string
  caPem: string
  stop(): Promise<void>
}

export async function startHostProcess(aid: string, key: string): Promise<HostProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'pos-bench-host-'))
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test/bench/support/training-host-process.ts', dir, aid, key], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('training host did not start within 30 s')), 30_000)
    createInterface({ input: child.stdout! }).once('line', (l) => {
      clearTimeout(timer)
      resolve(l)
    })
    child.once('exit', (code) => reject(new Error(`training host exited with ${code}`)))
  })
  const { url, caFile } = JSON.parse(line) as { url: string; caFile: string }
  return {
    url,
    caPem: await readFile(caFile, 'utf8'),
    stop: async () => {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
      await rm(dir, { recursive: true, force: true })
    },
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  )
}

/** Runs `worker` from `concurrency` loops until `count` items are done; returns items per second. */
export async function throughput(count: number, concurrency: number, worker: (i: number) => Promise<void>): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await worker(next++)
    }),
  )
  return count / ((performance.now() - started) / 1000)
}

/** Every benchmark ends with exactly one JSON line of its figures. */
export function report(figures: Record<string, unknown>): void {
  console.log(JSON.stringify(figures))
}
