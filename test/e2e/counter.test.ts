/**
 * One counter, whoever starts the sale, and the customer-facing display, in Chromium against
 * `pos-agent serve` in training mode: a sale the POS starts through the local API shows live on the
 * cashier screen with its source and can be stopped there; its result shows like any other; the
 * customer display (`/customer`) follows a sale from amount to thank-you and shows nothing a customer
 * should not see.
 */
import { describe, expect, it } from 'vitest'
import { wordsOf } from '../../src-shared/errors'
import { goTo, keyAmount, newSale, presentCard, salePrompt, waitForResult } from './cashier'
import { e2eComponentsPresent, fullPansOnPage, screenshot } from './harness'
import { notInView } from './in-view'
import { posValue } from './pos-api'
import { useE2E } from './suite'

describe.skipIf(!e2eComponentsPresent())('one counter, and the customer display', () => {
  const e2e = useE2E('counter')

  it('a sale started by the POS shows live on the cashier screen, marked, and the cashier can stop it', async () => {
    const { page } = e2e.cashier
    await goTo(page, 'transactions')
    const started = await posValue(e2e.serve, 'startSale', { amountMinor: 4321, currency: 'USD', reference: 'pos-order-1' })

    // The cashier is brought to the sale screen, which shows the POS's sale as it runs.
    await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
    expect(await page.getByTestId('nav-sale').getAttribute('aria-current')).toBe('page')
    expect(await page.getByTestId('sale-origin').innerText()).toBe('Started by the POS')
    expect(await page.getByTestId('amount-input').inputValue()).toBe('43.21')
    expect(await page.getByTestId('cancel-sale-button').isEnabled()).toBe(true)
    expect(await notInView(page, ['sale-origin', 'sale-prompt', 'cancel-sale-button'])).toEqual([])
    await screenshot(page, 'counter-pos-sale-waiting')

    await page.getByTestId('cancel-sale-button').click()
    const saleId = await waitForResult(page, 'abandoned')
    expect(saleId).toBe(started.id)
    expect(await page.getByTestId('result-heading').innerText()).toBe('Not completed')
    expect((await posValue(e2e.serve, 'getSale', { id: started.id })).state).toBe('abandoned')
    await newSale(page)
    expect(await page.locator('[data-testid="sale-origin"]').count()).toBe(0)
  })

  it('the result of a sale the POS started shows as any other, and the cashier charges the next one', async () => {
    const { page } = e2e.cashier
    const started = await posValue(e2e.serve, 'startSale', { amountMinor: 5432, currency: 'USD', reference: 'pos-order-2' })
    await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
    await presentCard(page, 'chip-visa')
    expect(await waitForResult(page, 'approved')).toBe(started.id)
    expect(await page.getByTestId('result-heading').innerText()).toBe('Approved')
    expect(await page.getByTestId('result-auth-code').innerText()).toMatch(/^[A-Z0-9]{6}$/)
    await screenshot(page, 'counter-pos-sale-approved')
    await newSale(page)

    // The counter is free again for the cashier's own sale, which is not marked as the POS's.
    await keyAmount(page, '1122', '11.22')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    await waitForResult(page, 'approved')
    expect(await page.locator('[data-testid="sale-origin"]').count()).toBe(0)
    await newSale(page)
  })

  it('the void is in front of the cashier on a small display, with the test cards, and can be stopped while the card is asked for', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize({ width: 800, height: 480 })
    await keyAmount(page, '6543', '65.43')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    const saleId = await waitForResult(page, 'approved')
    await newSale(page)

    await goTo(page, 'transactions')
    await page.getByTestId(`void-${saleId}`).click()
    await page.getByTestId('void-confirm-dialog').getByRole('button', { name: 'Void sale' }).click()
    const panel = page.getByTestId('void-panel')
    await panel
      .getByRole('status', { name: 'Void status' })
      .filter({ hasText: /present|Insert, tap/i })
      .waitFor()
    expect(await notInView(page, ['void-prompt', 'stop-void-button', 'test-card-picker'])).toEqual([])
    await screenshot(page, 'counter-void-800x480')
    await panel.getByTestId('stop-void-button').click()
    await panel.getByRole('status', { name: 'Void status' }).filter({ hasText: 'Not voided' }).waitFor({ timeout: 15_000 })
    expect(await panel.getByRole('status', { name: 'Void status' }).innerText()).toMatch(/The payment stands/)
    await panel.getByTestId('void-done-button').click()
    await panel.waitFor({ state: 'detached' })
    expect(await page.getByTestId(`sale-row-${saleId}`).innerText()).toContain('Approved')
    await goTo(page, 'sale')
  })

  it('the page loaded without a launch link has no session: it says how to open the screen; the link opens it once', async () => {
    const stranger = await e2e.browser.newContext()
    try {
      const page = await stranger.newPage()
      await page.goto(e2e.serve.uiUrl)
      await page.getByText(wordsOf('SESSION_REQUIRED')).waitFor()
      expect(await page.getByTestId('amount-input').count()).toBe(0)
      const link = await e2e.serve.launchUrl()
      await page.goto(link)
      await page.getByTestId('training-banner').waitFor()
      // The address bar keeps no nonce, and the link is spent: another browser gets nothing from it.
      expect(page.url()).toBe(`${e2e.serve.uiUrl}/`)
      const other = await e2e.browser.newContext()
      try {
        const again = await other.newPage()
        await again.goto(link)
        await again.getByText(wordsOf('SESSION_REQUIRED')).waitFor()
      } finally {
        await other.close()
      }
    } finally {
      await stranger.close()
    }
  })

  it('the customer display follows a sale: amount, card prompt, result, thank-you; no card number, no menu', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize({ width: 1280, height: 800 })
    const customer = await e2e.browser.newContext({ viewport: { width: 800, height: 480 } })
    try {
      const display = await customer.newPage()
      const errors: string[] = []
      display.on('pageerror', (error) => errors.push(error.message))
      display.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      display.on('response', (response) => {
        if (response.status() >= 400) errors.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`)
      })
      await display.goto(await e2e.serve.launchUrl('customer'))
      const message = display.getByTestId('customer-message')
      await message.filter({ hasText: 'Welcome' }).waitFor()
      expect(await display.locator('nav, [data-testid="amount-input"], [data-testid="nav-menu"]').count()).toBe(0)

      await keyAmount(page, '2468', '24.68')
      await page.getByTestId('charge-button').click()
      await message.filter({ hasText: 'Insert, tap or swipe your card' }).waitFor()
      expect(await display.getByTestId('customer-amount').innerText()).toMatch(/USD 24\.68/)
      expect(await notInView(display, ['customer-amount', 'customer-message'])).toEqual([])
      await display.screenshot({ path: 'test-artifacts/e2e/customer-display-card.png' })

      await presentCard(page, 'chip-visa')
      const saleId = await waitForResult(page, 'approved')
      await message.filter({ hasText: 'Approved' }).waitFor()
      expect(await message.innerText()).toMatch(/Thank you/)
      await display.screenshot({ path: 'test-artifacts/e2e/customer-display-approved.png' })

      // Nothing a customer should not see: no card number (full or masked), no sale number, no cashier words.
      const text = await display.locator('body').innerText()
      expect(text).not.toMatch(/\*{3}|0010|476173/)
      expect(text).not.toContain(saleId)
      expect(text).not.toMatch(/Auth|Receipt|Cancel sale|Charge/)
      expect(await fullPansOnPage(display)).toEqual([])
      expect(errors).toEqual([])
      await newSale(page)
    } finally {
      await customer.close()
    }
  })
})
