/**
 * The lowest contrast of any text on a page, measured in the page (WCAG 2.x relative luminance,
 * https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): the customer display's tests hold it to 7:1.
 */
import type { Page } from 'playwright-core'

/** The lowest contrast ratio of any text on the page against its background (WCAG relative luminance). */
const LOWEST_CONTRAST = String.raw`(() => {
  const rgb = (c) => (c.match(/[\d.]+/g) || []).slice(0, 4).map(Number)
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0)
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length < 4 || c[3] > 0) return c }
    return [255, 255, 255]
  }
  let lowest = { ratio: 99, text: '' }
  for (const el of document.querySelectorAll('main *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
    if (!own || getComputedStyle(el).visibility !== 'visible') continue
    const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el))
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
    if (ratio < lowest.ratio) lowest = { ratio: Math.round(ratio * 100) / 100, text: el.textContent.trim().slice(0, 40) }
  }
  return lowest
})()`

/** The lowest contrast ratio of any visible text under `main`, and the start of that text. */
export async function lowestContrast(page: Page): Promise<{ ratio: number; text: string }> {
  return await page.evaluate<{ ratio: number; text: string }>(LOWEST_CONTRAST)
}
