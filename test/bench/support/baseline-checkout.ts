/**
 * The baseline of a comparison: which commit (a named ref, or the newest release tag `v*` reachable
 * from HEAD), and a checkout of it to run its own copy of the bench in. The checkout is a git
 * worktree kept in a cache folder by commit, so the second comparison against the same release
 * starts at once. Its node_modules are hard links to this checkout's (`cp -al`) when the two
 * package-lock.json files are identical, else a clean `npm ci` of the baseline's own lock file.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Runs git with `args` and returns its trimmed standard output, or undefined when git fails. */
export type Git = (args: readonly string[], cwd?: string) => string | undefined

export function gitIn(root: string): Git {
  return (args, cwd = root) => {
    const result = spawnSync('git', args, { cwd, encoding: 'utf8', timeout: 60_000 })
    return result.status === 0 ? result.stdout.trim() : undefined
  }
}

export class BaselineError extends Error {
  override name = 'BaselineError'
}

export type ResolvedBaseline = { kind: 'none' } | { kind: 'ref'; ref: string; commit: string }

/** `none` skips the baseline; a ref is any name git knows (tag, branch, commit); no ref is the last release. */
export function resolveBaseline(requested: string | undefined, git: Git): ResolvedBaseline {
  if (requested === 'none') return { kind: 'none' }
  if (requested === undefined) return lastRelease(git)
  const commit = git(['rev-parse', '--verify', '--quiet', `${requested}^{commit}`])
  if (!commit)
    throw new BaselineError(`"${requested}" is not a tag, branch or commit of this repository; \`git tag --list 'v*'\` lists the releases`)
  return { kind: 'ref', ref: requested, commit }
}

/**
 * The newest `v*` tag (by version order) that HEAD contains, skipping tags on HEAD itself: a release
 * commit is compared with the release before it, not with itself.
 */
export function lastRelease(git: Git): { kind: 'ref'; ref: string; commit: string } {
  const head = git(['rev-parse', 'HEAD'])
  if (!head) throw new BaselineError('not in a git checkout: name a baseline checkout with --baseline <commit>, or pass --baseline none')
  const tags = (git(['tag', '--merged', 'HEAD', '--list', 'v*', '--sort=-v:refname']) ?? '').split('\n').filter(Boolean)
  for (const tag of tags) {
    const commit = git(['rev-parse', '--verify', '--quiet', `${tag}^{commit}`])
    if (commit && commit !== head) return { kind: 'ref', ref: tag, commit }
  }
  throw new BaselineError(
    'no release tag (v*) is reachable from HEAD: tag the last release (README, "Releases"), fetch the tags (`git fetch --tags`), or pass --baseline <commit> or --baseline none',
  )
}

/** Whether `path` exists in `commit` (a bench added after the baseline has nothing to compare with). */
export function fileAt(git: Git, commit: string, path: string): boolean {
  return git(['cat-file', '-e', `${commit}:${path}`]) !== undefined
}

const READY = '.pos-agent-bench-ready'
const LOCK_WAIT_MS = 20 * 60_000

/** Where baseline checkouts are kept: $BENCH_CACHE_DIR, else a folder under the system's temp folder. */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  return env.BENCH_CACHE_DIR || join(tmpdir(), 'pos-agent-bench')
}

/**
 * A ready checkout of `commit` (worktree and node_modules), made once and reused. Two comparisons
 * starting together take turns through a lock folder (mkdir is atomic).
 */
export async function prepareCheckout(root: string, commit: string, env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<string> {
  const base = cacheRoot(env)
  mkdirSync(base, { recursive: true })
  const dir = join(base, commit.slice(0, 12))
  const lock = `${dir}.lock`
  await takeLock(lock)
  try {
    const git = gitIn(root)
    if (!existsSync(join(dir, '.git')) || git(['rev-parse', 'HEAD'], dir) !== commit) {
      say(`making a worktree of ${commit.slice(0, 12)} in ${dir}`)
      rmSync(dir, { recursive: true, force: true })
      git(['worktree', 'prune'])
      if (git(['worktree', 'add', '--detach', '--force', dir, commit]) === undefined)
        throw new BaselineError(`git worktree add ${dir} ${commit} failed`)
    }
    const modules = join(dir, 'node_modules')
    if (!existsSync(join(modules, READY))) {
      rmSync(modules, { recursive: true, force: true })
      const sameLock = readFileSync(join(root, 'package-lock.json'), 'utf8') === readFileSync(join(dir, 'package-lock.json'), 'utf8')
      const [command, args] = sameLock
        ? ['cp', ['-al', join(root, 'node_modules'), modules]]
        : ['npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']]
      say(sameLock ? 'same package-lock.json: hard-linking node_modules' : 'another package-lock.json: npm ci in the baseline checkout')
      const result = spawnSync(command, args, { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], timeout: LOCK_WAIT_MS })
      if (result.status !== 0) throw new BaselineError(`${command} ${args.join(' ')} failed in ${dir} (status ${result.status})`)
      writeFileSync(join(modules, READY), `${sameLock ? 'hard links' : 'npm ci'}\n`)
    }
    return dir
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

async function takeLock(lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      mkdirSync(lock)
      return
    } catch {
      // a lock left by a killed run is older than any preparation can take
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > LOCK_WAIT_MS) rmSync(lock, { recursive: true, force: true })
      if (Date.now() > deadline) throw new BaselineError(`waited ${LOCK_WAIT_MS / 60_000} min for ${lock}`)
      await new Promise((r) => setTimeout(r, 500))
    }
  }
}
