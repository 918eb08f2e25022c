/**
 * The baseline of a comparison: which commit (a named ref, or the nearest release HEAD contains), and
 * a checkout of it to run its own copy of the bench in. A clone made without tags still finds the
 * release: by its remote's tags, else by its release commit (README, "Releases"); a checkout with no
 * release in its history runs alone, and says so. The checkout is a git
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
  // A remote asked for its tags never stops the bench to ask for a password: it is then not asked.
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' }
  return (args, cwd = root) => {
    const result = spawnSync('git', args, { cwd, encoding: 'utf8', timeout: 60_000, env })
    return result.status === 0 ? result.stdout.trim() : undefined
  }
}

export class BaselineError extends Error {
  override name = 'BaselineError'
}

/** `note`: how the baseline was found, or why there is none, when it was not asked for by name. */
export type ResolvedBaseline = { kind: 'none'; note?: string } | Release

type Release = { kind: 'ref'; ref: string; commit: string; note?: string }

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
 * The nearest release HEAD contains, never HEAD itself (a release commit is compared with the release
 * before it): the newest `v*` tag (by version order) HEAD contains; in a clone without tags, the
 * newest such tag of a remote whose commit is in HEAD's history; else the nearest commit of HEAD's
 * history that is a release by the README's rule (subject `pos-agent <version>`, and that version in
 * its package.json). Without any, the current checkout runs alone, with a note saying why.
 */
export function lastRelease(git: Git): ResolvedBaseline {
  const head = git(['rev-parse', 'HEAD'])
  if (!head) return { kind: 'none', note: 'not in a git checkout: this checkout alone (--baseline <commit> in a checkout compares)' }
  const local = newestTag(git, head, (git(['tag', '--merged', 'HEAD', '--list', 'v*']) ?? '').split('\n').filter(Boolean))
  if (local) return local
  for (const remote of (git(['remote']) ?? '').split('\n').filter(Boolean)) {
    const found = remoteRelease(git, head, remote)
    if (found) return found
  }
  const byCommit = releaseCommit(git, head)
  if (byCommit) return byCommit
  return {
    kind: 'none',
    note: 'no release is reachable from HEAD (no v* tag here or at a remote, no release commit in its history): this checkout alone; --baseline <commit> compares with one',
  }
}

const VERSION_TAG = /^v\d+\.\d+\.\d+$/

/** The tags in version order, newest first ("v1.10.0" after "v1.9.0"). */
function byVersion(tags: readonly string[]): string[] {
  const parts = (tag: string) =>
    tag
      .replace(/^v/, '')
      .split(/[.-]/)
      .map((part) => Number(part) || 0)
  return [...tags].sort((a, b) => {
    const [x, y] = [parts(a), parts(b)]
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0)
    return 0
  })
}

function newestTag(git: Git, head: string, tags: readonly string[]): Release | undefined {
  for (const tag of byVersion(tags)) {
    const commit = git(['rev-parse', '--verify', '--quiet', `${tag}^{commit}`])
    if (commit && commit !== head) return { kind: 'ref', ref: tag, commit }
  }
  return undefined
}

/**
 * A remote's release tags (`git ls-remote`: names and commits, no objects fetched), the newest whose
 * commit this clone has in HEAD's history. The bench then runs that commit, as the tag names it.
 */
function remoteRelease(git: Git, head: string, remote: string): Release | undefined {
  const commits = new Map<string, string>()
  for (const line of (git(['ls-remote', '--tags', remote, 'v*']) ?? '').split('\n')) {
    const [sha, name] = line.split('\t')
    const tag = name?.replace(/^refs\/tags\//, '')
    if (!sha || !tag) continue
    // An annotated tag is listed twice: its own object, then `^{}` with the commit it tags.
    if (tag.endsWith('^{}')) commits.set(tag.slice(0, -3), sha)
    else if (!commits.has(tag)) commits.set(tag, sha)
  }
  for (const tag of byVersion([...commits.keys()].filter((name) => VERSION_TAG.test(name)))) {
    const commit = git(['rev-parse', '--verify', '--quiet', `${commits.get(tag)!}^{commit}`])
    if (!commit || commit === head || git(['merge-base', '--is-ancestor', commit, 'HEAD']) === undefined) continue
    return { kind: 'ref', ref: tag, commit, note: `this clone has no release tag: ${tag} is ${remote}'s, at ${commit.slice(0, 12)}` }
  }
  return undefined
}

/** The nearest release commit of HEAD's history: subject `pos-agent <version>` and that version in its package.json. */
function releaseCommit(git: Git, head: string): Release | undefined {
  const log = git(['log', '-E', '--grep=^pos-agent [0-9]+\\.[0-9]+\\.[0-9]+$', '--format=%H%x09%s', '-n', '20', 'HEAD']) ?? ''
  for (const line of log.split('\n').filter(Boolean)) {
    const [commit, subject] = line.split('\t') as [string, string]
    const version = subject.replace(/^pos-agent /, '')
    if (commit === head) continue
    let declared: unknown
    try {
      declared = (JSON.parse(git(['show', `${commit}:package.json`]) ?? '{}') as { version?: unknown }).version
    } catch {
      continue
    }
    if (declared !== version) continue
    return {
      kind: 'ref',
      ref: `v${version}`,
      commit,
      note: `no release tag here or at a remote: v${version} is its release commit ${commit.slice(0, 12)}`,
    }
  }
  return undefined
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
