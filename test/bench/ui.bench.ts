/**
 * bench:ui: how quickly the cashier sees what happens, in Chromium against `pos-agent serve` in
 * training mode (real agent, real simulated PIN pad on a socat pty, real training host).
 *
 * (a) enterToPrompt: from the Enter key on the amount field to the "Insert, tap or swipe" prompt on
 *     screen. Entirely in the page's clock: the keydown's `event.timeStamp` (a window capture
 *     listener, so before the app's own handler) to the first animation frame after a
 *     MutationObserver saw the prompt text in the DOM (that frame is the one that paints it).
 * (b) answerToResult: from the agent emitting the sale's final `approved` event to the "Approved"
 *     result heading on screen. The bench process holds its own /v1/events stream (bearer token from
 *     <dataDir>/api-token) and stamps the moment the approved event arrives, in Node's clock; the page
 *     stamps the first animation frame after the heading appeared, in its clock. The two clocks are
 *     both epoch-based (`performance.timeOrigin + performance.now()`) and are aligned by a calibration
 *     like NTP's: the page's clock is read from Node many times, and the reading with the shortest
 *     round trip gives the offset (error at most half that round trip, printed on stderr).
 * Baseline, same run, same clocks, same event: the page holds a second EventSource of its own whose
 * handler makes a trivial DOM change (one text node) on the same approved event; the time from the
 * bench's receipt of the event to the frame after that change is the floor any UI reaction to an
 * event pays (delivery to the page, a DOM change, a frame). ratio = answerToResultP50 / baselineP50.
 * Also printed for context: a bare fetch('/v1/health') round trip from the page.
 *
 * Targets: enterToPrompt and answerToResult under 100 ms (p50 and p99). Progress goes to stderr; the
 * last line on stdout is the one JSON line of figures.
 */
import { request } from 'undici'
import type { Page } from 'playwright-core'
import { e2eComponentsPresent, ensureRendererBuilt, launchChromium, startServe, type ServeProcess } from '../e2e/harness'
import { median, percentile, report } from './support/bench-kit'

const SALES = Number(process.env.BENCH_SALES ?? 30)
const WARMUP = 3
const TARGET_MS = 100
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 300_000)

const nodeNow = (): number => performance.timeOrigin + performance.now()

interface PageMarks {
  enter?: number
  promptDom?: number
  promptFrame?: number
  resultDom?: number
  resultFrame?: number
  baselineFrame?: number
  resultSaleId?: string
}

interface BenchProbe {
  marks: PageMarks
  arm(): void
}

// The page's globals used in page.evaluate callbacks, declared for this module only (tsconfig.node
// has no DOM library, and adding it would let Node code use browser globals unnoticed).
interface PageNode {
  id: string
  hidden: boolean
  textContent: string | null
  contains(other: unknown): boolean
  appendChild(child: PageNode): void
}
declare const document: { body: PageNode; createElement(tag: string): PageNode; querySelector(selector: string): PageNode | null }
declare const window: {
  __bench: BenchProbe
  addEventListener(type: 'keydown', listener: (event: { key: string; timeStamp: number }) => void, options: { capture: boolean }): void
}
declare const requestAnimationFrame: (callback: () => void) => number
declare const MutationObserver: new (callback: (records: Array<{ target: unknown }>) => void) => {
  observe(target: PageNode, options: Record<string, boolean>): void
}
declare const EventSource: new (url: string) => { onmessage: ((message: { data: unknown }) => void) | null }

