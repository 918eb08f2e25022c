/**
 * Finding a sale on the transactions screen, in Chromium against `pos-agent serve` in training mode,
 * on the smallest countertop display (800x480): by the card's last four digits, by the amount keyed as
 * at the counter, and in a closed batch picked from the list; axe finds nothing, no internal word shows,
 * and the search form is on screen.
 */
import { describe, expect, it } from 'vitest'
import { goTo, newSale, sell } from './cashier'
import { axeViolations } from './axe'
import { e2eComponentsPresent, screenshot } from './harness'
import { notInView, pageScrolls } from './in-view'
import { internalWords } from './plain-words'
import { posValue } from './pos-api'
import { useE2E } from './suite'

describe.skipIf(!e2eComponentsPresent())('finding sales in the browser', () => {
  const e2e = useE2E('sales-search')

  it('finds sales by last four and by amount, in the open batch and in a closed one', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize({ width: 800, height: 480 })
    // Batch 1: a Visa sale of 12.50, closed. Then, in the open batch: a tapped Mastercard of 12.50 and a Visa of 30.00.
    const closedVisa = await sell(page, '1250', '12.50', 'approved', 'chip-visa')
    await newSale(page)
    const closed = await posValue(e2e.serve, 'closeDay', {})
    expect(closed.batch.closedAt).toBeDefined()
    const tapped = await sell(page, '1250', '12.50', 'approved', 'contactless-mastercard')
    await newSale(page)
    const visa = await sell(page, '3000', '30.00', 'approved', 'chip-visa')
    await newSale(page)

    await goTo(page, 'transactions')
    await page.getByTestId('find-sale').click()
    const form = page.getByRole('search', { name: 'Find sales' })
    await page.getByTestId(`sale-row-${visa}`).waitFor()
    expect(await notInView(page, ['search-where', 'search-amount', 'search-last4', 'search-reference', 'search-button'])).toEqual([])
    expect((await pageScrolls(page)).horizontal).toBe(false)
    const rows = () => page.locator('[data-testid^="sale-row-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')))

    // By the card's last four digits: the Visa of the open batch only.
    await form.getByLabel('Card ends in').pressSequentially('0010')
    await form.getByLabel('Card ends in').press('Enter')
    await expect.poll(rows).toEqual([`sale-row-${visa}`])
    // The card's last four digits on the row (at 800 px only those, after the brand: the row stays one line high).
    expect(await page.getByTestId(`sale-row-${visa}`).innerText()).toMatch(/VISA (476173\*{6})?0010\b/)

    // By the amount, keyed as at the counter (1 2 5 0 is 12.50): the tapped Mastercard.
    await form.getByLabel('Card ends in').fill('')
    await form.getByLabel('Amount (USD)').pressSequentially('1250')
    expect(await form.getByLabel('Amount (USD)').inputValue()).toBe('12.50')
    await form.getByRole('button', { name: 'Search' }).click()
    await expect.poll(rows).toEqual([`sale-row-${tapped}`])
    await screenshot(page, 'sales-search-amount-800x480')
    expect(await axeViolations(page)).toEqual([])
    expect(await internalWords(page)).toEqual([])

    // The same amount in the closed batch: the Visa sale closed with it, which can no longer be voided.
    await form.getByLabel('Show').selectOption({
      label: (
        await form
          .getByLabel('Show')
          .locator('option', { hasText: /^Batch 1, closed/ })
          .innerText()
      ).trim(),
    })
    await expect.poll(rows).toEqual([`sale-row-${closedVisa}`])
    expect(await page.locator(`[data-testid="void-${closedVisa}"]`).count()).toBe(0)
    // Nothing in it ends in 0434.
    await form.getByLabel('Card ends in').pressSequentially('0434')
    await form.getByLabel('Card ends in').press('Enter')
    await expect.poll(rows).toEqual([])
    await page.getByText('No sales match the search.').waitFor()
    await screenshot(page, 'sales-search-closed-batch-800x480')
    expect(await axeViolations(page)).toEqual([])
    expect(await internalWords(page)).toEqual([])

    // Clear: back to everything since the last close.
    await form.getByRole('button', { name: 'Clear' }).click()
    await expect.poll(rows).toEqual([`sale-row-${visa}`, `sale-row-${tapped}`])
  })
})
