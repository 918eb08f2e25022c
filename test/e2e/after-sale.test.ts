/**
 * After the sale, in Chromium against `pos-agent serve` in training mode: void of an approved sale
 * (the customer presents the card again), tip adjustment with the tolerance warning, and close of
 * day with its totals. The tests share one agent and run in order; close of day comes last.
 */
import { describe, expect, it } from 'vitest'
import { goTo, newSale, presentCard, rowStatus, sell } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { useE2E } from './suite'

describe.skipIf(!e2eComponentsPresent())('void, tips and close of day in the browser', () => {
  const e2e = useE2E('after-sale')
  const ids: { voided?: string; tipped?: string } = {}

  it('voids an approved sale when the customer presents the card again', async () => {
    const { page } = e2e.cashier
    const saleId = await sell(page, '4000', '40.00', 'approved')
    ids.voided = saleId
    await newSale(page)
    // The customer holds out the same card for the void (picked on the sale screen, read at the void's card prompt).
    await presentCard(page, 'chip-visa')

    await goTo(page, 'transactions')
    await expect.poll(() => rowStatus(page, saleId).innerText()).toBe('Approved')
    await page.getByTestId(`void-${saleId}`).click()
    const dialog = page.getByTestId('void-confirm-dialog')
    await dialog.waitFor()
    expect(await dialog.innerText()).toMatch(/Void USD 40\.00\?/)
    expect(await dialog.innerText()).toMatch(/presents the same card again/)
    await screenshot(page, 'void-confirm')
    await dialog.getByRole('button', { name: 'Void sale' }).click()

    const voidPrompt = page.getByRole('status', { name: 'Void status' })
    await voidPrompt.filter({ hasText: 'Voided' }).waitFor({ timeout: 20_000 })
    await expect.poll(() => rowStatus(page, saleId).innerText(), { timeout: 10_000 }).toBe('Voided')
    expect(await page.locator(`[data-testid="void-${saleId}"]`).count()).toBe(0)
    await screenshot(page, 'void-done')
    await page.getByTestId('void-panel').getByRole('button', { name: 'Done' }).click()
    await page.getByTestId('void-panel').waitFor({ state: 'detached' })

    const ledger = await e2e.serve.host.ledger()
    const operations = ledger.entries
      .filter((e) => e.merchantTransID === saleId || e.originalMerchantTransID === saleId)
      .map((e) => e.operation)
    expect(operations).toEqual(['payment', 'cancel'])
    expect(ledger.payments.find((p) => p.merchantTransID === saleId)?.status).toMatch(/Cancel|Void/i)
  })

  it('adjusts the tip of an approved sale, warning above the tolerance', async () => {
    const { page } = e2e.cashier
    const saleId = await sell(page, '5000', '50.00', 'approved')
    ids.tipped = saleId
    await newSale(page)

    await goTo(page, 'tips')
    const input = page.getByTestId(`tip-input-${saleId}`)
    await input.waitFor()
    // The voided sale is no longer a payment one can tip.
    if (ids.voided) expect(await page.locator(`[data-testid="tip-input-${ids.voided}"]`).count()).toBe(0)

    // 20 % of 50.00 is 10.00: 12.00 must be allowed (by a manager, or on this terminal without staff by a deliberate tick).
    await input.fill('12.00')
    await page
      .getByTestId(`tip-warning-${saleId}`)
      .filter({ hasText: /above the limit/i })
      .waitFor()
    expect(await page.getByTestId('submit-tips-button').isDisabled()).toBe(true)
    await screenshot(page, 'tips-over-tolerance')

    await input.fill('7.50')
    await page.getByTestId(`tip-warning-${saleId}`).waitFor({ state: 'detached' })
    await expect.poll(() => page.getByTestId('tip-total-USD').innerText()).toMatch(/Tips USD 7\.50/)
    expect(await page.getByTestId('tip-total-USD').innerText()).toMatch(/With tips USD 57\.50/)
    await page.getByTestId('submit-tips-button').click()
    await page
      .getByTestId(`tip-row-${saleId}`)
      .filter({ hasText: /Tip saved|Tip sent/ })
      .waitFor()
    await expect
      .poll(async () => (await e2e.serve.host.ledger()).payments.find((p) => p.merchantTransID === saleId)?.tipAmount, {
        timeout: 10_000,
        interval: 250,
      })
      .toEqual({ currency: 'USD', value: '7.50' })
    await screenshot(page, 'tips-saved')

    await goTo(page, 'transactions')
    await expect.poll(() => page.getByTestId(`sale-row-${saleId}`).innerText()).toContain('USD 7.50')
  })

  it('closes the day with counts and totals per brand', async () => {
    const { page } = e2e.cashier
    await goTo(page, 'close-of-day')
    const totals = page.getByTestId('day-totals')
    await totals.waitFor()
    expect(await page.locator('[data-testid="close-blocked-reason"]').count()).toBe(0)

    const counts = await page.getByTestId('day-counts').innerText()
    expect(counts).toMatch(/Approved\s+1\b/)
    expect(counts).toMatch(/Voided\s+1\b/)
    expect(counts).toMatch(/Declined\s+0\b/)
    // One standing Visa payment: 50.00 with a 7.50 tip (the voided 40.00 is not in the totals).
    const visa = totals.locator('tbody tr').filter({ hasText: /VISA/i })
    expect(await visa.count()).toBe(1)
    const cells = await visa.locator('td').allInnerTexts()
    expect(cells).toEqual([expect.stringMatching(/visa/i), 'USD', '1', 'USD 50.00', 'USD 7.50'])
    expect(await page.getByTestId('day-tips').innerText()).toContain('USD 7.50')
    await screenshot(page, 'close-of-day-report')

    await page.getByTestId('close-day-button').click()
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Close the day' }).click()
    await page
      .getByTestId('close-notice')
      .filter({ hasText: /closed/ })
      .waitFor()
    expect(await page.getByTestId('close-notice').innerText()).toMatch(/^(Batch \d+|Business day \d{4}-\d{2}-\d{2}) closed\.$/)
    await screenshot(page, 'close-of-day-closed')
  })
})
