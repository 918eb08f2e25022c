/**
 * A large amount checked with the customer, in Chromium against `pos-agent serve` in training mode:
 * while the cashier is asked "Charge USD 1,500.00?" the customer display shows that amount to check
 * (at 800x480, 1024x768 and 1280x800), not "Welcome"; "No, change the amount" gives the welcome
 * back, and once the cashier confirms the display asks for the card for that amount.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { keyAmount, presentCard, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { notInView } from './in-view'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

async function displayText(display: Page, id = 'customer-display'): Promise<string> {
  return (await display.getByTestId(id).innerText()).replace(/\s+/g, ' ')
}

describe.skipIf(!e2eComponentsPresent())('a large amount checked with the customer', () => {
  const e2e = useE2E('amount-check')

  it('the customer display shows the amount the cashier is checking, then the card prompt for it', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize(SIZES[0])
    const screenOfCustomer = await e2e.browser.newContext({ viewport: SIZES[0] })
    try {
      const display = await screenOfCustomer.newPage()
      await display.goto(await e2e.serve.launchUrl('customer'))
      const message = display.getByTestId('customer-message')
      await message.filter({ hasText: 'Welcome' }).waitFor()

      await keyAmount(page, '150000', '1,500.00')
      await page.getByTestId('charge-button').click()
      const dialog = page.getByTestId('amount-dialog')
      await dialog.waitFor()
      expect(await dialog.innerText()).toContain('Check it with the customer')
      // The customer sees what the cashier is asked to check with them.
      await message.filter({ hasText: 'Please check the amount' }).waitFor()
      expect(await displayText(display, 'customer-amount')).toBe('Total USD 1,500.00')
      expect(await displayText(display)).not.toContain('Welcome')
      expect(await display.getByTestId('customer-display').getAttribute('data-kind')).toBe('check')
      for (const size of SIZES) {
        await display.setViewportSize(size)
        expect(await notInView(display, ['customer-amount', 'customer-message'])).toEqual([])
        await screenshot(display, `amount-check-customer-${size.width}x${size.height}`)
      }
      await display.setViewportSize(SIZES[0])

      // Changed: nothing to check any more.
      await dialog.getByRole('button', { name: 'No, change the amount' }).click()
      await message.filter({ hasText: 'Welcome' }).waitFor()
      expect(await display.getByTestId('customer-amount').count()).toBe(0)

      // Confirmed: the card is asked for that amount.
      await page.getByTestId('charge-button').click()
      await dialog.waitFor()
      await message.filter({ hasText: 'Please check the amount' }).waitFor()
      await dialog.getByRole('button', { name: 'Charge USD 1,500.00' }).click()
      await message.filter({ hasText: 'Insert, tap or swipe your card' }).waitFor()
      expect(await displayText(display, 'customer-amount')).toBe('Total USD 1,500.00')
      await presentCard(page, 'chip-visa')
      await waitForResult(page, 'approved')
      await message.filter({ hasText: 'Approved' }).waitFor()
      await screenshot(page, 'amount-check-cashier-approved-800x480')
    } finally {
      await screenOfCustomer.close()
    }
  }, 120_000)
})
