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

export function useE2E(name: string): E2E {
  const state = {} as { serve?: ServeProcess; browser?: Browser; cashier?: Cashier }

  beforeAll(async () => {
    await ensureRendererBuilt()
    state.serve = await startServe(name)
    state.browser = await launchChromium()
  }, 300_000)

  afterAll(async () => {
    await state.browser?.close().catch(() => undefined)
    await state.serve?.stop()
  }, 30_000)

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
