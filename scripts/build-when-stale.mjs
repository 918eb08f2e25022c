#!/usr/bin/env node
// Builds the app (electron-vite: the Electron shell, the command line, the cashier UI) when a build
// output is missing or older than the sources or the build configuration, so `npm start`, the
// command line and the tests never run a bundle older than the code. Several test workers may ask at
// once: a lock folder (mkdir is atomic) lets one build while the others wait, then check again.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** What the build makes: the command line (bin/pos-agent.js imports it), the Electron shell, the UI. */
export const BUILD_OUTPUTS = ['out/main/cli.js', 'out/main/index.js', 'out/renderer/index.html']
const INPUTS = ['src-main', 'src-renderer', 'src-shared', 'electron.vite.config.ts', 'package.json']

function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0)
}

/** Whether the build is missing or older than what it is built from. */
export function buildIsStale(root = ROOT) {
  const outputs = BUILD_OUTPUTS.map((file) => join(root, file))
  if (!outputs.every((file) => existsSync(file))) return true
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs))
  return INPUTS.some((input) => existsSync(join(root, input)) && newest(join(root, input)) > built)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Builds when stale. `quiet` keeps the build's output unless it fails (tests); otherwise it is shown.
 * Resolves to whether a build ran.
 */
export async function buildWhenStale({ root = ROOT, quiet = false, timeoutMs = 240_000 } = {}) {
  if (!buildIsStale(root)) return false
  // Beside the installed packages, not in out/: the build empties its output folders.
  const lock = join(root, 'node_modules', '.cache', 'pos-agent-build.lock')
  mkdirSync(dirname(lock), { recursive: true })
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A lock left behind by a killed build: older than a build can take.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > timeoutMs) rmSync(lock, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for another build to finish (${lock})`)
      await sleep(250)
    }
  }
  try {
    if (!buildIsStale(root)) return false
    if (!quiet) console.log('[build] building the app (electron-vite build)...')
    const build = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: root,
      encoding: 'utf8',
      stdio: quiet ? 'pipe' : 'inherit',
      timeout: timeoutMs,
    })
    if (build.status !== 0)
      throw new Error(
        `the build failed (status ${build.status}${build.error ? `, ${build.error.message}` : ''}):\n${build.stdout ?? ''}\n${build.stderr ?? ''}`,
      )
    return true
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildWhenStale().catch((error) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  })
}
