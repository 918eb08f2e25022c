/**
 * Internal words a cashier or customer must never read: sale states and read methods as the code
 * names them (camelCase), queue outcome classes, the error catalogue's codes, HTTP statuses, and "host"
 * for the bank. Plain English state names ("approved") are words too, so only the coined ones count.
 */
import type { Page } from 'playwright-core'
import { SALE_STATES } from '../../src-shared/contract'
import { ERROR_CODES } from '../../src-shared/errors'

const CODED = [
  ...SALE_STATES.filter((state) => /[A-Z]/.test(state)),
  'notDelivered',
  'contactlessChip',
  'contactlessMagstripe',
  'fallbackSwipe',
  'startedBy',
  'amountConfirmed',
]

const PATTERNS: readonly RegExp[] = [
  new RegExp(`\\b(${CODED.join('|')})\\b`),
  new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`),
  /\bHTTP \d{3}\b/,
  /\bhosts?\b/i,
]

/** The internal words in the page's visible text (empty: none). */
export async function internalWords(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText()
  return PATTERNS.flatMap((pattern) => {
    const found = pattern.exec(text)
    return found ? [`"${found[0]}" in …${text.slice(Math.max(0, found.index - 40), found.index + 40).replace(/\s+/g, ' ')}…`] : []
  })
}
