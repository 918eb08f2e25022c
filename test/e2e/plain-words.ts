/** The internal words (test/support/internal-words.ts) in a page's visible text. */
import type { Page } from 'playwright-core'
import { internalWordsIn } from '../support/internal-words'

/** The internal words in the page's visible text (empty: none). */
export async function internalWords(page: Page): Promise<string[]> {
  return internalWordsIn(await page.locator('body').innerText())
}
