/**
 * Restaurant mode says what it does, in Chromium against `pos-agent serve --training` trying a
 * configuration that sets restaurant mode and nothing else (no host, no ids: training needs none), at
 * 800x480, 1024x768 and 1280x800: the header names the mode, an approval says the payment is
 * authorised and taken with its tip at close (not "went through"), and the day's money before the
 * close reads "Authorised", not "Charged".
 */
import { describe, expect, it } from 'vitest'
import { goTo, newSale, sell } from './cashier'
import { e2eComponentsPresent, openCashier, screenshot } from './harness'
import { notInView } from './in-view'
import { internalWords } from './plain-words'
import { useTriedE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('restaurant mode in words', () => {
  const tried = useTriedE2E('restaurant-words', { restaurantMode: true })

  it('the header names it, an approval is an authorisation taken at close, the report says authorised', async () => {
    const cashier = await openCashier(tried.browser, await tried.serve.launchUrl(), SIZES[0])
    const { page } = cashier
    try {
      for (const size of SIZES) {
        await page.setViewportSize(size)
        expect(await notInView(page, ['restaurant-mode'])).toEqual([])
        await screenshot(page, `restaurant-words-header-${size.width}x${size.height}`)
      }
      await page.setViewportSize(SIZES[0])
      await sell(page, '4200', '42.00', 'approved')
      const result = await page.getByTestId('sale-result').innerText()
      expect(result).toContain('Authorised: add the tip on the Tips screen. The payment is taken with its tip at close of day.')
      expect(result).not.toContain('went through')
      await screenshot(page, 'restaurant-words-approved-800x480')
      await newSale(page)
      await goTo(page, 'close-of-day')
      const money = page.getByTestId('day-money')
      await money.waitFor()
      expect(await money.locator('thead').innerText()).toContain('Authorised (with tips), taken at close')
      expect(await money.locator('thead').innerText()).not.toContain('Charged')
      expect(await internalWords(page)).toEqual([])
      await screenshot(page, 'restaurant-words-report-800x480')
      expect(cashier.consoleErrors).toEqual([])
    } finally {
      await cashier.context.close()
    }
  }, 90_000)
})
