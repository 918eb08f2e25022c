/**
 * One agent and one browser per test file; a fresh browser context (a cashier who just opened the
 * page) per test. After each test: no full card number on the page or in any answer the page got,
 * no console error, and no screenshot taken while the page scrolled sideways (checked after the test
 * body, so the test's own findings come first).
 */
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import {
  ensureRendererBuilt,
  fullPansOnPage,
  launchChromium,
  layoutProblemsOf,
  openCashier,
  startServe,
  type Cashier,
  type ServeProcess,
} from './harness'

export interface E2E {
  serve: ServeProcess
  browser: Browser
  cashier: Cashier
}

/** One agent (`start`) and one browser for a test file, started before its tests and stopped after. */
function agentAndBrowser(start: () => Promise<ServeProcess>): { serve?: ServeProcess; browser?: Browser } {
  const state = {} as { serve?: ServeProcess; browser?: Browser }
  beforeAll(async () => {
    await ensureRendererBuilt()
    state.serve = await start()
    state.browser = await launchChromium()
  }, 300_000)
  afterAll(async () => {
    await state.browser?.close().catch(() => undefined)
    await state.serve?.stop()
  }, 30_000)
  return state
}

export function useE2E(name: string): E2E {
  const state: { serve?: ServeProcess; browser?: Browser; cashier?: Cashier } = agentAndBrowser(() => startServe(name))

  beforeEach(async () => {
    await state.serve!.host.clearFaults()
    state.cashier = await openCashier(state.browser!, await state.serve!.launchUrl())
  })

  afterEach(async () => {
    const cashier = state.cashier
    if (!cashier) return
    try {
      const problems: string[] = []
      const onPage = cashier.page.isClosed() ? [] : await fullPansOnPage(cashier.page)
      if (onPage.length > 0) problems.push(`full card numbers on the page: ${onPage.join(', ')}`)
      if (cashier.panLeaks.length > 0) problems.push(`full card numbers in answers the page received: ${cashier.panLeaks.join('; ')}`)
      problems.push(...layoutProblemsOf(cashier.page))
      if (cashier.consoleErrors.length > 0) problems.push(`browser console errors:\n  ${cashier.consoleErrors.join('\n  ')}`)
      expect(problems, problems.join('\n')).toEqual([])
    } finally {
      await cashier.context.close().catch(() => undefined)
      state.cashier = undefined
    }
  })

  return {
    get serve() {
      return state.serve!
    },
    get browser() {
      return state.browser!
    },
    get cashier() {
      return state.cashier!
    },
  }
}

/**
 * A real terminal's settings, as a manager would try them in training before going live: production
 * mode, a host that is never asked (an address that cannot resolve), the store named `storeName`, and
 * `more` on top (restaurant mode, the card prompt's time, ...).
 */
export function triedTerminal(storeName: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mode: 'production',
    host: { offlineBaseUrl: 'https://acquirer.invalid/offline', baseUrl: 'https://acquirer.invalid', aid: 'REAL-AID-1' },
    merchant: { storeId: 'S-9', terminalId: 'REAL-T9', merchantId: 'M-9', storeName },
    currency: 'USD',
    ...more,
  }
}

export interface TriedE2E {
  serve: ServeProcess
  browser: Browser
}

/**
 * One agent trying `settings` in training (`pos-agent serve --training`, the training host and the
 * simulated PIN pad) and one browser for a test file; each test opens its own cashier (openCashier).
 * `env` is added to the agent's environment (e.g. no Secret Service to be found).
 */
export function useTriedE2E(name: string, settings: Record<string, unknown>, env: Record<string, string> = {}): TriedE2E {
  const state = agentAndBrowser(() => startServe(name, env, 45_000, undefined, settings))

  return {
    get serve() {
      return state.serve!
    },
    get browser() {
      return state.browser!
    },
  }
}
