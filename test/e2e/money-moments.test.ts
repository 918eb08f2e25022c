/**
 * The counter at the moments money moves, in Chromium against `pos-agent serve` in training mode, at
 * 800x480, 1024x768 and 1280x800:
 * - a return approved by a manager, keypad only: the amount starts empty (what is left is a button),
 *   the approval dialog shows the amount, the card and the sale in the words the audit trail keeps,
 *   Enter after the manager's number goes on to the PIN and no field shows the PIN;
 * - the customer display during that return says "Refund … to your card" and "Refunded", never
 *   "Total" or "Payment not completed"; a void reads as a cancellation;
 * - a close of day with a payment still stored on the terminal: its amount apart from the net the
 *   bank confirmed, the close asked with those amounts, the closed report stating the facts at its
 *   close and, after the payment was sent, what happened since;
 * - Charge at least 12 px from the keys.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { goTo, keyAmount, newSale, presentCard, sell } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { notInView } from './in-view'
import { posValue } from './pos-api'
import { CASHIER, MANAGER, signedInWithStaff, signInIfAsked } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

/** The customer display's whole text, one line. */
async function displayText(display: Page): Promise<string> {
  return (await display.getByTestId('customer-display').innerText()).replace(/\s+/g, ' ')
}

describe.skipIf(!e2eComponentsPresent())('money at the counter', () => {
  const e2e = useE2E('money-moments')
  let staffAdded = false

  async function asCashier(page: Page): Promise<void> {
    if (!staffAdded) {
      await signedInWithStaff(e2e, CASHIER)
      staffAdded = true
    }
    await signInIfAsked(page, CASHIER)
  }

  it('a return: empty amount, approval shows amount, card and sale as audited, keypad PIN never in clear; the customer reads a refund', async () => {
    const { page, context } = e2e.cashier
    await page.setViewportSize(SIZES[0])
    await asCashier(page)
    const display = await (await e2e.browser.newContext({ viewport: { width: 800, height: 480 } })).newPage()
    try {
      await display.goto(await e2e.serve.launchUrl('customer'))
      await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
      const saleId = await sell(page, '1500', '15.00', 'approved')
      await newSale(page)
      const sale = await posValue(e2e.serve, 'getSale', { id: saleId })
      const card = `${sale.brand} ${sale.maskedPan}`
      expect(sale.maskedPan).toMatch(/\d{4}$/)

      await goTo(page, 'transactions')
      await page.getByTestId(`return-${saleId}`).click()
      const panel = page.getByTestId('return-panel')
      await panel.waitFor()
      // Nothing is filled in: a hurried Enter asks for nothing. What is left is one press away.
      expect(await panel.getByTestId('return-amount').inputValue()).toBe('')
      expect(await panel.getByTestId('return-all-left').innerText()).toBe('All that is left: USD 15.00')
      await page.keyboard.press('Enter')
      await panel.getByRole('alert').filter({ hasText: 'Enter the amount to return.' }).waitFor()
      await screenshot(page, 'money-return-empty-800x480')
      // Keypad only: digits into the amount, Enter.
      await panel.getByTestId('return-amount').focus()
      await page.keyboard.type('500')
      expect(await panel.getByTestId('return-amount').inputValue()).toBe('5.00')
      await page.keyboard.press('Enter')

      const dialog = page.getByTestId('approval-dialog')
      await dialog.waitFor()
      const words = `A return of USD 5.00 to ${card}`
      await dialog.getByTestId('approval-words').filter({ hasText: words }).waitFor()
      expect(await dialog.getByTestId('approval-fact-Amount').innerText()).toBe('USD 5.00')
      expect(await dialog.getByTestId('approval-fact-Card').innerText()).toBe(card)
      expect(await dialog.getByTestId('approval-fact-From the sale').innerText()).toMatch(/^USD 15\.00 at \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
      expect(await dialog.getByTestId('approval-fact-Left to return on it').innerText()).toBe('USD 15.00')
      // The manager, keypad style: number, Enter, PIN. The PIN lands in the PIN field only, hidden.
      await page.keyboard.type(MANAGER.operatorId)
      await page.keyboard.press('Enter')
      await page.keyboard.type(MANAGER.pin)
      expect(await page.getByTestId('approval-operator-input').inputValue()).toBe(MANAGER.operatorId)
      expect(await page.getByTestId('approval-pin-input').inputValue()).toBe(MANAGER.pin)
      expect(await page.getByTestId('approval-pin-input').getAttribute('type')).toBe('password')
      expect(await page.locator('body').innerText()).not.toContain(MANAGER.pin)
      for (const size of SIZES) {
        await page.setViewportSize(size)
        for (const id of ['approval-words', 'approval-fact-Amount', 'approval-fact-Card', 'approve-button'])
          await page.getByTestId(id).scrollIntoViewIfNeeded()
        expect(await notInView(page, ['approval-fact-Amount', 'approval-fact-Card', 'approve-button'])).toEqual([])
        expect(await axeViolations(page)).toEqual([])
        await screenshot(page, `money-approval-return-${size.width}x${size.height}`)
      }
      await page.setViewportSize(SIZES[0])
      await page.getByTestId('approval-pin-input').focus()
      await page.keyboard.press('Enter')

      // The customer is asked for the card for a refund, never to pay.
      await panel.getByTestId('test-card-picker').waitFor()
      await expect.poll(() => displayText(display)).toContain('Refund USD 5.00 to your card')
      expect(await displayText(display)).not.toContain('Total')
      await screenshot(display, 'money-customer-refund-present')
      await presentCard(page, 'chip-visa', panel)
      await panel.getByRole('status', { name: 'Return status' }).filter({ hasText: 'Returned' }).waitFor({ timeout: 20_000 })
      await display.getByTestId('customer-message').filter({ hasText: 'Refunded' }).waitFor()
      const after = await displayText(display)
      expect(after).not.toContain('Total')
      expect(after).not.toContain('not completed')
      expect(await display.getByTestId('customer-display').getAttribute('class')).toContain('tone-ok')
      await screenshot(display, 'money-customer-refunded')
      await panel.getByTestId('return-done-button').click()

      // The audit trail keeps the approval in the words the manager read.
      // A POS asks a manager's approval as a proof for this very request (a raw PIN counts only at the counter).
      const proof = await posValue(e2e.serve, 'approve', {
        operation: 'auditTrail',
        request: {},
        operatorId: MANAGER.operatorId,
        pin: MANAGER.pin,
      })
      const audit = await posValue(e2e.serve, 'auditTrail', { approval: proof.approval })
      const approvals = audit.records.filter((r) => r.action === 'approval' && r.subject === 'startReturn' && r.ok)
      expect(approvals).toHaveLength(1)
      expect(approvals[0]!.detail).toContain(words)
      expect(approvals[0]!.detail).toContain('Amount: USD 5.00')
      expect(approvals[0]!.detail).toContain(`Card: ${card}`)

      // A void reads as a cancellation on the customer display.
      await goTo(page, 'sale')
      const second = await sell(page, '2345', '23.45', 'approved')
      await newSale(page)
      await goTo(page, 'transactions')
      await page.getByTestId(`void-${second}`).click()
      await page.getByTestId('void-confirm-dialog').getByRole('button', { name: 'Void sale' }).click()
      await expect.poll(() => displayText(display)).toContain('Cancelling USD 23.45')
      const voiding = await displayText(display)
      expect(voiding).toContain('Present the same card to cancel this payment')
      expect(voiding).not.toContain('Total')
      await screenshot(display, 'money-customer-void-present')
      const voidPanel = page.getByTestId('void-panel')
      await presentCard(page, 'chip-visa', voidPanel)
      await display.getByTestId('customer-message').filter({ hasText: 'Payment cancelled' }).waitFor({ timeout: 20_000 })
      expect(await displayText(display)).not.toContain('Total')
      await page.keyboard.press('Escape')
      // The return's first try was refused for want of a manager (403): the refusal the scenario asked for.
      const refusals = e2e.cashier.consoleErrors.splice(0)
      expect(refusals).toEqual([expect.stringMatching(/status of 403/)])
      void context
    } finally {
      await display.context().close()
    }
  }, 120_000)

  it('close of day: the stored payment in amounts apart from the net, the close asked with them, the closed report then and since', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize(SIZES[0])
    await asCashier(page)
    await e2e.serve.host.setFault('*', 'http-503')
    await sell(page, '6789', '67.89', 'storedOffline')
    await newSale(page)

    await goTo(page, 'close-of-day')
    const stored = page.getByTestId('money-stored')
    await stored.waitFor()
    expect(await stored.locator('dd').innerText()).toBe('USD 67.89 (1 payment)')
    const report = await posValue(e2e.serve, 'dayReport', {})
    expect(report.storedMinor).toEqual({ USD: 6789 })
    expect(report.confirmedNetMinor.USD).toBe((report.grandTotalMinor.USD ?? 0) - 6789)
    const net = page.getByTestId('day-money-USD').locator('.day-net')
    expect(await net.innerText()).toBe(money(report.confirmedNetMinor.USD!))
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await page.getByTestId('money-stored-amount').scrollIntoViewIfNeeded()
      expect(await notInView(page, ['money-stored-amount'])).toEqual([])
      await screenshot(page, `money-close-open-${size.width}x${size.height}`)
    }
    await page.setViewportSize(SIZES[0])

    await page.getByTestId('close-day-button').click()
    const confirm = page.getByTestId('close-confirm')
    await confirm.waitFor()
    expect(await confirm.getByTestId('close-stored').locator('dd').innerText()).toBe('USD 67.89 (1 payment)')
    expect(await confirm.getByTestId('close-net').locator('dd').innerText()).toBe(money(report.confirmedNetMinor.USD!))
    expect(await confirm.getByTestId('close-stored-warning').innerText()).toContain('1 payment is not at the bank yet')
    expect(await axeViolations(page)).toEqual([])
    await screenshot(page, 'money-close-confirm-800x480')
    await confirm.getByRole('button', { name: 'Close the day' }).click()

    // The manager approves the close reading the same amounts.
    const dialog = page.getByTestId('approval-dialog')
    await dialog.waitFor()
    expect(await dialog.getByTestId('approval-fact-Not at the bank yet (1)').innerText()).toBe('USD 67.89')
    expect(await dialog.getByTestId('approval-fact-Net confirmed by the bank').innerText()).toBe(money(report.confirmedNetMinor.USD!))
    await screenshot(page, 'money-close-approval-800x480')
    await page.keyboard.type(MANAGER.operatorId)
    await page.keyboard.press('Enter')
    await page.keyboard.type(MANAGER.pin)
    await page.keyboard.press('Enter')
    await page
      .getByTestId('close-notice')
      .filter({ hasText: /closed/ })
      .waitFor()

    // Closed: the facts at its close, in the past.
    const atClose = page.getByTestId('money-stored')
    await expect.poll(() => atClose.locator('dt').innerText()).toBe('At the close, still on this terminal, not at the bank yet')
    expect(await atClose.locator('dd').innerText()).toBe('USD 67.89 (1 payment)')
    expect(await page.getByTestId('money-now-stored').locator('dd').innerText()).toBe('USD 67.89 (1 payment)')

    // The bank is back and takes the payment: the closed report says so, and keeps what was at its close.
    await e2e.serve.host.clearFaults()
    await posValue(e2e.serve, 'forwardNow', {})
    await expect
      .poll(async () => (await posValue(e2e.serve, 'listSales', { amountMinor: 6789, batch: report.batch.number })).map((s) => s.state))
      .toEqual(['forwarded'])
    await page.getByRole('button', { name: 'Refresh report' }).click()
    await expect.poll(() => page.getByTestId('money-now-stored').locator('dd').innerText()).toBe('nothing: everything was sent')
    expect(await atClose.locator('dd').innerText()).toBe('USD 67.89 (1 payment)')
    expect(await page.locator('body').innerText()).not.toContain('still stored on this terminal')
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await page.getByTestId('money-now-stored-amount').scrollIntoViewIfNeeded()
      expect(await notInView(page, ['money-stored-amount', 'money-now-stored-amount'])).toEqual([])
      await screenshot(page, `money-close-closed-${size.width}x${size.height}`)
    }
    const refusals = e2e.cashier.consoleErrors.splice(0)
    expect(refusals).toEqual([expect.stringMatching(/status of 403/)])
  }, 120_000)

  it('Charge is at least 12 px below the keys, with the keys at least 44 px, at every size', async () => {
    const { page } = e2e.cashier
    await asCashier(page)
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await keyAmount(page, '1200', '12.00')
      const keys = await page.locator('.keypad .key').evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect()
          return { bottom: r.bottom, height: r.height }
        }),
      )
      const charge = (await page.getByTestId('charge-button').boundingBox())!
      const lowest = Math.max(...keys.map((k) => k.bottom))
      expect(charge.y - lowest, `${size.width}x${size.height}`).toBeGreaterThanOrEqual(12)
      expect(Math.min(...keys.map((k) => k.height))).toBeGreaterThanOrEqual(44)
      expect(await notInView(page, ['charge-button', 'key-0', 'key-00'])).toEqual([])
      await screenshot(page, `money-charge-gap-${size.width}x${size.height}`)
      await page.getByTestId('key-clear').click()
    }
  })
})

function money(minor: number): string {
  const sign = minor < 0 ? '-' : ''
  const text = (Math.abs(minor) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${sign}USD ${text}`
}
