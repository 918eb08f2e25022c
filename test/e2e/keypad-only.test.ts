/**
 * The counter with a keypad alone, in Chromium against `pos-agent serve` in training mode at 800x480,
 * 1024x768 and 1280x800:
 * digits, Enter, Escape and the four arrows, nothing else (no Tab, no Space, no mouse). A sale, a void,
 * a tip, a return, the close of day and a sign-in, each from start to end; after every key the focus is
 * on a control on screen, never lost on the page. Whenever the reader asks for a card the focus is on
 * the training picker's Present, and Enter holds out the card it shows (the simulated customer waits
 * for the trainee's pick).
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

const KEYPAD = /^(\d|Enter|Escape|ArrowUp|ArrowDown|ArrowLeft|ArrowRight)$/

/** Where the focus is: the control's test id, else its words, else its tag. */
function focused(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const el = document.activeElement
    if (!el || el === document.body) return 'body'
    return el.getAttribute('data-testid') || (el.textContent || '').trim() || el.tagName.toLowerCase()
  })()`)
}

describe.skipIf(!e2eComponentsPresent())('the counter with a keypad alone', () => {
  const e2e = useE2E('keypad')

  /** One key of the keypad; the focus must then be somewhere a cashier sees it. */
  async function key(page: Page, name: string): Promise<void> {
    if (!KEYPAD.test(name)) throw new Error(`"${name}" is not on a keypad`)
    await page.keyboard.press(name)
    expect(await focused(page), `after ${name}`).not.toBe('body')
  }

  async function keys(page: Page, digits: string): Promise<void> {
    for (const digit of digits) await key(page, digit)
  }

  /**
   * Arrows down (right from a list box) until the focus is on `testId` or the control with these words;
   * the arrows stop at the last control, so from there up (left from a list box) as a cashier would.
   */
  async function arrowTo(page: Page, target: string, limit = 60): Promise<void> {
    let forward = true
    for (let i = 0; i < limit; i++) {
      const at = await focused(page)
      if (at === target) return
      const onList = await page.evaluate('document.activeElement && document.activeElement.tagName === "SELECT"')
      await key(page, forward ? (onList ? 'ArrowRight' : 'ArrowDown') : onList ? 'ArrowLeft' : 'ArrowUp')
      if (forward && (await focused(page)) === at) forward = false
    }
    throw new Error(`the arrows never reached "${target}" (focus on "${await focused(page)}")`)
  }

  /**
   * To a screen: on a small display through the Menu (up from the screen to the Menu button, Enter,
   * down to the screen's button); on a large one up from the screen to its button in the row.
   */
  async function toScreen(page: Page, testId: string): Promise<void> {
    if (!(await page.getByTestId('nav-menu').isVisible())) {
      for (let i = 0; i < 40 && (await focused(page)) !== testId; i++) await key(page, 'ArrowUp')
      expect(await focused(page)).toBe(testId)
      await key(page, 'Enter')
      await expect.poll(() => page.getByTestId(testId).getAttribute('aria-current')).toBe('page')
      return
    }
    for (let i = 0; i < 30 && (await focused(page)) !== 'nav-menu'; i++) await key(page, 'ArrowUp')
    expect(await focused(page)).toBe('nav-menu')
    await key(page, 'Enter')
    await arrowTo(page, testId)
    await key(page, 'Enter')
    await expect.poll(() => page.getByTestId(testId).getAttribute('aria-current')).toBe('page')
  }

  /** Sign-in: the number field has the focus; Enter goes on to the PIN, Enter signs in. */
  async function signIn(page: Page): Promise<void> {
    await page.getByTestId('sign-in-form').waitFor()
    expect(await focused(page)).toBe('operator-id-input')
    await keys(page, '9')
    await key(page, 'Enter')
    expect(await focused(page)).toBe('operator-pin-input')
    await keys(page, '4321')
    await key(page, 'Enter')
    await page.getByTestId('signed-in-operator').waitFor({ state: 'attached' })
    await expect.poll(() => focused(page)).toBe('amount-input')
  }

  for (const [index, size] of SIZES.entries()) {
    const label = `${size.width}x${size.height}`
    it(`${label}: sale, void, tip, return, close of day and sign-in with digits, Enter, Escape and arrows`, async () => {
      const { page, context } = e2e.cashier
      await page.setViewportSize(size)
      // From the second size on the terminal has a manager (added below): the counter starts with the sign-in.
      if (index > 0) await signIn(page)
      expect(await focused(page)).toBe('amount-input')

      // Three sales: digits, Enter; Enter presents the card the picker shows; Enter starts the next.
      const ids: string[] = []
      for (const amount of [`25${index}0`, `36${index}0`, `47${index}0`]) {
        await keys(page, amount)
        await key(page, 'Enter')
        await expect.poll(() => focused(page)).toBe('present-test-card')
        await key(page, 'Enter')
        ids.push(await waitForResult(page, 'approved'))
        // The card read, the picker goes: the focus is back on the amount, where Enter starts the next sale.
        await expect.poll(() => focused(page)).toBe('amount-input')
        await key(page, 'Enter')
        await expect.poll(() => page.getByTestId('amount-input').inputValue()).toBe('')
      }
      const [voided, tipped, returned] = ids as [string, string, string]

      // The void: to Transactions, down to Void on its row, Enter; the safe answer has the focus, right to Void sale.
      await toScreen(page, 'nav-transactions')
      await arrowTo(page, `void-${voided}`)
      await key(page, 'Enter')
      await page.getByTestId('void-confirm-dialog').waitFor()
      expect(await focused(page)).toBe('Keep the sale')
      await key(page, 'ArrowRight')
      expect(await focused(page)).toBe('Void sale')
      await key(page, 'Enter')
      // The customer presents the card again: Present has the focus.
      await expect.poll(() => focused(page)).toBe('present-test-card')
      await key(page, 'Enter')
      await page.getByRole('status', { name: 'Void status' }).filter({ hasText: 'Voided' }).waitFor({ timeout: 20_000 })
      await arrowTo(page, 'void-done-button')
      await key(page, 'Enter')
      await page.getByTestId('void-panel').waitFor({ state: 'detached' })
      await screenshot(page, `keypad-${label}-voided`)

      // The return: down to Return on its row; the amount field has the focus, keyed the sale's way.
      await arrowTo(page, `return-${returned}`)
      await key(page, 'Enter')
      const panel = page.getByTestId('return-panel')
      await panel.waitFor()
      expect(await focused(page)).toBe('return-amount')
      await keys(page, '1000')
      expect(await panel.getByTestId('return-amount').inputValue()).toBe('10.00')
      await key(page, 'Enter')
      // No staff yet (the first size; the sign-in at its end adds staff): the return shows what it
      // credits, Back has the focus, up is the return itself. With a manager signed in it goes on.
      if (label === '800x480') {
        await expect.poll(() => focused(page)).toBe('return-confirm-back')
        await key(page, 'ArrowUp')
        expect(await focused(page)).toBe('return-confirm-button')
        await key(page, 'Enter')
      }
      await expect.poll(() => focused(page)).toBe('present-test-card')
      await key(page, 'Enter')
      await panel.getByRole('status', { name: 'Return status' }).filter({ hasText: 'Returned: USD 10.00' }).waitFor({ timeout: 20_000 })
      await arrowTo(page, 'return-done-button')
      await key(page, 'Enter')
      await panel.waitFor({ state: 'detached' })

      // Escape goes back to the sale, with the focus on the amount.
      await key(page, 'Escape')
      await expect.poll(() => focused(page)).toBe('amount-input')

      // The tip: to Tips, the focus is on the first tip; down to this sale's, digits, Enter sends.
      await toScreen(page, 'nav-tips')
      await arrowTo(page, `tip-input-${tipped}`)
      await keys(page, '300')
      expect(await page.getByTestId(`tip-input-${tipped}`).inputValue()).toBe('3.00')
      await key(page, 'Enter')
      await page.getByTestId(`tip-row-${tipped}`).filter({ hasText: 'Tip saved' }).waitFor()
      await screenshot(page, `keypad-${label}-tip-saved`)

      // The close: down to Close the day, Enter; the safe answer has the focus, right to close.
      await toScreen(page, 'nav-close-of-day')
      // The day's report loads first: until it has, Close the day waits (and is not yet a place for the focus).
      await expect.poll(() => page.getByTestId('close-day-button').isEnabled()).toBe(true)
      await arrowTo(page, 'close-day-button')
      await key(page, 'Enter')
      const confirm = page.getByRole('alertdialog')
      await confirm.waitFor()
      expect(await focused(page)).toBe('Not yet')
      await key(page, 'ArrowRight')
      await key(page, 'Enter')
      await page
        .getByTestId('close-notice')
        .filter({ hasText: `Batch ${index + 1} closed.` })
        .waitFor()
      await screenshot(page, `keypad-${label}-closed`)

      if (index === 0) {
        const asCounter = (operation: string, data: unknown) => context.request.post(`${e2e.serve.uiUrl}/v1/ops/${operation}`, { data })
        expect((await asCounter('addOperator', { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' })).ok()).toBe(true)
        await page.reload()
        await signIn(page)
      }
    }, 120_000)
  }
})
