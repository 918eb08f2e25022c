/**
 * Setup on a computer whose keychain does not answer (the Secret Service's bus is unreachable): the
 * page says so first, before any field, with the fix for this computer in the same words
 * `pos-agent doctor` prints, offers to check again, and shows no form that could not be saved. Chromium
 * against `pos-agent setup` at 800x480 (and 1024x768, 1280x800); axe finds nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INSTALL, requireComponent } from '../support/system'
import { axeViolations } from './axe'
import { CHROMIUM, ensureRendererBuilt, launchChromium, ROOT, screenshot } from './harness'
import { notInView } from './in-view'

const present = requireComponent('Chromium (/usr/bin/chromium)', existsSync(CHROMIUM), INSTALL.chromium)

describe.runIf(present)('setup checks the keychain before the form', () => {
  const work = mkdtempSync(join(tmpdir(), 'pos-e2e-setup-keychain-'))
  // No keychain: the Secret Service is asked on a bus that is not there, and no X display to start one.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    POS_AGENT_CONFIG: '',
    XDG_CONFIG_HOME: join(work, 'xdg'),
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(work, 'no-bus')}`,
    DISPLAY: '',
  }
  let child: ChildProcess
  let link = ''
  let browser: Browser

  beforeAll(async () => {
    await ensureRendererBuilt()
    child = spawn(
      process.execPath,
      ['bin/pos-agent.js', '--config', join(work, 'config.json'), '--data-dir', join(work, 'data'), 'setup'],
      {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const output: string[] = []
    child.stderr!.on('data', (d: Buffer) => output.push(d.toString()))
    link = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`setup printed no link in 30 s:\n${output.join('\n')}`)), 30_000)
      createInterface({ input: child.stdout! }).on('line', (line) => {
        output.push(line)
        const found = /(http:\/\/127\.0\.0\.1:\d+\/setup\?launch=\S+)/.exec(line)
        if (found) {
          clearTimeout(timer)
          resolve(found[1]!)
        }
      })
      child.once('exit', (code) => reject(new Error(`setup exited (code ${code}):\n${output.join('\n')}`)))
    })
    browser = await launchChromium()
  }, 300_000)

  afterAll(async () => {
    await browser?.close().catch(() => undefined)
    if (child && child.exitCode === null) {
      const closed = new Promise((resolve) => child.once('close', resolve))
      child.kill('SIGTERM')
      await closed
    }
    rmSync(work, { recursive: true, force: true })
  }, 30_000)

  it('says the keychain is missing and how to fix it, in the doctor’s words, before any field', async () => {
    // What the doctor says on this same computer.
    const doctor = spawnSync(process.execPath, ['bin/pos-agent.js', '--data-dir', join(work, 'doctor-data'), 'doctor', '--json'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    })
    const findings = (JSON.parse(doctor.stdout) as { findings: { area: string; text: string; fix?: string }[] }).findings
    const keychain = findings.find((f) => f.area === 'keychain')!
    expect(keychain.fix, doctor.stdout).toBeTruthy()
    // The doctor runs this computer in training (no configuration): what is wrong comes before its verdict.
    const what = keychain.text.replace(/: training keys live in process memory and vanish when the agent stops$/, '')
    expect(what).not.toBe(keychain.text)

    const context = await browser.newContext({ viewport: { width: 800, height: 480 } })
    try {
      const page = await context.newPage()
      await page.goto(link)
      const notice = page.getByTestId('setup-keychain')
      await notice.waitFor({ timeout: 20_000 })
      expect(await page.getByTestId('setup-keychain-what').innerText()).toBe(`${what}: production will not start without it`)
      expect(await page.getByTestId('setup-keychain-fix').innerText()).toBe(`To fix it: ${keychain.fix}`)
      // No field to fill in that could not be saved.
      expect(await page.locator('form input').count()).toBe(0)
      expect(await notInView(page, ['setup-keychain-what', 'setup-keychain-again'])).toEqual([])
      expect(await axeViolations(page)).toEqual([])
      await screenshot(page, 'setup-keychain-missing-800x480')
      // As large a display as a manager may set it up on: the words and Check again are in view, still no field.
      for (const size of [
        { width: 1024, height: 768 },
        { width: 1280, height: 800 },
      ]) {
        await page.setViewportSize(size)
        expect(await notInView(page, ['setup-keychain-what', 'setup-keychain-fix', 'setup-keychain-again'])).toEqual([])
        expect(await page.locator('form input').count()).toBe(0)
        await screenshot(page, `setup-keychain-missing-${size.width}x${size.height}`)
      }
      await page.setViewportSize({ width: 800, height: 480 })
      // Checking again asks the keychain again: still missing, still said.
      await page.getByTestId('setup-keychain-again').click()
      await page.getByTestId('setup-keychain-again').filter({ hasText: 'Check again' }).waitFor()
      expect(await page.getByTestId('setup-keychain-what').innerText()).toContain(what)
    } finally {
      await context.close()
    }
  })
})
