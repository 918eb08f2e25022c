/**
 * Restaurant mode tried in training on a computer without an OS keychain (the Secret Service's bus is
 * not there), as a manager would before going live, in Chromium against `pos-agent serve --training`
 * with a production configuration in restaurant mode, at 800x480, 1024x768 and 1280x800: the counter
 * opens under the configuration's store name, a sale is approved and left open, and its tip is keyed
 * on the Tips screen and saved. Screenshots go to test-artifacts/e2e/restaurant-*.png.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { goTo, newSale, sell } from './cashier'
import { e2eComponentsPresent, openCashier, screenshot } from './harness'
import { internalWords } from './plain-words'
import { triedTerminal, useTriedE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('restaurant mode tried in training without a keychain', () => {
  const tried = useTriedE2E(
    'restaurant-training',
    triedTerminal('Trattoria Prova', { restaurantMode: true, tips: { tolerancePercent: 25 } }),
    // No Secret Service to be found: the keychain is missing, as on a computer without one.
    { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(tmpdir(), 'pos-e2e-no-bus')}`, DISPLAY: '' },
  )

  for (const [index, size] of SIZES.entries()) {
    const label = `${size.width}x${size.height}`
    it(`${label}: a sale is approved and left open, and its tip is keyed and saved`, async () => {
      const cashier = await openCashier(tried.browser, await tried.serve.launchUrl(), size)
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
