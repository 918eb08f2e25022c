/**
 * An update with payments still owed: the last release's own engine fills a journal with what a
 * terminal may owe the bank (test/upgrade/release-writer.ts, run in a git worktree of the release),
 * then this checkout opens that journal (every migration in between) and its queue sends everything
 * to the training host over real HTTPS. Each owed item must reach the host exactly once, under its
 * own id, with the very body the release sealed (compared by SHA-256), and nothing else may reach it.
 *
 * The release is found as the benches find theirs (test/bench/support/baseline-checkout.ts), or
 * $UPGRADE_BASELINE names one; a clone without tags, remote or release commit falls back to the
 * release the README names (v1.0.0, commit ccbda58) when HEAD's history holds it. The worktree is
 * kept under the temp folder by commit, its node_modules a link to this checkout's (the release's
 * package-lock.json may only lack packages added since: `lockIsSubset`).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import pino from 'pino'
import { composeEngine } from '../../src-main/app/compose'
import { UndiciHostClient, type HostClient } from '../../src-main/gateway/gateway-client'
import { JOURNAL_FILE, JOURNAL_MIGRATIONS } from '../../src-main/journal'
import { startTrainingHost } from '../../src-main/training/host'
import { gitIn, lastRelease, resolveBaseline, type Git } from '../bench/support/baseline-checkout'
import { ScriptedCardReader } from '../fakes/scripted-card-reader'
import { AID, KEY, testSettings } from './engine-harness'
import { FileSecretStore } from './file-secret-store'

export const ROOT = resolve(import.meta.dirname, '..', '..')

/** The release the README names when no tag finds it ("Releases": tagged after the fact). */
const DOCUMENTED_RELEASE = { ref: 'v1.0.0', commit: 'ccbda58' }

export interface UpgradeRelease {
  ref: string
  commit: string
  note: string
}

/** Which release the journal is written by; undefined (with why) when this checkout has none. */
export function upgradeRelease(git: Git, env: NodeJS.ProcessEnv = process.env): UpgradeRelease | { none: string } {
  const requested = env.UPGRADE_BASELINE
  const found = requested ? resolveBaseline(requested, git) : lastRelease(git)
  if (found.kind === 'ref') return { ref: found.ref, commit: found.commit, note: found.note ?? `asked for ${found.ref}` }
  const commit = git(['rev-parse', '--verify', '--quiet', `${DOCUMENTED_RELEASE.commit}^{commit}`])
  if (commit && git(['merge-base', '--is-ancestor', commit, 'HEAD']) !== undefined)
    return {
      ref: DOCUMENTED_RELEASE.ref,
      commit,
      note: `no v* tag, remote tag or release commit reaches HEAD; the README's ${DOCUMENTED_RELEASE.ref} is commit ${commit.slice(0, 12)}`,
    }
  return { none: found.note ?? 'no release in this checkout' }
}

/** Every package the release locked is locked the same here: a link to this checkout's node_modules serves it. */
export function lockIsSubset(releaseLock: string, currentLock: string): boolean {
  const packages = (lock: string) => (JSON.parse(lock) as { packages: Record<string, { version?: string }> }).packages
  const mine = packages(currentLock)
  return Object.entries(packages(releaseLock)).every(([path, entry]) => path === '' || mine[path]?.version === entry.version)
}

