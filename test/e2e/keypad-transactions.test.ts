/**
 * Transactions with a countertop keypad alone (digits, Enter, Escape, the arrows), in Chromium against
 * `pos-agent serve` in training mode, at 800x480, 1024x768 and 1280x800: the newest sale's Void is a
 * few arrows from the screen's top (the search stays folded until asked for); after "Voided", Enter
 * closes the dialog and the focus is back on the sale's row (its Receipt); in the search, an arrow passes the "Show" list box by without changing what is
 * shown, and Enter starts and ends choosing in it.
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

function focused(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const el = document.activeElement
    if (!el || el === document.body) return 'body'
    return el.getAttribute('data-testid') || (el.textContent || '').trim() || el.tagName.toLowerCase()
  })()`)
}

describe.skipIf(!e2eComponentsPresent())('transactions with a keypad alone', () => {
  const e2e = useE2E('keypad-transactions')

  async function key(page: Page, name: string): Promise<void> {
    if (!KEYPAD.test(name)) throw new Error(`"${name}" is not on a keypad`)
    await page.keyboard.press(name)
  }

  /** ArrowDown until the focus is on `target`; how many presses it took. */
  async function downTo(page: Page, target: string, limit: number): Promise<number> {
    for (let presses = 0; presses <= limit; presses++) {
      if ((await focused(page)) === target) return presses
      await key(page, 'ArrowDown')
    }
    throw new Error(`${limit} presses of ArrowDown never reached "${target}" (focus on "${await focused(page)}")`)
  }

  for (const size of SIZES) {
    const label = `${size.width}x${size.height}`
    it(`${label}: Void in a few presses, Enter after "Voided" closes it, the Show list box is passed by`, async () => {
      const { page } = e2e.cashier
      await page.setViewportSize(size)
      await page.getByTestId('amount-input').focus()
      for (const digit of '1234') await key(page, digit)
      await key(page, 'Enter')
      await expect.poll(() => focused(page)).toBe('present-test-card')
      await key(page, 'Enter')
      const saleId = await waitForResult(page, 'approved')
      await expect.poll(() => focused(page)).toBe('amount-input')

      // To Transactions (Escape-free: the screen buttons, or the Menu on a small screen).
      const menu = await page.getByTestId('nav-menu').isVisible()
      for (let i = 0; i < 30 && (await focused(page)) !== (menu ? 'nav-menu' : 'nav-transactions'); i++) await key(page, 'ArrowUp')
      await key(page, 'Enter')
      if (menu) {
        await downTo(page, 'nav-transactions', 12)
        await key(page, 'Enter')
      }
      await expect.poll(() => page.getByTestId('nav-transactions').getAttribute('aria-current')).toBe('page')
      await page.getByTestId(`void-${saleId}`).waitFor()
      // The newest sale comes first: its Void within a few presses of the screen's top.
      const presses = await downTo(page, `void-${saleId}`, 8)
      expect(presses).toBeLessThanOrEqual(8)
      await screenshot(page, `keypad-transactions-void-${label}`)
      await key(page, 'Enter')
      await page.getByTestId('void-confirm-dialog').waitFor()
      await key(page, 'ArrowRight')
      expect(await focused(page)).toBe('Void sale')
      await key(page, 'Enter')
      await expect.poll(() => focused(page)).toBe('present-test-card')
      await key(page, 'Enter')
      await page.getByRole('status', { name: 'Void status' }).filter({ hasText: 'Voided' }).waitFor({ timeout: 20_000 })
      // Done has the focus: Enter closes the dialog.
      await expect.poll(() => focused(page)).toBe('void-done-button')
      await key(page, 'Enter')
      await page.getByTestId('void-panel').waitFor({ state: 'detached' })
      // Back in the list, on what is left of the voided sale's row (its Void is gone): never the page.
      await expect.poll(() => focused(page)).toBe(`receipt-${saleId}`)

      // The search, opened with Enter: ArrowDown passes the Show list box by, its choice unchanged.
      await page.getByTestId('find-sale').focus()
      await key(page, 'Enter')
      await page.getByTestId('search-where').waitFor()
      await downTo(page, 'search-where', 6)
      await key(page, 'ArrowDown')
      expect(await page.getByTestId('search-where').inputValue()).toBe('open')
      expect(await focused(page)).not.toBe('search-where')
      // Enter on it starts choosing: ArrowDown picks the next period; Enter ends the choice.
      await key(page, 'ArrowUp')
      expect(await focused(page)).toBe('search-where')
      await key(page, 'Enter')
      await key(page, 'ArrowDown')
      expect(await page.getByTestId('search-where').inputValue()).toBe('today')
      await key(page, 'Enter')
      await key(page, 'ArrowDown')
      expect(await page.getByTestId('search-where').inputValue()).toBe('today')
      expect(await focused(page)).not.toBe('search-where')
      await screenshot(page, `keypad-transactions-search-${label}`)
      await key(page, 'Escape')
      await expect.poll(() => focused(page)).toBe('amount-input')
    })
  }
})
