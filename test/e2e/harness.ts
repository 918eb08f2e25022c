/**
 * End-to-end harness: the real agent (`pos-agent serve --port 0`, training mode, a throwaway data
 * folder and no user configuration) as a child process, its training host's admin endpoint for
 * faults and the ledger (HTTPS, trusting only the training CA; validation is never turned off), and
 * Debian's Chromium driven by playwright-core against the cashier UI.
 *
 * Every wait is bounded. `stop()` always ends the child (SIGTERM, then SIGKILL of its own process
 * group) and closes the browser.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync, type WriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { Agent, request } from 'undici'
import { TEST_CARDS } from '../../src-main/training/pinpad/test-cards'
import { commandAvailable, INSTALL, requireComponent } from '../support/system'
import { buildWhenStale } from '../../scripts/build-when-stale.mjs'

// The page's globals used in page.evaluate callbacks, declared for this module only: tsconfig.node
// has no DOM library, and adding it would let Node code use browser globals unnoticed.
declare const document: { documentElement: { scrollWidth: number; clientWidth: number; outerHTML: string }; body: { innerText: string } }
declare const window: { scrollTo(x: number, y: number): void }

export const ROOT = resolve(import.meta.dirname, '../..')
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e')
export const CHROMIUM = '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
]

/** Every full card number the simulated PIN pad can present: none may ever reach the page. */
export const FULL_PANS: readonly string[] = Object.values(TEST_CARDS).map((card) => card.pan)

/** Chromium and socat present (skip with a message on a developer machine; under CI=true a missing one throws). */
export function e2eComponentsPresent(): boolean {
  const browser = requireComponent('Chromium (/usr/bin/chromium)', existsSync(CHROMIUM), INSTALL.chromium)
  const socat = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)
  return browser && socat
}

// ---------------------------------------------------------------------------------------------
// The build

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * Builds the app (electron-vite: the command line the tests start and the UI they open) when the
 * build is missing or older than the sources (scripts/build-when-stale.mjs; parallel workers wait for
 * one build).
 */
export async function ensureRendererBuilt(timeoutMs = 240_000): Promise<void> {
  await buildWhenStale({ root: ROOT, quiet: true, timeoutMs })
}

// ---------------------------------------------------------------------------------------------
// The agent under test

export interface ServeProcess {
  uiUrl: string
  hostUrl: string
  dataDir: string
  /** Bearer token of the local API (`<dataDir>/api-token`). */
  token: string
  /** The link serve printed: it opens one cashier window, once. */
  printedLaunchUrl: string
  /** A fresh one-time link for a window of `view`, asked of the API with the token (POST /v1/launch). */
  launchUrl(view?: 'cashier' | 'customer'): Promise<string>
  host: HostAdmin
  /** Where the UI listens, to start the agent again on the same address. */
  port: number
  configHome: string
  /** Stops the agent and removes its data directory (unless it was another serve's, see `again`). */
  stop(): Promise<void>
  /** Stops the agent as a crash or an update would, keeping its data directory for `again`. */
  halt(): Promise<void>
}

/** Start on an earlier serve's data directory and port (an agent restart); its directories are left to it. */
export interface ServeAgain {
  dataDir: string
  configHome: string
  port: number
}

const UI_LINE = /^pos-agent serving the cashier UI at ((http:\/\/127\.0\.0\.1:(\d+))\/\?launch=[\w-]+)\s*$/
const TRAINING_LINE = /^TRAINING MODE: training host at (https:\/\/127\.0\.0\.1:(\d+))\b/

/**
 * `node bin/pos-agent.js serve --port 0` in training mode. `logName` names the file under
 * test-artifacts/e2e/ that receives the child's stdout and stderr.
 */