/** A worktree of the release with the writer copied in; made once per commit, reused after. */
export async function releaseCheckout(release: UpgradeRelease, git: Git = gitIn(ROOT)): Promise<string> {
  const base = join(process.env.UPGRADE_CACHE_DIR || tmpdir(), 'pos-agent-upgrade')
  mkdirSync(base, { recursive: true })
  const dir = join(base, release.commit.slice(0, 12))
  const lock = `${dir}.lock`
  for (const until = Date.now() + 120_000; ;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true })
      if (Date.now() > until) throw new Error(`waited two minutes for ${lock}`)
      await new Promise((r) => setTimeout(r, 300))
    }
  }
  try {
    if (!existsSync(join(dir, '.git')) || git(['rev-parse', 'HEAD'], dir) !== release.commit) {
      rmSync(dir, { recursive: true, force: true })
      git(['worktree', 'prune'])
      if (git(['worktree', 'add', '--detach', '--force', dir, release.commit]) === undefined)
        throw new Error(`git worktree add ${dir} ${release.commit} failed`)
    }
    if (!lockIsSubset(readFileSync(join(dir, 'package-lock.json'), 'utf8'), readFileSync(join(ROOT, 'package-lock.json'), 'utf8')))
      throw new Error(`${release.ref} locks packages this checkout does not have: run \`npm ci\` in ${dir} and link nothing`)
    // A link left by an earlier checkout may point at a folder that is gone: replace it, never trip on it.
    if (!existsSync(join(dir, 'node_modules'))) {
      rmSync(join(dir, 'node_modules'), { force: true })
      symlinkSync(resolve(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
    }
    mkdirSync(join(dir, 'test', 'upgrade'), { recursive: true })
    copyFileSync(join(ROOT, 'test', 'upgrade', 'release-writer.ts'), join(dir, 'test', 'upgrade', 'release-writer.ts'))
    return dir
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

export interface OwedItem {
  seq: number
  saleId: string
  operation: string
  messageId: string
  state: string
  attempts: number
  bodySha256: string | null
}

export interface ReleaseManifest {
  journalVersion: number
  roles: { tipped: string; captured: string; returned: string; credit: string; reversed: string; stored: string[] }
  saleStates: Record<string, string>
  items: OwedItem[]
}

export interface UpgradeReport {
  release: UpgradeRelease
  fromVersion: number
  toVersion: number
  /** Owed items the release left, by operation. */
  owed: Record<string, number>
  items: number
  /** Items the host received exactly once, under their id, with the release's body. */
  forwardedOnce: number
  /** What the release could not be made to owe, and why. */
  notCovered: string[]
  violations: string[]
  ms: number
}

function runWriter(dir: string, args: readonly string[]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/upgrade/release-writer.ts', ...args], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (code === 0) done(out)
      else fail(new Error(`the release's writer failed (exit ${code}):\n${out}`))
    })
  })
}

const sha256 = (body: unknown) => createHash('sha256').update(JSON.stringify(body)).digest('hex')

/** Records what this checkout sends: operation, message id and the body's hash, then sends it for real. */
function recording(client: UndiciHostClient, sent: Array<{ key: string; sha: string }>): HostClient {
  // A message's own id is in its merchantTransInfo; a reversal has none and goes by its sale's.
  const keyOf = (kind: string, body: unknown, originalId?: string) =>
    `${kind} ${(body as { merchantTransInfo?: { merchantTransID?: string } } | null)?.merchantTransInfo?.merchantTransID ?? originalId ?? ''}`
  return {
    send: (kind, body, originalId) => {
      sent.push({ key: keyOf(kind, body, originalId), sha: sha256(body) })
      return client.send(kind, body, originalId)
    },
    sendUnchecked: (kind, body, originalId) => {
      sent.push({ key: keyOf(kind, body, originalId), sha: sha256(body) })
      return client.sendUnchecked(kind, body, originalId)
    },
    close: () => client.close(),
  }
}

