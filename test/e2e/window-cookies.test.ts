/**
 * A cashier tab and a customer display in one browser, in Chromium against `pos-agent serve` in
 * training mode: each keeps its own session (its own cookie), so opening the display, from its link
 * or from Settings, never signs the cashier tab out or turns it into a display; both work side by
 * side through a sale and a reload of each.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { goTo, newSale, sell } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { posValue } from './pos-api'
import { useE2E } from './suite'

async function displayText(display: Page): Promise<string> {
  return (await display.getByTestId('customer-display').innerText()).replace(/\s+/g, ' ')
}

describe.skipIf(!e2eComponentsPresent())('a cashier tab and a customer display in one browser', () => {
  const e2e = useE2E('window-cookies')

  it('opening the customer display in the cashier browser leaves the cashier tab working; each has its own cookie', async () => {
    const { page, context } = e2e.cashier
    await page.setViewportSize({ width: 800, height: 480 })
    const display = await context.newPage()
    await display.setViewportSize({ width: 800, height: 480 })
    await display.goto(await e2e.serve.launchUrl('customer'))
    await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()

    const cookies = (await context.cookies()).map((c) => ({ name: c.name, path: c.path, httpOnly: c.httpOnly, sameSite: c.sameSite }))
    expect(cookies.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'pos_display', path: '/customer', httpOnly: true, sameSite: 'Strict' },
      { name: 'pos_session', path: '/', httpOnly: true, sameSite: 'Strict' },
    ])

    // The cashier tab still sells, and the display shows that sale.
    const saleId = await sell(page, '1234', '12.34', 'approved')
    await display.getByTestId('customer-message').filter({ hasText: 'Approved' }).waitFor()
    expect(await displayText(display)).toContain('Total USD 12.34')
    await newSale(page)
    // Reloaded, each is still what it was: the cashier's screens, the customer's display.
    await page.reload()
    await page.getByTestId('amount-input').waitFor()
    await goTo(page, 'transactions')
    await page.getByTestId(`sale-row-${saleId}`).waitFor()
    await display.reload()
    await display.getByTestId('customer-display').waitFor()
    expect(await display.getByTestId('nav-menu').count()).toBe(0)
    await screenshot(page, 'window-cookies-cashier-800x480')
    await screenshot(display, 'window-cookies-display-800x480')
    const windows = await posValue(e2e.serve, 'listWindows', {})
    expect(windows.map((w) => w.view).sort()).toEqual(['cashier', 'customer'])

    // A second display, opened from the cashier's Settings in this browser, takes the first one's
    // cookie (one display per browser), never the cashier's.
    await goTo(page, 'settings')
    const [second] = await Promise.all([context.waitForEvent('page'), page.getByTestId('open-customer-display').click()])
    await second.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
    await goTo(page, 'sale')
    await sell(page, '500', '5.00', 'approved')
    await second.getByTestId('customer-message').filter({ hasText: 'Approved' }).waitFor()
    expect(e2e.cashier.consoleErrors).toEqual([])
  }, 120_000)
})
