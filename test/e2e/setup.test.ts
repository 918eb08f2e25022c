/**
 * First-run setup in Chromium, as a manager does it: `pos-agent setup` with a throwaway configuration
 * file and data folder, against a training host started here (its CA file given as the extra
 * certificate), opened once from the link it prints. A bad field is explained beside it and nothing is
 * saved; the good form is saved and the checks' results are read in plain words. axe finds nothing,
 * and the form and the results fit the width of an 800x480 countertop display and a 1280x800 desktop,
 * with Save and the verdict reachable on screen. The Secret Service and Chromium are needed (under
 * CI=true a missing one fails the run).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTrainingHost, type TrainingHost } from '../../src-main/training/host'
import { INSTALL, requireComponent, secretServiceAvailable } from '../support/system'
import { internalWordsIn } from '../support/internal-words'
import { axeViolations } from './axe'
import { CHROMIUM, ensureRendererBuilt, launchChromium, ROOT, screenshot } from './harness'
import { notInView, pageScrolls } from './in-view'

const present =
  requireComponent('Chromium (/usr/bin/chromium)', existsSync(CHROMIUM), INSTALL.chromium) &&
  requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)

const SIZES = [
  { width: 800, height: 480 },
  { width: 1280, height: 800 },
] as const

/** Starts `pos-agent setup` and waits for the one-time link it prints. */
async function startSetup(work: string): Promise<{ child: ChildProcess; link: string }> {
  const child = spawn(
    process.execPath,
    ['bin/pos-agent.js', '--config', join(work, 'config.json'), '--data-dir', join(work, 'data'), 'setup'],
    {
      cwd: ROOT,
      env: { ...process.env, POS_AGENT_CONFIG: '', XDG_CONFIG_HOME: join(work, 'xdg') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const output: string[] = []
  child.stderr.on('data', (d: Buffer) => output.push(d.toString()))
  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`setup printed no link in 30 s:\n${output.join('\n')}`)), 30_000)
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line)
      const found = /(http:\/\/127\.0\.0\.1:\d+\/setup\?launch=\S+)/.exec(line)
      if (found) {
        clearTimeout(timer)
        resolve(found[1]!)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`setup exited (code ${code}):\n${output.join('\n')}`))
    })
  })
  return { child, link }
}

/** Whether the page scrolls sideways, and whether these elements can be brought on screen whole. */
async function layoutProblems(page: Page, label: string, testIds: string[]): Promise<string[]> {
  const problems: string[] = []
  if ((await pageScrolls(page)).horizontal) problems.push(`${label}: the page scrolls sideways`)
  for (const id of testIds) {
    await page.getByTestId(id).scrollIntoViewIfNeeded()
    problems.push(...(await notInView(page, [id])).map((p) => `${label}: ${p}`))
  }
  return problems
}

