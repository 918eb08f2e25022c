/**
 * Restaurant mode tried in training on a computer without an OS keychain (the Secret Service's bus is
 * not there), as a manager would before going live, in Chromium against `pos-agent serve --training`
 * with a production configuration in restaurant mode, at 800x480, 1024x768 and 1280x800: the counter
 * opens under the configuration's store name, a sale is approved and left open, and its tip is keyed
 * on the Tips screen and saved. Screenshots go to test-artifacts/e2e/restaurant-*.png.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { goTo, newSale, sell } from './cashier'
import {
  e2eComponentsPresent,
  ensureRendererBuilt,
  launchChromium,
  openCashier,
  screenshot,
  startServe,
  type ServeProcess,
} from './harness'
import { internalWords } from './plain-words'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('restaurant mode tried in training without a keychain', () => {
  let serve: ServeProcess
  let browser: Browser

  beforeAll(async () => {
    await ensureRendererBuilt()
    serve = await startServe(
      'restaurant-training',
      // No Secret Service to be found: the keychain is missing, as on a computer without one.
      { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(tmpdir(), 'pos-e2e-no-bus')}`, DISPLAY: '' },
      45_000,
      undefined,
      {
        // A real terminal's settings: its host is never asked (an address that cannot resolve).
        mode: 'production',
        host: { offlineBaseUrl: 'https://acquirer.invalid/offline', baseUrl: 'https://acquirer.invalid', aid: 'REAL-AID-1' },
        merchant: { storeId: 'S-9', terminalId: 'REAL-T9', merchantId: 'M-9', storeName: 'Trattoria Prova' },
        currency: 'USD',
        restaurantMode: true,
        tips: { tolerancePercent: 25 },
      },
    )
    browser = await launchChromium()
  }, 300_000)

  afterAll(async () => {
    await browser?.close().catch(() => undefined)
    await serve?.stop()
  }, 30_000)

  for (const [index, size] of SIZES.entries()) {
    const label = `${size.width}x${size.height}`
    it(`${label}: a sale is approved and left open, and its tip is keyed and saved`, async () => {
      const cashier = await openCashier(browser, await serve.launchUrl(), size)
      const { page } = cashier
      try {
        await page.getByText('Trattoria Prova').first().waitFor()
        const whole = 40 + index
        const id = await sell(page, `${whole}00`, `${whole}.00`, 'approved')
        await screenshot(page, `restaurant-${label}-approved`)
        await newSale(page)
        await goTo(page, 'tips')
        const tip = page.getByTestId(`tip-input-${id}`)
        await tip.click()
        // Keyed the sale's way: 4 0 0 is 4.00, within the 25% the configuration allows.
        await page.keyboard.type('400')
        expect(await tip.inputValue()).toBe('4.00')
        await page.getByTestId('submit-tips-button').click()
        await page.getByTestId(`tip-row-${id}`).filter({ hasText: 'Tip saved' }).waitFor()
        await screenshot(page, `restaurant-${label}-tip-saved`)
        expect(await internalWords(page)).toEqual([])
        expect(cashier.consoleErrors).toEqual([])
      } finally {
        await cashier.context.close()
      }
    }, 90_000)
  }
})
