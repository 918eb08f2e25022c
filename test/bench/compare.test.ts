/**
 * The comparison every bench shares: the command line, the order of the runs, medians and ratios, and
 * which commit is the baseline, against a real git repository made for each test. Nothing here is
 * timed: the benches' own figures are not asserted anywhere.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BaselineError, fileAt, gitIn, prepareCheckout, resolveBaseline } from './support/baseline-checkout'
import {
  CompareUsageError,
  figuresLine,
  medianFigures,
  medianOf,
  pairedRatios,
  parseCompareArgs,
  ratios,
  schedule,
  summaryLine,
} from './support/compare'

describe('the command line of a comparison', () => {
  it('takes the bench, the baseline and the rounds, and hands every other flag to the bench', () => {
    expect(parseCompareArgs(['start', '--baseline', 'v1.0.0', '--rows', '1000', '--rounds=5'], {})).toEqual({
      bench: 'start',
      baseline: 'v1.0.0',
      rounds: 5,
      benchArgs: ['--rows', '1000'],
    })
  })

  it('defaults to three rounds against the last release, or the baseline named in BENCH_BASELINE; the flag wins', () => {
    expect(parseCompareArgs(['engine'], {})).toEqual({ bench: 'engine', baseline: undefined, rounds: 3, benchArgs: [] })
    expect(parseCompareArgs(['engine'], { BENCH_BASELINE: 'none' }).baseline).toBe('none')
    expect(parseCompareArgs(['engine', '--baseline=abc123'], { BENCH_BASELINE: 'none' }).baseline).toBe('abc123')
  })

  it('refuses a missing bench, a flag without its value and rounds that are not a whole number', () => {
    expect(() => parseCompareArgs([], {})).toThrow(CompareUsageError)
    expect(() => parseCompareArgs(['engine', '--baseline'], {})).toThrow(/--baseline needs a value/)
    expect(() => parseCompareArgs(['engine', '--rounds', '0'], {})).toThrow(/at least 1/)
    expect(() => parseCompareArgs(['engine', '--rounds', '2.5'], {})).toThrow(/whole number/)
  })

  it('alternates the two sides, the current first, and runs the current alone without a baseline', () => {
    expect(schedule(3, true)).toEqual(['current', 'baseline', 'current', 'baseline', 'current', 'baseline'])
    expect(schedule(2, false)).toEqual(['current', 'current'])
  })
})

describe('figures, medians and ratios', () => {
  it('reads the last JSON line of a bench, whatever it printed before', () => {
    const out = 'warming up\n{"bench":"x","a":1}\nround 2\n{"bench":"x","a":2}\n\n'
    expect(figuresLine(out)).toEqual({ bench: 'x', a: 2 })
    expect(figuresLine('no figures here\n{broken\n')).toBeUndefined()
  })

  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(medianOf([5, 1, 3])).toBe(3)
    expect(medianOf([4, 1, 3, 2])).toBe(2.5)
    expect(medianOf([])).toBeNaN()
  })

  it('keeps a figure that is not a number when the runs agree, else what each run said', () => {
    const runs = [
      { bench: 'ui', p50: 10, ok: true, targets: { p99: 3 } },
      { bench: 'ui', p50: 30, ok: false, targets: { p99: 3 } },
      { bench: 'ui', p50: 20, ok: true, targets: { p99: 3 } },
    ]
    expect(medianFigures(runs)).toEqual({ bench: 'ui', p50: 20, ok: [true, false, true], targets: { p99: 3 } })
  })

  it('divides current by baseline per figure, leaving out settings, targets, figures the baseline lacks and a zero baseline', () => {
    const current = [
      { bench: 'engine', saleOwnMsP50: 1.5, forwardedPerSecond: 2000, rows: 1000, added: 4, errors: 1, saleOwnMsP99Target: 3 },
      { bench: 'engine', saleOwnMsP50: 1.7, forwardedPerSecond: 1800, rows: 1000, added: 5, errors: 1, saleOwnMsP99Target: 3 },
    ]
    const baseline = [
      { bench: 'engine', saleOwnMsP50: 2.4, forwardedPerSecond: 1000, rows: 1000, errors: 0, saleOwnMsP99Target: 5 },
      { bench: 'engine', saleOwnMsP50: 2.6, forwardedPerSecond: 1000, rows: 1000, errors: 0, saleOwnMsP99Target: 5 },
    ]
    expect(ratios(current, baseline)).toEqual({ saleOwnMsP50: 0.64, forwardedPerSecond: 1.9, errors: null })
  })

  it('pairs each round: the speed of the machine drifting between rounds moves the medians of the sides, much less the ratio within each round', () => {
    // The sale's p50 (ms) of a real 5-round run of bench:engine on this kind of machine: the first
    // current run was disturbed by another job; the others drifted between 1.06 and 1.37 on both sides.
    const current = [1.406, 1.06, 1.306, 1.348, 1.111].map((ms) => ({ bench: 'engine', saleOwnMsP50: ms, rows: 1000 }))
    const baseline = [1.13, 1.173, 1.37, 1.242, 1.144].map((ms) => ({ bench: 'engine', saleOwnMsP50: ms, rows: 1000 }))
    expect(ratios(current, baseline)).toEqual({ saleOwnMsP50: 1.113 })
    // Round by round: 1.244 (the disturbed one), 0.904, 0.953, 1.085, 0.971.
    expect(pairedRatios(current, baseline)).toEqual({ saleOwnMsP50: 0.971 })
    // The same code on both sides, on a machine 10% slower each round: every round's ratio is 1.
    const same = [1.0, 1.1, 1.21, 1.331, 1.4641].map((ms) => ({ bench: 'engine', saleOwnMsP50: ms, rows: 1000 }))
    expect(
      pairedRatios(
        same,
        same.map((run) => ({ ...run })),
      ),
    ).toEqual({ saleOwnMsP50: 1 })
  })

  it('ends with one line naming the baseline, the medians of each side, the ratios and which of them is better higher', () => {
    const line = summaryLine(
      'engine',
      { kind: 'ref', ref: 'v1.0.0', commit: 'c'.repeat(40) },
      [{ bench: 'engine', saleOwnMsP50: 1.6, forwardedPerSecond: 2000 }],
      [{ bench: 'engine', saleOwnMsP50: 2.5, forwardedPerSecond: 1000 }],
    )
    expect(line).toEqual({
      bench: 'engine',
      baseline: 'v1.0.0',
      baselineCommit: 'c'.repeat(40),
      rounds: 1,
      current: { bench: 'engine', saleOwnMsP50: 1.6, forwardedPerSecond: 2000 },
      baselineFigures: { bench: 'engine', saleOwnMsP50: 2.5, forwardedPerSecond: 1000 },
      ratios: { saleOwnMsP50: 0.64, forwardedPerSecond: 2 },
      pairedRatios: { saleOwnMsP50: 0.64, forwardedPerSecond: 2 },
      higherIsBetter: ['forwardedPerSecond'],
    })
  })

  it('says so when the bench did not exist in the baseline, or no baseline was asked for', () => {
    const runs = [{ bench: 'returns', returnOwnMsP50: 2 }]
    expect(summaryLine('returns', { kind: 'absent', ref: 'v1.0.0', commit: 'abc' }, runs, [])).toEqual({
      bench: 'returns',
      baseline: 'absent',
      baselineRef: 'v1.0.0',
      baselineCommit: 'abc',
      rounds: 1,
      current: { bench: 'returns', returnOwnMsP50: 2 },
    })
    expect(summaryLine('returns', { kind: 'none' }, runs, [])).toEqual({ bench: 'returns', baseline: 'none', rounds: 1, current: runs[0] })
  })

  it('carries how the baseline was found, or why there is none, as baselineNote', () => {
    const runs = [{ bench: 'engine', saleOwnMsP50: 2 }]
    expect(summaryLine('engine', { kind: 'none', note: 'no release is reachable' }, runs, [])).toEqual({
      bench: 'engine',
      baseline: 'none',
      baselineNote: 'no release is reachable',
      rounds: 1,
      current: runs[0],
    })
    const found = summaryLine('engine', { kind: 'ref', ref: 'v1.0.0', commit: 'abc', note: "origin's tag" }, runs, [{ saleOwnMsP50: 4 }])
    expect(found).toMatchObject({ baseline: 'v1.0.0', baselineCommit: 'abc', baselineNote: "origin's tag", ratios: { saleOwnMsP50: 0.5 } })
  })
})

// ---- the baseline commit, in a real repository -----------------------------------------------

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
}

function repository(): { dir: string; run: (...args: string[]) => string; commit: (file: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'pos-bench-git-'))
  made.push(dir)
  const run = (...args: string[]): string => {
    const result = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...IDENTITY } })
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
    return result.stdout.trim()
  }
  run('init', '--quiet', '--initial-branch=main')
  const commit = (file: string): string => {
    mkdirSync(join(dir, 'test/bench'), { recursive: true })
    writeFileSync(join(dir, file), `${file}\n`)
    run('add', '.')
    run('commit', '--quiet', '-m', `add ${file}`)
    return run('rev-parse', 'HEAD')
  }
  return { dir, run, commit }
}

describe('the baseline commit', () => {
  it('is the newest release tag HEAD contains, in version order, never one on HEAD itself nor on another branch', () => {
    const repo = repository()
    const first = repo.commit('a')
    repo.run('tag', '-a', 'v1.9.0', '-m', 'pos-agent 1.9.0')
    const second = repo.commit('b')
    repo.run('tag', '-a', 'v1.10.0', '-m', 'pos-agent 1.10.0')
    repo.run('tag', 'not-a-release')
    repo.run('switch', '--quiet', '-c', 'side')
    repo.commit('side')
    repo.run('tag', '-a', 'v2.0.0', '-m', 'on another branch')
    repo.run('switch', '--quiet', 'main')
    repo.commit('c')
    const git = gitIn(repo.dir)
    expect(resolveBaseline(undefined, git)).toEqual({ kind: 'ref', ref: 'v1.10.0', commit: second })
    repo.run('tag', '-a', 'v1.11.0', '-m', 'the release being made')
    expect(resolveBaseline(undefined, git)).toEqual({ kind: 'ref', ref: 'v1.10.0', commit: second })
    expect(resolveBaseline('v1.9.0', git)).toEqual({ kind: 'ref', ref: 'v1.9.0', commit: first })
    expect(resolveBaseline(first.slice(0, 10), git)).toEqual({ kind: 'ref', ref: first.slice(0, 10), commit: first })
    expect(resolveBaseline('none', git)).toEqual({ kind: 'none' })
  })

  it('is refused, saying what to do, when the ref named is unknown', () => {
    const repo = repository()
    repo.commit('a')
    expect(() => resolveBaseline('v9.9.9', gitIn(repo.dir))).toThrow(BaselineError)
  })

  it("in a clone made without tags, is the remote's newest release tag HEAD contains", () => {
    const origin = repository()
    origin.commit('a')
    origin.run('tag', '-a', 'v1.0.0', '-m', 'pos-agent 1.0.0')
    const release = origin.commit('b')
    origin.run('tag', '-a', 'v1.1.0', '-m', 'pos-agent 1.1.0')
    origin.run('tag', 'v1.2.0-light') // not a release's name
    origin.commit('c')
    const clone = mkdtempSync(join(tmpdir(), 'pos-bench-clone-'))
    made.push(clone)
    origin.run('clone', '--quiet', '--no-tags', origin.dir, clone)
    const git = gitIn(clone)
    expect(git(['tag', '--list'])).toBe('') // the clone really has no tag
    expect(resolveBaseline(undefined, git)).toEqual({
      kind: 'ref',
      ref: 'v1.1.0',
      commit: release,
      note: expect.stringMatching(/no release tag: v1\.1\.0 is origin's/),
    })
    // A tag at the remote on a commit this clone does not have (pushed later, or on another branch) is not it.
    origin.run('switch', '--quiet', '-c', 'side')
    origin.commit('side')
    origin.run('tag', '-a', 'v2.0.0', '-m', 'on another branch')
    expect(resolveBaseline(undefined, git)).toMatchObject({ kind: 'ref', ref: 'v1.1.0', commit: release })
  })

  it('without any tag, is the nearest release commit (its subject and its package.json agree)', () => {
    const repo = repository()
    const release = (version: string, subject = `pos-agent ${version}`): string => {
      writeFileSync(join(repo.dir, 'package.json'), JSON.stringify({ name: 'pos-agent', version }))
      repo.run('add', '.')
      repo.run('commit', '--quiet', '-m', subject)
      return repo.run('rev-parse', 'HEAD')
    }
    release('1.0.0')
    const nearest = release('1.1.0')
    repo.commit('a')
    release('1.2.0', 'pos-agent 1.3.0') // the subject and the file disagree: not a release
    repo.commit('b')
    expect(resolveBaseline(undefined, gitIn(repo.dir))).toEqual({
      kind: 'ref',
      ref: 'v1.1.0',
      commit: nearest,
      note: expect.stringMatching(/v1\.1\.0 is its release commit/),
    })
  })

  it('with no release in its history, or outside git, is none: this checkout alone, saying why', () => {
    const repo = repository()
    repo.commit('a')
    expect(resolveBaseline(undefined, gitIn(repo.dir))).toEqual({
      kind: 'none',
      note: expect.stringMatching(/no release is reachable from HEAD.*this checkout alone/),
    })
    const bare = mkdtempSync(join(tmpdir(), 'pos-bench-nogit-'))
    made.push(bare)
    expect(resolveBaseline(undefined, gitIn(bare))).toEqual({ kind: 'none', note: expect.stringMatching(/not in a git checkout/) })
  })

  it('knows whether a bench file exists in it', () => {
    const repo = repository()
    const old = repo.commit('test/bench/engine.bench.ts')
    repo.commit('test/bench/returns.bench.ts')
    const git = gitIn(repo.dir)
    expect(fileAt(git, old, 'test/bench/engine.bench.ts')).toBe(true)
    expect(fileAt(git, old, 'test/bench/returns.bench.ts')).toBe(false)
  })

  it('is checked out once in the cache folder, its node_modules hard links when the lock files are the same', async () => {
    const repo = repository()
    writeFileSync(join(repo.dir, '.gitignore'), 'node_modules\n')
    writeFileSync(join(repo.dir, 'package-lock.json'), '{"lockfileVersion":3}\n')
    const release = repo.commit('test/bench/engine.bench.ts')
    mkdirSync(join(repo.dir, 'node_modules/some-package'), { recursive: true })
    writeFileSync(join(repo.dir, 'node_modules/some-package/index.js'), 'export {}\n')
    const cache = mkdtempSync(join(tmpdir(), 'pos-bench-cache-'))
    made.push(cache)
    const said: string[] = []
    const dir = await prepareCheckout(repo.dir, release, { BENCH_CACHE_DIR: cache }, (l) => said.push(l))
    expect(dir).toBe(join(cache, release.slice(0, 12)))
    expect(existsSync(join(dir, 'test/bench/engine.bench.ts'))).toBe(true)
    const linked = statSync(join(dir, 'node_modules/some-package/index.js'))
    expect(linked.ino).toBe(statSync(join(repo.dir, 'node_modules/some-package/index.js')).ino)
    expect(said.join('\n')).toMatch(/hard-linking/)

    said.length = 0
    expect(await prepareCheckout(repo.dir, release, { BENCH_CACHE_DIR: cache }, (l) => said.push(l))).toBe(dir)
    expect(said).toEqual([]) // made once, then reused as it is
    repo.run('worktree', 'remove', '--force', dir)
  })
})
