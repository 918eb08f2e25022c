/**
 * axe-core (Deque's accessibility engine) run inside the page: its source is evaluated in the page
 * through the DevTools protocol (the page's CSP governs the page's own scripts, not this), then
 * `axe.run` checks the document as it is at that moment. WCAG 2.x A and AA rules plus best practices.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

const RUN = `(async () => {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  })
  return result.violations.map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' — ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', '))
})()`

/** The axe violations on the page as it is now, one line each (empty: none). */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(AXE_SOURCE)
  return page.evaluate(RUN)
}
