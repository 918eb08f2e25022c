/**
 * What a cashier does on the UI, in test terms: key an amount on the keypad, let the "customer"
 * present a test card, charge, read the result. Locators are the renderer's test ids and roles.
 */
import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import type { SaleState } from '../../src-shared/contract'
import { TEST_CARDS, type TestCardName } from '../../src-main/training'

/** Key the amount cash-register style: "1234" shows 12.34. */
export async function keyAmount(page: Page, digits: string, shown: string): Promise<void> {
  for (const digit of digits) await page.getByTestId(`key-${digit}`).click()
  expect(await page.getByTestId('amount-input').inputValue()).toBe(shown)
}

/**
 * Training: the customer holds out this test card; the simulated PIN pad reads it at the card prompt
 * (the one waiting, or the next). `scope` is where the picker is: the page, or the void dialog.
 */
export async function presentCard(page: Page, name: TestCardName, scope: Locator | Page = page): Promise<void> {
  const picker = scope.getByTestId('test-card-picker')
  await picker.getByTestId('test-card-select').selectOption(name)
  // The agent that simulates the card gives its words: the trainee reads what the card does.
  const { label, description } = TEST_CARDS[name].trainee
  expect(await picker.locator('.picker-description').textContent()).toBe(`${label}: ${description}`)
  await picker.getByTestId('present-test-card').click()
  await picker
    .getByTestId('test-card-notice')
    .filter({ hasText: `The customer holds out: ${label}.` })
    .waitFor()
}

export function salePrompt(page: Page): Locator {
  return page.getByRole('status', { name: 'Sale status' })
}

/** Waits for the sale result in `state` (or any of `state`) and returns the sale id shown on it. */
export async function waitForResult(page: Page, state: SaleState | readonly SaleState[], timeoutMs = 15_000): Promise<string> {
  const states = typeof state === 'string' ? [state] : state
  const result = page.locator(states.map((s) => `[data-testid="sale-result"][data-state="${s}"]`).join(', '))
  try {
    await result.waitFor({ state: 'visible', timeout: timeoutMs })
  } catch (error) {
    const other = await page
      .getByTestId('sale-result')
      .getAttribute('data-state', { timeout: 500 })
      .catch(() => null)
    const prompt = await salePrompt(page)
      .innerText({ timeout: 500 })
      .catch(() => '?')
    throw new Error(
      `no sale result "${states.join('" or "')}" within ${timeoutMs} ms (result shown: ${other ?? 'none'}; prompt: ${JSON.stringify(prompt)})`,
      { cause: error },
    )
  }
  return fact(result, 'Sale').innerText()
}

/** The value of a <dt>label</dt><dd>value</dd> pair inside `scope`. */
export function fact(scope: Locator, label: string): Locator {
  return scope
    .locator('dl > div')
    .filter({ has: scope.page().locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd')
}

/** The value of one labelled line of a receipt copy (src-renderer's ReceiptCopy: a label and its value). */
export function receiptField(copy: Locator, label: string): Locator {
  return copy
    .locator('.receipt-row')
    .filter({ has: copy.page().locator('.receipt-label', { hasText: new RegExp(`^${label}$`) }) })
    .locator('.receipt-value')
}

/** A full sale: key, present the card, charge, wait for the result. Returns the sale id. */
export async function sell(
  page: Page,
  digits: string,
  shown: string,
  state: SaleState | readonly SaleState[],
  card: TestCardName = 'chip-visa',
): Promise<string> {
  await keyAmount(page, digits, shown)
  await presentCard(page, card)
  await page.getByTestId('charge-button').click()
  return waitForResult(page, state)
}

/** Back to an empty amount after a result. */
export async function newSale(page: Page): Promise<void> {
  await page.getByTestId('new-sale-button').click()
  expect(await page.getByTestId('amount-input').inputValue()).toBe('')
}

export async function goTo(
  page: Page,
  screen: 'sale' | 'transactions' | 'tips' | 'close-of-day' | 'queue' | 'device' | 'settings' | 'staff',
): Promise<void> {
  // On a small screen the screen buttons are folded into the Menu.
  if (await page.getByTestId('nav-menu').isVisible()) await page.getByTestId('nav-menu').click()
  await page.getByTestId(`nav-${screen}`).click()
  await expect.poll(() => page.getByTestId(`nav-${screen}`).getAttribute('aria-current')).toBe('page')
}

/** The status badge text of a sale's row on the Transactions screen. */
export function rowStatus(page: Page, saleId: string): Locator {
  return page.getByTestId(`sale-row-${saleId}`).locator('.badge')
}