describe.runIf(present)('first-run setup in the browser', () => {
  const work = mkdtempSync(join(tmpdir(), 'pos-e2e-setup-'))
  const AID = `E2E-SETUP-${process.pid}`
  const KEY = 'e2e-setup-test-signing-key-01234'
  let host: TrainingHost
  let setup: { child: ChildProcess; link: string }
  let browser: Browser

  beforeAll(async () => {
    await ensureRendererBuilt()
    host = await startTrainingHost({ stateDir: join(work, 'host'), signingKeys: { [AID]: KEY } })
    setup = await startSetup(work)
    browser = await launchChromium()
  }, 300_000)

  afterAll(async () => {
    await browser?.close().catch(() => undefined)
    if (setup && setup.child.exitCode === null) {
      const closed = new Promise((resolve) => setup.child.once('close', resolve))
      setup.child.kill('SIGTERM')
      await closed
    }
    await host?.close()
    rmSync(work, { recursive: true, force: true })
  }, 30_000)

  it('explains a bad field beside it, saves a good form, shows the checks in plain words, fits both displays', async () => {
    const context = await browser.newContext({ viewport: SIZES[0] })
    context.setDefaultTimeout(20_000)
    const page = await context.newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      // The one refused field answer is a 200; any error here is the page's own.
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    page.on('pageerror', (error) => consoleErrors.push(error.message))
    try {
      await page.goto(setup.link, { waitUntil: 'domcontentloaded' })
      await page.getByRole('heading', { name: 'Set up this terminal' }).waitFor()
      const fill = async (values: Record<string, string>) => {
        for (const [name, value] of Object.entries(values)) await page.locator(`#setup-${name}`).fill(value)
      }
      await fill({
        offlineBaseUrl: host.url,
        baseUrl: host.url,
        aid: AID,
        signingKey: KEY,
        caFile: host.caFile,
        storeId: 'S-1',
        terminalId: 'T 1',
        merchantId: 'M-1',
        storeName: 'Corner Cafe',
        storeAddress1: '12 Main Street',
        currency: 'USD',
        managerId: '1',
        managerName: 'Ada',
        managerPin: '4321',
      })
      const problems: string[] = []
      for (const size of SIZES) {
        await page.setViewportSize(size)
        problems.push(...(await layoutProblems(page, `form ${size.width}x${size.height}`, ['setup-save'])))
        await screenshot(page, `setup-form-${size.width}x${size.height}`)
      }
      await page.setViewportSize(SIZES[0])
      expect(await axeViolations(page)).toEqual([])

      // A terminal id with a space: explained beside the field, tied to it, and nothing is saved.
      await page.getByTestId('setup-save').click()
      const terminalId = page.locator('#setup-terminalId')
      const problem = page.locator('#setup-terminalId-problem')
      await problem.waitFor()
      expect(await problem.innerText()).toContain('no spaces')
      expect(await terminalId.getAttribute('aria-invalid')).toBe('true')
      expect(await terminalId.getAttribute('aria-describedby')).toContain('setup-terminalId-problem')
      expect(await page.getByTestId('setup-summary').innerText()).toMatch(/Nothing was saved/)
      expect(await page.locator('[aria-invalid="true"]').count()).toBe(1)
      expect(existsSync(join(work, 'config.json'))).toBe(false)
      expect(await axeViolations(page)).toEqual([])

      // Fixed and saved: the checks run against the training host.
      await terminalId.fill('T-1')
      await page.getByTestId('setup-save').click()
      const results = page.getByTestId('setup-results')
      await results.waitFor({ timeout: 60_000 })
      expect(existsSync(join(work, 'config.json'))).toBe(true)
      const level = (id: string) => page.getByTestId(`setup-check-${id}`).getAttribute('data-level')
      // Reached: the connection has no failure to report.
      expect(await page.getByTestId('setup-check-connection').count()).toBe(0)
      expect(await level('security')).toBe('ok')
      expect(await level('signature')).toBe('ok')
      // No card reader is plugged in here: the one problem, so the terminal is not ready yet.
      expect(await level('reader')).toBe('fail')
      const reader = await page.getByTestId('setup-check-reader').innerText()
      expect(reader).toMatch(/^Problem: Card reader\. No card reader was found\. What to do: Plug the card reader in/)
      expect(await page.getByTestId('setup-verdict').innerText()).toMatch(/not ready yet/)

      // The headlines are plain words; the technical words wait under the details.
      const shown = await results.innerText()
      expect(internalWordsIn(shown)).toEqual([])
      expect(shown).not.toMatch(/TLS|caFile|device\.path/)
      await page.getByTestId('setup-check-reader').getByText('Details for IT support').click()
      expect(await page.getByTestId('setup-check-reader').innerText()).toMatch(/card reader: .*does not exist|no reader found/)
      expect(await page.content()).not.toContain(KEY)
      expect(await axeViolations(page)).toEqual([])

      for (const size of SIZES) {
        await page.setViewportSize(size)
        problems.push(...(await layoutProblems(page, `results ${size.width}x${size.height}`, ['setup-verdict', 'setup-save'])))
        await screenshot(page, `setup-results-${size.width}x${size.height}`)
      }
      expect(problems).toEqual([])
      expect(consoleErrors).toEqual([])
    } finally {
      await context.close()
    }
  }, 180_000)
})