/** Installs the page-side stamps (kept across sales; `arm()` clears them before each sale). */
async function installProbes(page: Page): Promise<void> {
  // tsx (esbuild, keepNames) wraps named functions in a `__name(fn, "name")` helper that does not
  // exist in the page; functions passed to evaluate are serialized as written, so give the page one.
  await page.evaluate('globalThis.__name = (fn) => fn')
  await page.evaluate(() => {
    const epoch = (t: number) => performance.timeOrigin + t
    const bench: BenchProbe = {
      marks: {},
      arm: () => {
        bench.marks = {}
      },
    }
    window.__bench = bench
    window.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Enter' && bench.marks.enter === undefined) bench.marks.enter = epoch(event.timeStamp)
      },
      { capture: true },
    )

    const baseline = document.createElement('div')
    baseline.id = 'bench-baseline'
    baseline.hidden = true
    document.body.appendChild(baseline)

    const frameAfter = (set: (t: number) => void) => requestAnimationFrame(() => set(epoch(performance.now())))
    new MutationObserver((records) => {
      const m = bench.marks
      if (records.some((r) => r.target === baseline || baseline.contains(r.target))) {
        if (m.baselineFrame === undefined && baseline.textContent) frameAfter((t) => (m.baselineFrame ??= t))
      }
      if (m.enter !== undefined && m.promptDom === undefined) {
        const prompt = document.querySelector('[data-testid="sale-prompt"] .prompt-text')?.textContent ?? ''
        if (prompt.startsWith('Insert, tap or swipe')) {
          m.promptDom = epoch(performance.now())
          frameAfter((t) => (m.promptFrame = t))
        }
      }
      if (m.enter !== undefined && m.resultDom === undefined) {
        const heading = document.querySelector('[data-testid="result-heading"]')
        if (heading?.textContent === 'Approved') {
          m.resultDom = epoch(performance.now())
          m.resultSaleId = heading.id.replace(/^result-/, '')
          frameAfter((t) => (m.resultFrame = t))
        }
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true })

    // The baseline's own event stream: a trivial DOM change on the approved sale event.
    const events = new EventSource('/v1/events')
    events.onmessage = (message) => {
      const event = JSON.parse(message.data as string) as { type: string; sale?: { id: string; state: string } }
      if (event.type === 'sale' && event.sale?.state === 'approved' && bench.marks.enter !== undefined)
        baseline.textContent = `${event.sale.id} approved`
    }
  })
}

/** Offset to subtract from a page epoch time to get Node's epoch time, from the shortest of many round trips. */
async function clockOffset(page: Page): Promise<{ offset: number; uncertainty: number }> {
  let best = { offset: 0, uncertainty: Number.POSITIVE_INFINITY }
  for (let i = 0; i < 40; i++) {
    const before = nodeNow()
    const pageTime = await page.evaluate(() => performance.timeOrigin + performance.now())
    const after = nodeNow()
    const half = (after - before) / 2
    if (half < best.uncertainty) best = { offset: pageTime - (before + half), uncertainty: half }
  }
  return best
}

/** The bench's own /v1/events stream: when each sale's approved event arrived, in Node's clock. */
async function watchApprovals(serve: ServeProcess, signal: AbortSignal): Promise<Map<string, number>> {
  const arrivals = new Map<string, number>()
  const response = await request(`${serve.uiUrl}/v1/events`, { headers: { authorization: `Bearer ${serve.token}` }, signal })
  if (response.statusCode !== 200) throw new Error(`/v1/events answered ${response.statusCode}`)
  let buffer = ''
  response.body.setEncoding('utf8')
  response.body.on('data', (chunk: string) => {
    const arrived = nodeNow()
    buffer += chunk
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      for (const line of frame.split('\n')) {
        if (!line.startsWith('data: ')) continue
        const event = JSON.parse(line.slice(6)) as { type: string; sale?: { id: string; state: string } }
        if (event.type === 'sale' && event.sale?.state === 'approved' && !arrivals.has(event.sale.id)) arrivals.set(event.sale.id, arrived)
      }
    }
  })
  response.body.on('error', () => undefined)
  return arrivals
}

async function op(serve: ServeProcess, name: string, body: unknown): Promise<unknown> {
  const response = await request(`${serve.uiUrl}/v1/ops/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const result = (await response.body.json()) as { ok: boolean; value?: unknown; error?: unknown }
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`)
  return result.value
}

/** Distinct amounts (the duplicate guard), never ending in 51 or 05 (the training host declines those). */
function amountDigits(i: number): string {
  let minor = 1_000 + i * 37
  while (minor % 100 === 51 || minor % 100 === 5) minor += 1
  return String(minor)
}