export async function runUpgrade(release: UpgradeRelease, log: (line: string) => void = () => undefined): Promise<UpgradeReport> {
  const started = Date.now()
  const checkout = await releaseCheckout(release)
  const work = mkdtempSync(join(tmpdir(), 'pos-upgrade-'))
  const dataDir = join(work, 'data')
  const secretsFile = join(work, 'keychain.json')
  const host = await startTrainingHost({ stateDir: join(work, 'host'), signingKeys: { [AID]: KEY } })
  const violations: string[] = []
  try {
    const caFile = join(work, 'ca.pem')
    writeFileSync(caFile, host.caPem)
    const manifestFile = join(work, 'manifest.json')
    log(`writing a journal with ${release.ref} (${release.commit.slice(0, 12)}) in ${checkout}`)
    await runWriter(checkout, [dataDir, host.url, caFile, secretsFile, manifestFile])
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as ReleaseManifest
    const owed: Record<string, number> = {}
    for (const item of manifest.items) owed[item.operation] = (owed[item.operation] ?? 0) + 1
    log(`${release.ref} left ${manifest.items.length} items owed at journal version ${manifest.journalVersion}: ${JSON.stringify(owed)}`)
    const before = host.ledger().entries.length

    const sent: Array<{ key: string; sha: string }> = []
    const client = new UndiciHostClient(
      {
        offlineBaseUrl: host.url,
        baseUrl: host.url,
        aid: AID,
        signType: 'HMAC-SHA256',
        extraCaPem: host.caPem,
        connectTimeoutMs: 2_000,
        responseTimeoutMs: 3_000,
      },
      { signingKey: KEY },
    )
    const base = testSettings(dataDir)
    const engine = await composeEngine(
      { ...base, restaurantMode: true, duplicateWindowMs: 0, limits: { ...base.limits, unreferencedReturnMaxMinor: 10_000 } },
      {
        reader: new ScriptedCardReader(),
        host: recording(client, sent),
        secrets: new FileSecretStore(secretsFile),
        logger: pino({ level: 'silent' }),
      },
    )
    let left = 0
    try {
      for (let i = 0; i < 200 && engine.forwarder.status().count > 0; i++) {
        await engine.forwarder.forwardNow()
        await new Promise((r) => setTimeout(r, 50))
      }
      left = engine.forwarder.status().count
    } finally {
      await engine.close()
      await client.close()
    }
    if (left > 0) violations.push(`${left} items still owed after the upgrade`)
    if (process.env.UPGRADE_TRACE === '1') log(`sent: ${JSON.stringify(sent)}`)
    const journal = new Database(join(dataDir, JOURNAL_FILE), { readonly: true })
    let toVersion: number
    let states: Record<string, string>
    try {
      toVersion = journal.pragma('user_version', { simple: true }) as number
      states = Object.fromEntries(
        (journal.prepare('SELECT id, state FROM sale').all() as Array<{ id: string; state: string }>).map((s) => [s.id, s.state]),
      )
    } finally {
      journal.close()
    }
    {
      const want: Array<[string, string, string]> = [
        ['the sale whose answer was lost', manifest.roles.reversed, 'reversed'],
        ['the tipped sale', manifest.roles.tipped, 'approved'],
        ['the captured sale', manifest.roles.captured, 'captured'],
        ["the return's credit", manifest.roles.credit, 'credited'],
        ...manifest.roles.stored.map((id): [string, string, string] => ['a stored payment', id, 'forwarded']),
      ]
      for (const [what, id, state] of want)
        if (states[id] !== state) violations.push(`${what} ${id} ended ${states[id]}, expected ${state}`)
    }

    if (toVersion !== JOURNAL_MIGRATIONS.length)
      violations.push(`the journal opened at version ${toVersion}, not ${JOURNAL_MIGRATIONS.length}`)
    if (manifest.journalVersion >= toVersion)
      violations.push(`the release's journal (version ${manifest.journalVersion}) needed no migration`)
    const entries = host.ledger().entries.slice(before)
    let forwardedOnce = 0
    const expected = new Set<string>()
    for (const item of manifest.items) {
      const key = `${item.operation} ${item.messageId}`
      expected.add(key)
      const mine = sent.filter((s) => s.key === key)
      const atHost = entries.filter((e) => e.operation === item.operation && e.merchantTransID === item.messageId && e.replayed !== true)
      const ok =
        item.bodySha256 !== null &&
        mine.length === 1 &&
        mine[0]!.sha === item.bodySha256 &&
        atHost.length === 1 &&
        atHost[0]!.resultCode !== undefined
      if (ok) forwardedOnce++
      else
        violations.push(
          `${key} (${item.state} in ${release.ref}): sent ${mine.length} times, ${mine.some((s) => s.sha === item.bodySha256) ? 'with' : 'without'} the release's body, reached the host ${atHost.length} times`,
        )
    }
    for (const entry of entries) {
      const key = `${entry.operation} ${entry.merchantTransID}`
      if (!expected.has(key)) violations.push(`the host received ${key}, which nothing owed`)
    }
    return {
      release,
      fromVersion: manifest.journalVersion,
      toVersion,
      owed,
      items: manifest.items.length,
      forwardedOnce,
      notCovered: [`a fenced lane's queue: ${release.ref} has no store (docs/store.md came later), so it cannot fence a lane`],
      violations,
      ms: Date.now() - started,
    }
  } finally {
    await host.close()
    rmSync(work, { recursive: true, force: true })
  }
}
