#!/usr/bin/env node
// `npm start`: build the app if needed, start it in Electron, and when Electron cannot start on this
// machine, serve the same cashier UI in the browser from 127.0.0.1 instead, saying so.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, statSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const built = 'out/renderer/index.html'
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name)
    return Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)
const stale = !existsSync(built) || ['src-main', 'src-renderer', 'src-shared'].some((dir) => newest(dir) > statSync(built).mtimeMs)
if (stale) {
  console.log('[start] building the app (electron-vite build)...')
  const build = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const extra = process.argv.slice(2)

function browserMode(reason) {
  console.log(`[start] Electron cannot start here (${reason.slice(0, 160)}); serving the same UI in the browser instead.`)
  const child = spawn(process.execPath, ['bin/pos-agent.js', ...extra, 'serve'], { stdio: 'inherit' })
  const forward = (signal) => child.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  child.on('exit', (code) => process.exit(code ?? 0))
}

// From plain Node, require('electron') returns the binary's path, or throws when it is not installed
// (since Electron 42 it is fetched lazily, which fails offline).
const electron = spawnSync(process.execPath, ['-e', "require('electron')"], { encoding: 'utf8', timeout: 20_000 })
if (process.env.POS_AGENT_NO_ELECTRON) browserMode('disabled by POS_AGENT_NO_ELECTRON')
else if (electron.status !== 0)
  browserMode(
    (electron.stderr || electron.error?.message || 'unknown reason')
      .trim()
      .split('\n')
      .find((l) => l.trim()) ?? 'unknown reason',
  )
else {
  const started = Date.now()
  const child = spawn(process.execPath, ['node_modules/electron/cli.js', '.', ...extra], { stdio: 'inherit' })
  child.on('exit', (code) => {
    // an Electron that dies at once (no display, missing libraries) still leaves the counter a way in
    if (code !== 0 && Date.now() - started < 15_000) browserMode(`Electron exited with code ${code}`)
    else process.exit(code ?? 0)
  })
}