async function marks(page: Page): Promise<PageMarks> {
  return page.evaluate(() => window.__bench.marks)
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

if (!e2eComponentsPresent()) {
  console.error('bench:ui needs /usr/bin/chromium and socat (apt-get install chromium socat)')
  process.exit(1)
}

await ensureRendererBuilt()
const serve = await startServe('bench-ui')
const browser = await launchChromium().catch(async (error: unknown) => {
  await serve.stop()
  throw error
})
const abort = new AbortController()
const deadline = setTimeout(() => {
  console.error(`bench:ui did not finish within ${DEADLINE_MS} ms`)
  process.exitCode = 1
  abort.abort()
  void browser.close().finally(() => serve.stop().finally(() => process.exit(1)))
}, DEADLINE_MS)

try {
  const arrivals = await watchApprovals(serve, abort.signal)
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await page.goto(await serve.launchUrl())
  await page.getByTestId('training-banner').waitFor({ timeout: 15_000 })
  await installProbes(page)
  const clock = await clockOffset(page)
  console.error(`page clock offset ${clock.offset.toFixed(3)} ms (± ${clock.uncertainty.toFixed(3)} ms)`)

  const enterToPrompt: number[] = []
  const answerToResult: number[] = []
  const baseline: number[] = []
  const amount = page.getByTestId('amount-input')
  for (let i = 0; i < WARMUP + SALES; i++) {
    await page.evaluate(() => window.__bench.arm())
    await amount.focus()
    await page.keyboard.type(amountDigits(i))
    await page.keyboard.press('Enter')
    const promptMarks = await waitFor('the card prompt', async () => {
      const m = await marks(page)
      return m.promptFrame !== undefined ? m : undefined
    })
    await op(serve, 'presentTestCard', { name: 'chip-visa' })
    const m = await waitFor('the approved result and the baseline', async () => {
      const now = await marks(page)
      return now.resultFrame !== undefined &&
        now.baselineFrame !== undefined &&
        now.resultSaleId !== undefined &&
        arrivals.has(now.resultSaleId)
        ? now
        : undefined
    })
    const arrived = arrivals.get(m.resultSaleId!)!
    if (i >= WARMUP) {
      enterToPrompt.push(promptMarks.promptFrame! - promptMarks.enter!)
      answerToResult.push(m.resultFrame! - clock.offset - arrived)
      baseline.push(m.baselineFrame! - clock.offset - arrived)
    }
    await page.getByTestId('new-sale-button').click()
    if ((i + 1) % 10 === 0) console.error(`${i + 1}/${WARMUP + SALES} sales`)
  }

  const health: number[] = []
  for (let i = 0; i < 30; i++) {
    health.push(
      await page.evaluate(async () => {
        const started = performance.now()
        await (await fetch('/v1/health')).json()
        return performance.now() - started
      }),
    )
  }
  const recheck = await clockOffset(page)
  console.error(`page clock offset after the run ${recheck.offset.toFixed(3)} ms (drift ${(recheck.offset - clock.offset).toFixed(3)} ms)`)
  if (pageErrors.length > 0) console.error(`page errors: ${pageErrors.join('; ')}`)

  const sorted = (list: number[]) => [...list].sort((a, b) => a - b)
  const p = (list: number[], q: number) => Number(percentile(sorted(list), q).toFixed(1))
  console.error(`enter→prompt ms: p50 ${p(enterToPrompt, 50)} p99 ${p(enterToPrompt, 99)} max ${p(enterToPrompt, 100)}`)
  console.error(`answer→result ms: p50 ${p(answerToResult, 50)} p99 ${p(answerToResult, 99)} max ${p(answerToResult, 100)}`)
  console.error(
    `baseline (event→trivial DOM change) ms: p50 ${p(baseline, 50)} p99 ${p(baseline, 99)}; fetch /v1/health p50 ${median(health).toFixed(1)} ms`,
  )
  const enterToPromptP99 = p(enterToPrompt, 99)
  const answerToResultP99 = p(answerToResult, 99)
  report({
    bench: 'ui',
    enterToPromptP50: p(enterToPrompt, 50),
    enterToPromptP99,
    answerToResultP50: p(answerToResult, 50),
    answerToResultP99,
    baselineP50: p(baseline, 50),
    baselineP99: p(baseline, 99),
    ratio: Number((median(answerToResult) / median(baseline)).toFixed(2)),
    healthFetchP50: Number(median(health).toFixed(1)),
    clockUncertaintyMs: Number(clock.uncertainty.toFixed(2)),
    sales: SALES,
    targetMs: TARGET_MS,
    withinTarget: enterToPromptP99 < TARGET_MS && answerToResultP99 < TARGET_MS,
  })
  await context.close()
} finally {
  clearTimeout(deadline)
  abort.abort()
  await browser.close().catch(() => undefined)
  await serve.stop()
}
