/**
 * Accessibility in Chromium against `pos-agent serve` in training mode: axe-core finds nothing on any
 * screen, dialog or size (the sale at each stage, the receipt, transactions and the void, tips, close
 * of day, queue, device, settings, the folded menu, the customer display); and a whole sale, a void
 * and a tip are done with the keyboard alone, dialogs keeping the focus and giving it back.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { goTo, keyAmount, newSale, presentCard, salePrompt, waitForResult } from './cashier'
import { axeViolations } from './axe'
import { e2eComponentsPresent, screenshot } from './harness'
import { internalWords } from './plain-words'
import { useE2E } from './suite'

/** The test id of the focused element (or its tag when it has none). */
function focused(page: Page): Promise<string> {
  return page.evaluate(
    `(() => { const el = document.activeElement; return el ? (el.getAttribute('data-testid') || el.tagName.toLowerCase()) : 'none' })()`,
  )
}

/** Presses Tab until the element with this test id has the focus, as a keyboard user would. */
async function tabTo(page: Page, testId: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)) === testId) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${testId} (focus on ${await focused(page)})`)
}

async function focusInside(page: Page, testId: string): Promise<boolean> {
  return page.evaluate(`!!document.activeElement?.closest('[data-testid="${testId}"]')`)
}

describe.skipIf(!e2eComponentsPresent())('accessibility and the keyboard', () => {
  const e2e = useE2E('keyboard-a11y')

  it('axe-core reports no violation, and no internal word shows, on any screen, dialog or size', async () => {
    const { page } = e2e.cashier
    const seen: Record<string, string[]> = {}
    // Each screen is also read for internal words (states, codes, "host") that must not reach a cashier.
    const check = async (name: string) => {
      seen[name] = [...(await axeViolations(page)), ...(await internalWords(page)).map((word) => `internal word ${word}`)]
    }

    await check('sale, idle')
    await keyAmount(page, '1357', '13.57')
    await page.getByTestId('charge-button').click()
    await salePrompt(page).filter({ hasText: 'Insert, tap or swipe' }).waitFor()
    await check('sale, card asked for')
    await presentCard(page, 'chip-visa')
    const saleId = await waitForResult(page, 'approved')
    await check('sale, approved')
    await page.getByTestId('show-receipt-button').click()
    await page.getByTestId('receipt').waitFor()
    await check('receipt')
    await page.keyboard.press('Escape')
    await page.getByTestId('receipt').waitFor({ state: 'detached' })
    await newSale(page)

    await keyAmount(page, '2051', '20.51')
    await presentCard(page, 'chip-visa')
    await page.getByTestId('charge-button').click()
    await waitForResult(page, 'declined')
    await check('sale, declined')
    await newSale(page)

    await goTo(page, 'transactions')
    await page.getByTestId(`sale-row-${saleId}`).waitFor()
    await check('transactions')
    await page.getByTestId(`void-${saleId}`).click()
    await page.getByTestId('void-confirm-dialog').waitFor()
    await check('void, confirm')
    await page.getByTestId('void-confirm-dialog').getByRole('button', { name: 'Void sale' }).click()
    await page
      .getByRole('status', { name: 'Void status' })
      .filter({ hasText: /present the card|Insert, tap/i })
      .waitFor()
    await check('void, card asked for')
    await presentCard(page, 'chip-visa', page.getByTestId('void-panel'))
    await page.getByRole('status', { name: 'Void status' }).filter({ hasText: 'Voided' }).waitFor({ timeout: 20_000 })
    await check('void, done')
    await page.getByTestId('void-panel').getByRole('button', { name: 'Done' }).click()

    for (const screen of ['tips', 'close-of-day', 'queue', 'device', 'settings'] as const) {
      await goTo(page, screen)
      await page.waitForTimeout(300)
      await check(screen)
    }
    await goTo(page, 'close-of-day')
    await page.getByTestId('day-counts').waitFor()

    await page.setViewportSize({ width: 800, height: 480 })
    await goTo(page, 'sale')
    await check('sale, 800x480')
    await page.getByTestId('nav-menu').click()
    await check('menu open, 800x480')
    await page.keyboard.press('Escape')

    const display = await page.context().newPage()
    await display.goto(`${e2e.serve.uiUrl}/customer`)
    await display.getByTestId('customer-message').waitFor()
    seen['customer display'] = [...(await axeViolations(display)), ...(await internalWords(display))]
    await display.close()

    const found = Object.entries(seen).filter(([, violations]) => violations.length > 0)
    expect(found, found.map(([name, v]) => `${name}:\n  ${v.join('\n  ')}`).join('\n')).toEqual([])
    expect(Object.keys(seen)).toHaveLength(17)
  })

  it('a whole sale, its receipt, a void and a tip with the keyboard alone', async () => {
    const { page } = e2e.cashier
    // The amount field has the focus when the screen opens.
    expect(await focused(page)).toBe('amount-input')

    // A sale: type the amount with a decimal point, let the customer hold out a card, Enter charges.
    await page.keyboard.type('45.6')
    expect(await page.getByTestId('amount-input').inputValue()).toBe('45.6')
    // The on-screen keypad is for touch: Tab goes from the amount straight to Charge.
    await page.keyboard.press('Tab')
    expect(await focused(page)).toBe('charge-button')
    await tabTo(page, 'present-test-card')
    await page.keyboard.press('Enter')
    await page.getByTestId('test-card-notice').waitFor()
    // The focus went back to the amount: Enter charges now, it does not present the card again.
    expect(await focused(page)).toBe('amount-input')
    await page.keyboard.press('Enter')
    const voidId = await waitForResult(page, 'approved')
    expect(await page.getByTestId('sale-result').innerText()).toContain('USD 45.60')

    // Its receipt: the dialog keeps the focus; a typed digit does not reach the amount behind it.
    await tabTo(page, 'show-receipt-button')
    await page.keyboard.press('Enter')
    await page.getByTestId('receipt').waitFor()
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      expect(await focusInside(page, 'receipt')).toBe(true)
    }
    await page.keyboard.press('9')
    await page.keyboard.press('Escape')
    await page.getByTestId('receipt').waitFor({ state: 'detached' })
    expect(await focused(page)).toBe('show-receipt-button')
    expect(await page.getByTestId('amount-input').inputValue()).toBe('45.60')

    // Enter after a result starts the next sale.
    await tabTo(page, 'amount-input')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('amount-input').inputValue()).toBe('')

    // A second sale, to tip, above the terminal's confirmation amount: Enter asks first.
    await page.keyboard.type('1500.5')
    expect(await page.getByTestId('amount-input').inputValue()).toBe('1,500.5')
    await tabTo(page, 'present-test-card')
    await page.keyboard.press('Enter')
    await page.getByTestId('test-card-notice').waitFor()
    await page.keyboard.press('Enter')
    const question = page.getByRole('alertdialog', { name: 'Charge USD 1,500.50?' })
    await question.waitFor()
    expect(await page.evaluate('document.activeElement.textContent')).toBe('No, change the amount')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    const tipId = await waitForResult(page, 'approved')
    expect(await page.getByTestId('sale-result').innerText()).toContain('USD 1,500.50')
    await page.keyboard.press('Enter')

    // The void: to Transactions, Void on the row, confirm, the customer presents the card again.
    await tabTo(page, 'nav-transactions')
    await page.keyboard.press('Enter')
    await page.getByTestId(`sale-row-${voidId}`).waitFor()
    await tabTo(page, `void-${voidId}`)
    await page.keyboard.press('Enter')
    await page.getByTestId('void-confirm-dialog').waitFor()
    // The safe answer has the focus: Tab to the other, Enter.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Keep the sale')
    await page.keyboard.press('Tab')
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Void sale')
    await page.keyboard.press('Enter')
    const voidPanel = page.getByTestId('void-panel')
    await voidPanel.waitFor()
    expect(await focusInside(page, 'void-panel')).toBe(true)
    await tabTo(page, 'present-test-card')
    expect(await focusInside(page, 'void-panel')).toBe(true)
    await page.keyboard.press('Enter')
    await page.getByRole('status', { name: 'Void status' }).filter({ hasText: 'Voided' }).waitFor({ timeout: 20_000 })
    await page.keyboard.press('Tab')
    await tabTo(page, 'void-done-button')
    await page.keyboard.press('Enter')
    await voidPanel.waitFor({ state: 'detached' })
    expect(await page.getByTestId(`sale-row-${voidId}`).innerText()).toContain('Voided')
    // The focus came back to the page, not lost on the body.
    expect(await focused(page)).not.toBe('body')

    // The tip: to Tips, type it, Enter sends it.
    await tabTo(page, 'nav-tips')
    await page.keyboard.press('Enter')
    await page.getByTestId(`tip-input-${tipId}`).waitFor()
    await tabTo(page, `tip-input-${tipId}`)
    await page.keyboard.type('2.50')
    await page.keyboard.press('Enter')
    await page
      .getByTestId(`tip-row-${tipId}`)
      .filter({ hasText: /Tip saved|Tip sent/ })
      .waitFor()
    await screenshot(page, 'keyboard-tip-saved')
  })
})