export async function startServe(
  logName: string,
  extraEnv: Record<string, string> = {},
  startTimeoutMs = 45_000,
  again?: ServeAgain,
  /** A configuration tried in training (`serve --training`): its settings with the training host and simulated PIN pad. */
  tried?: Record<string, unknown>,
): Promise<ServeProcess> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const dataDir = again?.dataDir ?? (await mkdtemp(join(tmpdir(), 'pos-e2e-data-')))
  const configHome = again?.configHome ?? (await mkdtemp(join(tmpdir(), 'pos-e2e-xdg-')))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    POS_AGENT_DATA_DIR: dataDir,
    POS_AGENT_CONFIG: '',
    XDG_CONFIG_HOME: configHome,
    ...extraEnv,
  }
  const log: WriteStream = createWriteStream(join(ARTIFACTS, `${logName}-serve.log`))
  // detached: the child leads its own process group, so a last-resort kill reaches its socat too.
  const triedFile = join(configHome, 'tried-config.json')
  if (tried) writeFileSync(triedFile, JSON.stringify(tried))
  const args = [...(tried ? ['--config', triedFile] : []), 'serve', ...(tried ? ['--training'] : []), '--port', String(again?.port ?? 0)]
  // A tried configuration keeps its journal (and token, and training host) under the data folder's training/.
  const filesDir = tried ? join(dataDir, 'training') : dataDir
  const child: ChildProcess = spawn(process.execPath, ['bin/pos-agent.js', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  child.stderr!.pipe(log, { end: false })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))

  const halt = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const ended = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])
      if (!ended && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {
          // already gone
        }
        await Promise.race([exited, sleep(5_000)])
      }
    }
  }
  const cleanup = async (): Promise<void> => {
    await halt()
    log.end()
    if (again) return
    await rm(dataDir, { recursive: true, force: true })
    await rm(configHome, { recursive: true, force: true })
  }

  try {
    const { uiUrl, hostUrl, printedLaunchUrl } = await new Promise<{ uiUrl: string; hostUrl: string; printedLaunchUrl: string }>(
      (resolveUrls, reject) => {
        let hostUrl: string | undefined
        const output: string[] = []
        const timer = setTimeout(
          () => reject(new Error(`serve did not print its URLs within ${startTimeoutMs} ms; output:\n${output.join('\n')}`)),
          startTimeoutMs,
        )
        createInterface({ input: child.stdout! }).on('line', (line) => {
          log.write(`${line}\n`)
          output.push(line)
          const training = TRAINING_LINE.exec(line)
          if (training) {
            if (training[2] === '0') return reject(new Error(`serve printed port 0 for the training host: ${line}`))
            hostUrl = training[1]
          }
          const ui = UI_LINE.exec(line)
          if (ui) {
            clearTimeout(timer)
            if (ui[3] === '0') return reject(new Error(`serve printed port 0 for the UI: ${line}`))
            if (!hostUrl)
              return reject(
                new Error(
                  `serve did not start in training mode (no "TRAINING MODE" line before the UI URL); output:\n${output.join('\n')}`,
                ),
              )
            resolveUrls({ uiUrl: ui[2]!, hostUrl, printedLaunchUrl: ui[1]! })
          }
        })
        child.once('exit', (code, signal) => {
          clearTimeout(timer)
          reject(new Error(`serve exited early (code ${code}, signal ${signal}); output:\n${output.join('\n')}`))
        })
      },
    )
    const token = readFileSync(join(filesDir, 'api-token'), 'utf8').trim()
    const host = new HostAdmin(hostUrl, readFileSync(join(filesDir, 'training-host', 'training-ca.pem'), 'utf8'))
    const launchUrl = async (view: 'cashier' | 'customer' = 'cashier'): Promise<string> => {
      const response = await request(`${uiUrl}/v1/launch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ view }),
      })
      const answer = (await response.body.json()) as { ok: boolean; value: { url: string } }
      if (!answer.ok) throw new Error(`POST /v1/launch: ${JSON.stringify(answer)}`)
      return answer.value.url
    }
    return {
      uiUrl,
      hostUrl,
      dataDir,
      token,
      printedLaunchUrl,
      launchUrl,
      host,
      port: Number(new URL(uiUrl).port),
      configHome,
      stop: async () => {
        // After halt() the host client is closed already.
        await host.close().catch(() => undefined)
        await cleanup()
      },
      halt: async () => {
        await host.close()
        await halt()
      },
    }
  } catch (error) {
    await cleanup()
    throw error
  }
}

/**
 * `pos-agent <args>` on a running agent's own data folder, as the machine's owner runs it from a
 * shell (`open`, `operators unlock`, …): its exit code and everything it printed. Bounded: killed
 * after 30 s.
 */
export function ownerRuns(
  serve: Pick<ServeProcess, 'dataDir' | 'configHome'>,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['bin/pos-agent.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, POS_AGENT_DATA_DIR: serve.dataDir, POS_AGENT_CONFIG: '', XDG_CONFIG_HOME: serve.configHome },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`pos-agent ${args.join(' ')} did not end in time: ${output}`))
    }, 30_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      done({ code, output })
    })
  })
}

// ---------------------------------------------------------------------------------------------
// The training host's admin endpoint

export interface LedgerEntry {
  seq: number
  operation: string
  merchantTransID: string
  originalMerchantTransID?: string
  amount?: { value: number; currency: string } | Record<string, unknown>
  status?: string
  resultCode: string
  maskedPan?: string
  fault?: string
  payment?: { merchantTransID: string; status: string; tipAmount?: unknown }
}

export interface LedgerPayment {
  merchantTransID: string
  maskedPan: string
  paymentBrand: string
  transAmount: unknown
  tipAmount?: unknown
  status: string
  authorizationCode?: string
  failureCode?: string
}

export interface Ledger {
  entries: LedgerEntry[]
  payments: LedgerPayment[]
}

export class HostAdmin {
  private readonly dispatcher: Agent

  constructor(
    readonly url: string,
    caPem: string,
  ) {
    // Only the training CA is trusted; certificate and host name checks stay on.
    this.dispatcher = new Agent({ connect: { ca: caPem }, connectTimeout: 5_000, headersTimeout: 10_000, bodyTimeout: 10_000 })
  }

  private async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await request(`${this.url}${path}`, {
      method,
      dispatcher: this.dispatcher,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    })
    const text = await response.body.text()
    if (response.statusCode !== 200) throw new Error(`training host ${method} ${path}: HTTP ${response.statusCode} ${text}`)
    return JSON.parse(text) as T
  }

  /** `fault` as the admin endpoint takes it: "http-503", "process-then-drop", "delay=10000", ... */
  setFault(operation: string, fault: string, times?: number): Promise<unknown> {
    return this.call('POST', '/admin/faults', { operation, fault, ...(times !== undefined ? { times } : {}) })
  }

  clearFaults(operation?: string): Promise<unknown> {
    return this.call('DELETE', `/admin/faults${operation === undefined ? '' : `?operation=${encodeURIComponent(operation)}`}`)
  }

  ledger(): Promise<Ledger> {
    return this.call('GET', '/admin/ledger')
  }

  close(): Promise<void> {
    return this.dispatcher.close()
  }
}

// ---------------------------------------------------------------------------------------------
// The browser

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 })
}

export interface Cashier {
  context: BrowserContext
  page: Page
  /** Console errors and uncaught page errors seen so far. */
  consoleErrors: string[]
  /** Full card numbers found in any response body the page received. */
  panLeaks: string[]
}

/**
 * A fresh browser context on the cashier UI, opened from a one-time launch link, waiting until the
 * app has loaded (training banner shown).
 */
export async function openCashier(
  browser: Browser,
  launchUrl: string,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<Cashier> {
  const context = await browser.newContext({ viewport })
  context.setDefaultTimeout(15_000)
  const page = await context.newPage()
  const consoleErrors: string[] = []
  const panLeaks: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`))
  page.on('response', (response) => {
    // The event stream never ends, so only the finite answers are read here (the DOM check covers events).
    if (response.url().endsWith('/v1/events')) return
    response
      .text()
      .then((body) => {
        for (const pan of FULL_PANS) if (body.includes(pan)) panLeaks.push(`${response.url()} carried ${pan}`)
      })
      .catch(() => undefined)
  })
  await page.goto(launchUrl, { waitUntil: 'domcontentloaded' })
  await page.getByTestId('training-banner').waitFor({ state: 'visible' })
  return { context, page, consoleErrors, panLeaks }
}

/** Layout problems seen when screenshots were taken, per page (checked after each test). */
const layoutProblems = new WeakMap<Page, string[]>()

export function layoutProblemsOf(page: Page): string[] {
  return layoutProblems.get(page) ?? []
}

/**
 * Full-page screenshot to test-artifacts/e2e/<name>.png. Also notes whether the page scrolls
 * sideways at the page's viewport (something too wide for the layout), which a cashier would see as
 * a cut-off screen.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
  if (width.scroll > width.client) {
    const problems = layoutProblems.get(page) ?? []
    problems.push(`${name}: the page is ${width.scroll} px wide in a ${width.client} px viewport (it scrolls sideways)`)
    layoutProblems.set(page, problems)
  }
  // From the top: a click near the bottom may have scrolled, and the sticky training banner would
  // then be drawn over the status bar in a full-page capture.
  await page.evaluate(() => window.scrollTo(0, 0))
  const path = join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/** The full card numbers present in the page's markup or text (should be none). */
export async function fullPansOnPage(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => `${document.documentElement.outerHTML}\n${document.body.innerText}`)
  return FULL_PANS.filter((pan) => text.includes(pan))
}
