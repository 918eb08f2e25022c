/**
 * What the counter says plainly, in Chromium against `pos-agent serve --training` with a card prompt
 * of 25 s and no card presented by itself, at 800x480, 1024x768 and 1280x800:
 * - who is signed in is on the sale screen at every size, above the amount;
 * - the cashier sees the card's time running out and can give More time;
 * - the customer's spoken help and high contrast end with that customer's sale;
 * - a sale returned in whole reads "Returned", its return row names the sale;
 * - the day report names operators, says why Close the day is greyed on a closed batch, and counts
 *   transactions, not "sales", in its list of batches.
 */
import { describe, expect, it } from 'vitest'
import { goTo, keyAmount, newSale, presentCard, rowStatus, salePrompt, sell, waitForResult } from './cashier'
import { e2eComponentsPresent, openCashier, screenshot } from './harness'
import { notInView } from './in-view'
import { addStaff, signInIfAsked } from './staff'
import { triedTerminal, useTriedE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const
const MANAGER = { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' } as const
const CASHIER = { operatorId: '17', name: 'Carl', role: 'cashier', pin: '1357' } as const

describe.skipIf(!e2eComponentsPresent())('the counter, said plainly', () => {
  const tried = useTriedE2E(
    'counter-clarity',
    triedTerminal('Corner Shop', { device: { cardReadTimeoutSeconds: 25 }, training: { autoPresentCard: false } }),
  )

  it('who is signed in, the card time left with More time, the customer choices reset, returned sales, the day report in words', async () => {
    const { page, context, consoleErrors } = await openCashier(tried.browser, await tried.serve.launchUrl(), SIZES[0])
    const customer = await tried.browser.newContext({ viewport: SIZES[0] })
    try {
      await addStaff(context, tried.serve, { ...MANAGER }, { ...CASHIER })
      await page.reload()
      await signInIfAsked(page, { ...MANAGER })
      // Who is signed in, in sight on the sale screen at every size (the header's line may have no room).
      for (const size of SIZES) {
        await page.setViewportSize(size)
        const shown = page.getByTestId('sale-operator')
        expect(await shown.innerText()).toBe('Maria (manager)')
        expect(await notInView(page, ['sale-operator', 'amount-input', 'charge-button'])).toEqual([])
        await screenshot(page, `clarity-signed-in-${size.width}x${size.height}`)
      }
      await page.setViewportSize(SIZES[0])

      // The customer switches on spoken help and high contrast for their sale.
      const display = await customer.newPage()
      await display.goto(await tried.serve.launchUrl('customer'))
      await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
      await display.getByTestId('customer-contrast').click()
      expect(await display.getByTestId('customer-contrast').getAttribute('aria-pressed')).toBe('true')

      // The card's time, for the cashier: a countdown and More time in the last 20 seconds.
      await keyAmount(page, '5000', '50.00')
      await page.getByTestId('charge-button').click()
      await salePrompt(page).filter({ hasText: /card/i }).waitFor()
      const timeLeft = page.getByTestId('cashier-time-left')
      await timeLeft.waitFor({ timeout: 20_000 })
      expect(await timeLeft.innerText()).toMatch(/Time for the card is almost up: \d+ seconds? left\./)
      await screenshot(page, 'clarity-time-left-800x480')
      await page.getByTestId('cashier-more-time').click()
      await timeLeft.waitFor({ state: 'detached' })
      await presentCard(page, 'chip-visa')
      const saleId = await waitForResult(page, 'approved')
      await newSale(page)
      // After this customer's result, the next customer gets the display as usual.
      await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor({ timeout: 30_000 })
      await expect.poll(() => display.getByTestId('customer-contrast').getAttribute('aria-pressed')).toBe('false')
      expect(await display.getByTestId('customer-display').getAttribute('class')).not.toContain('customer-contrast')

      // Returned in whole: the sale reads "Returned", the return row names its sale.
      await goTo(page, 'transactions')
      await page.getByTestId(`return-${saleId}`).click()
      await page.getByTestId('return-all-left').click()
      await page.getByTestId('return-start-button').click()
      await presentCard(page, 'chip-visa', page.getByTestId('return-panel'))
      await page.getByRole('status', { name: 'Return status' }).filter({ hasText: 'Returned' }).waitFor({ timeout: 20_000 })
      await page.getByTestId('return-done-button').click()
      await expect.poll(() => rowStatus(page, saleId).innerText()).toBe('Returned')
      await page
        .locator('[data-testid^="sale-row-"]')
        .filter({ hasText: /Return USD 50\.00\s*of the sale at \d{2}:\d{2}/ })
        .waitFor()
      await screenshot(page, 'clarity-returned-800x480')

      // The day report: operators by name; closed, the greyed Close the day says why; batches count transactions.
      await goTo(page, 'sale')
      await sell(page, '1000', '10.00', 'approved')
      await newSale(page)
      await goTo(page, 'close-of-day')
      await page.getByTestId('day-shifts').filter({ hasText: 'Maria (9)' }).waitFor()
      await page.getByTestId('close-day-button').click()
      await page.getByTestId('close-confirm').getByRole('button', { name: 'Close the day' }).click()
      await page.getByTestId('close-notice').filter({ hasText: 'Batch 1 closed.' }).waitFor()
      expect(await page.getByTestId('close-day-button').isDisabled()).toBe(true)
      const why = await page.getByTestId('close-day-button').getAttribute('aria-describedby')
      expect(await page.locator(`[id="${why}"]`).innerText()).toContain('already closed')
      const picked = page.getByTestId('batch-picker')
      expect(await picked.inputValue()).toBe('1')
      expect(await picked.locator('option[value="1"]').innerText()).toMatch(/\(\d+ transactions?\)$/)
      for (const size of SIZES) {
        await page.setViewportSize(size)
        await screenshot(page, `clarity-closed-${size.width}x${size.height}`)
      }
      expect(consoleErrors).toEqual([])
    } finally {
      await customer.close()
      await context.close()
    }
  }, 180_000)
})
