/**
 * The agent stops while the card is asked for, in Chromium against `pos-agent serve --training`
 * whose simulated customer presents no card by itself: the cashier's header says so in red, the sale
 * screen stops asking for the card (the customer should not insert it) and Cancel says why it waits,
 * and the customer display says not to insert the card yet, at 800x480, 1024x768 and 1280x800.
 */
import { describe, expect, it } from 'vitest'
import { keyAmount, salePrompt } from './cashier'
import { e2eComponentsPresent, ensureRendererBuilt, launchChromium, openCashier, screenshot, startServe } from './harness'
import { triedTerminal } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('the agent stops during the card prompt', () => {
  it('the screens stop asking for the card: red on the cashier side, "do not insert" for the customer', async () => {
    await ensureRendererBuilt()
    const serve = await startServe(
      'agent-down',
      {},
      45_000,
      undefined,
      triedTerminal('Corner Shop', { training: { autoPresentCard: false } }),
    )
    const browser = await launchChromium()
    try {
      const { page } = await openCashier(browser, await serve.launchUrl(), SIZES[0])
      const customer = await browser.newContext({ viewport: SIZES[0] })
      const display = await customer.newPage()
      await display.goto(await serve.launchUrl('customer'))
      const message = display.getByTestId('customer-message')
      await message.filter({ hasText: 'Welcome' }).waitFor()

      await keyAmount(page, '500', '5.00')
      await page.getByTestId('charge-button').click()
      await salePrompt(page).filter({ hasText: 'Insert, tap or swipe the card' }).waitFor()
      await message.filter({ hasText: 'Insert, tap or swipe your card' }).waitFor()

      await serve.halt()
      const badge = page.getByTestId('agent-not-answering')
      await badge.waitFor({ timeout: 10_000 })
      expect(await badge.getAttribute('class')).toContain('tone-error')
      await salePrompt(page).filter({ hasText: 'Payment agent not answering' }).waitFor()
      const prompt = await salePrompt(page).innerText()
      expect(prompt).toContain('The customer should not insert the card now.')
      expect(prompt).not.toContain('Insert, tap or swipe')
      expect(await page.getByTestId('cancel-sale-button').isDisabled()).toBe(true)
      expect(await page.getByTestId('cancel-disabled-reason').innerText()).toContain('can be stopped once it answers again')

      await message.filter({ hasText: 'Do not insert your card yet' }).waitFor({ timeout: 10_000 })
      expect(await display.getByTestId('customer-display').innerText()).not.toContain('Insert, tap or swipe')
      for (const size of SIZES) {
        await page.setViewportSize(size)
        await display.setViewportSize(size)
        await expect.poll(() => badge.isVisible()).toBe(true)
        await screenshot(page, `agent-down-cashier-${size.width}x${size.height}`)
        await screenshot(display, `agent-down-customer-${size.width}x${size.height}`)
      }
      await customer.close()
    } finally {
      await browser.close().catch(() => undefined)
      await serve.stop()
    }
  }, 120_000)
})
