/**
 * Returns a cashier can do, in Chromium against `pos-agent serve` in training mode, at 800x480,
 * 1024x768 and 1280x800: a sale from before the last close is found in its batch by its receipt
 * number and returned from the list; a return without a sale has its own screen, says its limits,
 * refuses more than the limit on screen, and credits within it once a manager approved. The training
 * host's ledger holds each credit once.
 */
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { goTo, newSale, presentCard, sell } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { notInView } from './in-view'
import { addStaff, signInIfAsked } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const
const MANAGER = { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' } as const
const CASHIER = { operatorId: '17', name: 'Carl', role: 'cashier', pin: '1357' } as const

describe.skipIf(!e2eComponentsPresent())('returns of any batch, and without a sale', () => {
  const e2e = useE2E('returns-any-batch')

  it('a sale of a closed batch, found by its receipt number, is returned; a return without a sale within its limits', async () => {
    const { page, context } = e2e.cashier
    await page.setViewportSize(SIZES[0])
    await addStaff(context, e2e.serve, { ...MANAGER }, { ...CASHIER })
    await page.reload()
    await signInIfAsked(page, { ...CASHIER })
    const manager = async () => {
      await page.getByTestId('approval-dialog').waitFor()
      await page.keyboard.type(MANAGER.operatorId)
      await page.keyboard.press('Enter')
      await page.keyboard.type(MANAGER.pin)
      await page.keyboard.press('Enter')
    }

    const saleId = await sell(page, '4321', '43.21', 'approved')
    await newSale(page)
    await sell(page, '1111', '11.11', 'approved')
    await newSale(page)
    await goTo(page, 'close-of-day')
    await page.getByTestId('close-day-button').click()
    await page.getByTestId('close-confirm').getByRole('button', { name: 'Close the day' }).click()
    await manager()
    await page.getByTestId('close-notice').filter({ hasText: 'Batch 1 closed.' }).waitFor()

    // The closed batch, and in it the sale by the last digits of its receipt's transaction number.
    await goTo(page, 'transactions')
    await page.getByTestId('find-sale').click()
    await page.getByTestId('search-where').selectOption('batch-1')
    await page.getByTestId('search-receipt').fill(saleId.split('-').pop()!.replace(/^0+/, ''))
    await page.getByTestId('search-button').click()
    await expect.poll(() => page.locator('[data-testid^="sale-row-"]').count()).toBe(1)
    await page.getByTestId(`sale-row-${saleId}`).waitFor()
    await screenshot(page, 'returns-any-batch-found-800x480')
    await page.getByTestId(`return-${saleId}`).click()
    const panel = page.getByTestId('return-panel')
    await panel.getByRole('heading', { name: 'Return on the sale of USD 43.21' }).waitFor()
    await panel.getByTestId('return-amount').focus()
    await page.keyboard.type('300')
    await page.keyboard.press('Enter')
    await page.getByTestId('approval-fact-Amount').filter({ hasText: 'USD 3.00' }).waitFor()
    await manager()
    await panel.getByTestId('test-card-picker').waitFor()
    await presentCard(page, 'chip-visa', panel)
    await panel.getByRole('status', { name: 'Return status' }).filter({ hasText: 'Returned: USD 3.00' }).waitFor({ timeout: 20_000 })
    await panel.getByTestId('return-done-button').click()
    await panel.waitFor({ state: 'detached' })

    // A return without a sale: its own screen, with its limits.
    await page.getByTestId('return-without-sale').click()
    await panel.getByRole('heading', { name: 'Return without a sale' }).waitFor()
    expect(await panel.getByTestId('return-limits').innerText()).toContain(
      'Limits: at most USD 100.00 at once, USD 100.00 to one card a day, USD 500.00 a day in all.',
    )
    expect(await axeViolations(page)).toEqual([])
    for (const size of SIZES) {
      await page.setViewportSize(size)
      expect(await notInView(page, ['return-limits', 'return-amount', 'return-start-button'])).toEqual([])
      await screenshot(page, `returns-without-sale-${size.width}x${size.height}`)
    }
    await page.setViewportSize(SIZES[0])
    await panel.getByTestId('return-amount').focus()
    await page.keyboard.type('15000')
    await page.keyboard.press('Enter')
    await panel.getByRole('alert').filter({ hasText: 'A return without a sale credits at most USD 100.00 at once.' }).waitFor()
    await panel.getByTestId('return-amount').fill('')
    await page.keyboard.type('2000')
    await page.keyboard.press('Enter')
    await page.getByTestId('approval-words').filter({ hasText: 'A return of USD 20.00 without a sale' }).waitFor()
    await manager()
    await panel.getByTestId('test-card-picker').waitFor()
    await presentCard(page, 'chip-visa', panel)
    await panel.getByRole('status', { name: 'Return status' }).filter({ hasText: 'Returned: USD 20.00' }).waitFor({ timeout: 20_000 })
    await screenshot(page, 'returns-without-sale-done-800x480')
    await panel.getByTestId('return-done-button').click()

    const credits = (await e2e.serve.host.ledger()).entries.filter((entry) => entry.operation === 'merchandiseCredit')
    expect(credits.map((c) => c.amount)).toEqual([
      { currency: 'USD', value: '3.00' },
      { currency: 'USD', value: '20.00' },
    ])
    // Three refusals the scenario asked for: the close, the return and the return without a sale, each before a manager approved (403).
    const refusals = e2e.cashier.consoleErrors.splice(0)
    expect(refusals).toEqual([
      expect.stringMatching(/status of 403/),
      expect.stringMatching(/status of 403/),
      expect.stringMatching(/status of 403/),
    ])
  }, 180_000)
})
