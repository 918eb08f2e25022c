/**
 * `bin/pos-agent.js` runs the built bundle, the same build as the Electron app: it needs no
 * TypeScript compiler at run time, and where the build is missing it says how to make it.
 */
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const work = mkdtempSync(join(tmpdir(), 'pos-built-cli-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('the built command line', () => {
  it('imports out/main/cli.js, never the TypeScript sources or tsx', () => {
    const bin = readFileSync('bin/pos-agent.js', 'utf8')
    expect(bin).toContain("'../out/main/cli.js'")
    expect(bin).not.toMatch(/tsx|\.ts'/)
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx')
  })

  it('without a build, exits 1 with one line saying to run the build', () => {
    // A copy of the launcher in a folder with no out/: what a checkout looks like before `npm run build`.
    mkdirSync(join(work, 'bin'))
    copyFileSync('bin/pos-agent.js', join(work, 'bin', 'pos-agent.js'))
    const run = spawnSync(process.execPath, [join(work, 'bin', 'pos-agent.js'), '--help'], { encoding: 'utf8', timeout: 30_000 })
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr).toContain('npm run build')
  })

  it('serves without loading what serving does not use: the store, nexo, mail, certificate and printer libraries', async () => {
    // A module hook (Node.js docs, "Customization Hooks") reports every package the process loads.
    const hook = join(work, 'report-packages.mjs')
    writeFileSync(
      hook,
      `import { register } from 'node:module'\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(
        "export async function load(url, context, next) { const m = /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(url); if (m) process._rawDebug('package ' + m[1]); return next(url, context) }",
      )}))\n`,
    )
    const env = { ...process.env, POS_AGENT_DATA_DIR: join(work, 'data'), POS_AGENT_CONFIG: '', XDG_CONFIG_HOME: join(work, 'no-config') }
    // The first start makes the training host's certificates (with the certificate library); the second finds them.
    await serveUntilServing(env, [])
    const loaded = await serveUntilServing(env, ['--import', hook])
    expect(loaded).toContain('better-sqlite3')
    for (const unused of [
      '@nats-io/transport-node',
      '@hpke/core',
      'nodemailer',
      '@peculiar/x509',
      '@point-of-sale/receipt-printer-encoder',
      'tsx',
    ])
      expect(loaded).not.toContain(unused)
  })
})

/** Starts `serve` in training mode, waits for its URL line, stops it; the packages the hook reported. */
async function serveUntilServing(env: NodeJS.ProcessEnv, nodeFlags: string[]): Promise<string[]> {
  const child = spawn(process.execPath, [...nodeFlags, 'bin/pos-agent.js', 'serve', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start within 30 s:\n${stdout}\n${stderr}`)), 30_000)
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString()
        if (stdout.includes('pos-agent serving the cashier UI at')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`serve exited (code ${code}):\n${stdout}\n${stderr}`))
      })
    })
  } finally {
    child.kill('SIGTERM')
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  return [...new Set([...stderr.matchAll(/^package (\S+)$/gm)].map((m) => m[1]!))]
}
