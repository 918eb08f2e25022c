/**
 * The screen tells the truth about money, in Chromium against `pos-agent serve` in training mode at
 * 800x480, 1024x768 and 1280x800, a day closed at each: a return and a tip keyed the sale's way,
 * the result saying how much was returned and the list what is left (no Void on a partly returned
 * sale); a tip approved over the limit stays approved; a second try after a reversed first one is
 * told to charge again; "Send now" says what it did; an alarm ends when the manager handles it; the
 * bank badge follows an online approval; the day report shows returns and the net, the agent's own;
 * a successful close is not called blocked. Screenshots go to test-artifacts/e2e/money-*.png.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { goTo, newSale, presentCard, sell, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { internalWords } from './plain-words'
import { posValue } from './pos-api'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

const bankBadge = (page: Page) => page.locator('[data-status-item="bank"]').textContent()

describe.skipIf(!e2eComponentsPresent())('the money on screen is the money at the agent', () => {
  const e2e = useE2E('money')

  for (const [index, size] of SIZES.entries()) {
    const label = `${size.width}x${size.height}`
    /** An amount of this size's own (whole units moved on), so no sale looks like an earlier size's. */
    const own = (whole: number, cents: string) => `${whole + index}${cents}`
    const shown = (digits: string) => `${digits.slice(0, -2)}.${digits.slice(-2)}`

    it(`${label}: return, tip, reversal, queue, alarm, day report and close each say what happened`, async () => {
      const { page } = e2e.cashier
      await page.setViewportSize(size)
      // Before the first sale the bank badge says nothing was tried yet, rather than nothing at all.
      if (index === 0) expect(await bankBadge(page)).toBe('Bank not tried yet')

      // A return keyed the sale's way: 1 0 0 0 is 10.00.
      const paid = `40${index}0`
      const saleId = await sell(page, paid, shown(paid), 'approved')
      expect(await bankBadge(page)).toBe('Bank online')
      await newSale(page)
      await goTo(page, 'transactions')
      await page.getByTestId(`return-${saleId}`).click()
      const panel = page.getByTestId('return-panel')
      await panel.getByTestId('return-amount').click()
      await page.keyboard.type('1000')
      expect(await panel.getByTestId('return-amount').inputValue()).toBe('10.00')
      await page.keyboard.press('Enter')
      // No staff on this terminal: the cashier confirms what the return credits before the card.
      await expect.poll(() => panel.getByTestId('return-confirm-what').innerText()).toContain('USD 10.00')
      await panel.getByTestId('return-confirm-button').click()
      await panel.getByTestId('test-card-picker').waitFor()
      await presentCard(page, 'chip-visa', panel)
      const prompt = panel.getByRole('status', { name: 'Return status' })
      await prompt.filter({ hasText: 'Returned: USD 10.00' }).waitFor({ timeout: 20_000 })
      await expect.poll(() => prompt.innerText()).toContain(`USD 30.${index}0 is left to return on the sale.`)
      await screenshot(page, `money-${label}-return-done`)
      await panel.getByTestId('return-done-button').click()
      // Partly returned: no Void (the agent would refuse it); Return offers what is really left.
      await expect.poll(() => page.getByTestId(`void-${saleId}`).count()).toBe(0)
      await page.getByTestId(`return-${saleId}`).click()
      expect(await panel.getByTestId('return-amount').inputValue()).toBe('')
      expect(await panel.getByTestId('return-all-left').innerText()).toBe(`All that is left: USD 30.${index}0`)
      await panel.getByRole('button', { name: 'Cancel' }).click()

      // A tip keyed the same way, over the limit with a manager's override: saved, and not asked again.
      await goTo(page, 'sale')
      const tipped = await sell(page, own(50, '00'), shown(own(50, '00')), 'approved')
      await newSale(page)
      await goTo(page, 'tips')
      const tip = page.getByTestId(`tip-input-${tipped}`)
      await tip.click()
      await page.keyboard.type('1200')
      expect(await tip.inputValue()).toBe('12.00')
      // No staff on this terminal: the override is asked about, then allowed.
      await page.getByTestId(`tip-warning-${tipped}`).filter({ hasText: 'Tick "Allow above the limit" to send it.' }).waitFor()
      await page.getByTestId(`tip-override-${tipped}`).click()
      await page.getByTestId('tip-allow-dialog').getByRole('button', { name: 'Allow this tip' }).click()
      await page.getByTestId('submit-tips-button').click()
      await page.getByTestId(`tip-row-${tipped}`).filter({ hasText: 'Tip saved' }).waitFor()
      const warning = page.getByTestId(`tip-warning-${tipped}`)
      expect(await warning.innerText()).toMatch(/Saved, allowed above the limit/)
      expect(await warning.getAttribute('class')).not.toContain('field-error')
      await screenshot(page, `money-${label}-tip-saved`)

      // The bank takes a payment and its answer is lost; the reversal waits. Charging again is what to do.
      await goTo(page, 'sale')
      await e2e.serve.host.setFault('payment', 'process-then-drop', 1)
      await e2e.serve.host.setFault('reversal', 'http-503')
      const lost = own(41, '41')
      await sell(page, lost, shown(lost), 'reversalPending')
      expect(await page.getByTestId('result-heading').innerText()).toBe('Not completed (being reversed)')
      expect(await page.getByRole('status', { name: 'Sale status' }).innerText()).toContain('Charge again to take the payment.')
      await page
        .getByTestId('charge-button')
        .filter({ hasText: `Charge USD ${shown(lost)} again` })
        .click()
      await presentCard(page, 'chip-visa')
      const duplicate = page.getByTestId('duplicate-dialog')
      await duplicate.waitFor()
      expect(await duplicate.getByRole('heading').innerText()).toBe('The first charge is being reversed — charge again')
      expect(await duplicate.innerText()).not.toMatch(/second purchase/)
      await screenshot(page, `money-${label}-charge-again`)
      // The words recommend charging again (the customer has not paid): Charge again has the focus, and Enter does it.
      await expect
        .poll(() => duplicate.getByRole('button', { name: 'Charge again' }).evaluate((el) => el === el.ownerDocument.activeElement))
        .toBe(true)
      await page.keyboard.press('Enter')
      await waitForResult(page, 'approved')
      expect(await page.getByTestId('amount-input').inputValue()).toBe(shown(lost))
      await newSale(page)
      await e2e.serve.host.clearFaults()

      // Send now: the reversal goes; then nothing waits, which is not "done" in green.
      await goTo(page, 'queue')
      await page.getByTestId('forward-now-button').click()
      await page.getByTestId('queue-notice').waitFor()
      await page.getByTestId('forward-now-button').click()
      await page.getByTestId('queue-notice').filter({ hasText: 'Nothing was waiting to be sent.' }).waitFor()
      expect(await page.getByTestId('queue-notice').getAttribute('class')).toContain('notice-info')

      // A payment stored offline that the bank declines once it is back: said in red, an alarm, which
      // ends when the manager has handled it, without a reload.
      await goTo(page, 'sale')
      await e2e.serve.host.setFault('*', 'http-503')
      const stored = await sell(page, own(25, '51'), shown(own(25, '51')), 'storedOffline')
      await newSale(page)
      await e2e.serve.host.clearFaults()
      await goTo(page, 'queue')
      await page.getByTestId('forward-now-button').click()
      const notice = page.getByTestId('queue-notice')
      await notice.filter({ hasText: 'The bank refused 1 message' }).waitFor()
      expect(await notice.getAttribute('class')).toContain('notice-error')
      // In the line on a small display, a banner on a large one.
      await page.getByTestId('alarms-banner').waitFor({ state: 'attached' })
      await screenshot(page, `money-${label}-stored-declined`)
      await page.getByTestId(`acknowledge-${stored}`).click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Acknowledge: money not received' }).click()
      await page.getByTestId('alarms-banner').waitFor({ state: 'detached' })
      expect(await page.getByTestId('alarms-banner').count()).toBe(0)

      // An online approval after the bank was away: the badge says online.
      await goTo(page, 'sale')
      await e2e.serve.host.setFault('*', 'http-503')
      await posValue(e2e.serve, 'forwardNow', {})
      await sell(page, own(17, '77'), shown(own(17, '77')), 'declined', 'swipe-magstripe')
      await expect.poll(() => bankBadge(page)).toBe('Bank offline')
      await newSale(page)
      await e2e.serve.host.clearFaults()
      await sell(page, own(12, '12'), shown(own(12, '12')), 'approved')
      expect(await bankBadge(page)).toBe('Bank online')
      await newSale(page)

      // The day report: what was charged, what returns gave back, and the net, the agent's own figure.
      const report = await posValue(e2e.serve, 'dayReport', {})
      const net = report.grandTotalMinor.USD!
      expect(report.returnsMinor.USD).toBe(1000)
      await goTo(page, 'close-of-day')
      const money = page.getByTestId('day-money-USD')
      await money.waitFor()
      const cells = await money.locator('td').allInnerTexts()
      const dollars = (minor: number) => `USD ${(minor / 100).toFixed(2)}`
      expect(cells).toEqual([dollars(net + 1000), 'USD 10.00', dollars(report.tipsMinor.USD ?? 0), dollars(report.confirmedNetMinor.USD!)])
      // Nothing is stored on the terminal here: the net the bank confirmed is the whole net.
      expect(report.confirmedNetMinor.USD).toBe(net)
      const counts = await page.getByTestId('day-counts').innerText()
      expect(counts).toMatch(/of these, approved offline/)
      expect(counts).toMatch(/Already counted in Approved/)
      expect(await internalWords(page)).toEqual([])
      await screenshot(page, `money-${label}-day-report`)

      // Closed: said once, in green; nothing calls the closed batch blocked.
      await page.getByTestId('close-day-button').click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Close the day' }).click()
      await page
        .getByTestId('close-notice')
        .filter({ hasText: `Batch ${index + 1} closed.` })
        .waitFor()
      expect(await page.getByTestId('close-blocked-reason').count()).toBe(0)
      expect(await page.getByRole('alert').count()).toBe(0)
      await screenshot(page, `money-${label}-closed`)
    }, 180_000)
  }
})
