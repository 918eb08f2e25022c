#!/usr/bin/env node
// `npm start`: build the app if needed, start it in Electron, and when Electron cannot start on this
// machine, serve the same cashier UI in the browser from 127.0.0.1 instead, saying so.
import { spawn, spawnSync } from 'node:child_process'
import { buildWhenStale } from './build-when-stale.mjs'

// The Electron app and the command line (`pos-agent serve`) are one build.
try {
  await buildWhenStale()
} catch (error) {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
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
