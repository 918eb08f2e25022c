/**
 * Whether what a cashier needs is on screen, measured on element boxes in the page: each element is
 * displayed, inside the viewport, not cut by a scrolling box around it, and not covered at its centre
 * by something else; and text that must be read whole (the prompt) is not clipped or ellipsised. The
 * checks run in the page (plain JavaScript, below) and return the problems in words.
 */
import type { Page } from 'playwright-core'

const CHECK = String.raw`(ids) => {
  const problems = []
  const vw = window.innerWidth
  const vh = window.innerHeight
  for (const id of ids) {
    const el = document.querySelector('[data-testid="' + id + '"]')
    if (!el) { problems.push(id + ': not on the page'); continue }
    const r = el.getBoundingClientRect()
    if (r.width === 0 || r.height === 0) { problems.push(id + ': not displayed'); continue }
    const box = Math.round(r.left) + ',' + Math.round(r.top) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height)
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
      problems.push(id + ': box ' + box + ' is outside the ' + vw + 'x' + vh + ' viewport')
      continue
    }
    let clipped = false
    for (let p = el.parentElement; p && !clipped; p = p.parentElement) {
      const style = getComputedStyle(p)
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
      const pr = p.getBoundingClientRect()
      if (r.top < pr.top - 0.5 || r.bottom > pr.bottom + 0.5 || r.left < pr.left - 0.5 || r.right > pr.right + 0.5) {
        problems.push(id + ': box ' + box + ' is cut by a scrolling ' + p.tagName.toLowerCase() + '.' + p.className)
        clipped = true
      }
    }
    if (clipped) continue
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    if (!top || !(el === top || el.contains(top))) problems.push(id + ': covered by ' + (top ? top.tagName.toLowerCase() + '.' + top.className : 'nothing'))
  }
  return problems
}`

const WHOLE_TEXT = String.raw`(selector) => {
  const problems = []
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el)
    const text = (el.textContent || '').trim()
    if (style.textOverflow === 'ellipsis') problems.push('"' + text + '" may be ellipsised (text-overflow: ellipsis)')
    if (style.webkitLineClamp && style.webkitLineClamp !== 'none') problems.push('"' + text + '" is line-clamped')
    if (el.scrollWidth > el.clientWidth + 1) problems.push('"' + text + '" is wider than its box (' + el.scrollWidth + ' > ' + el.clientWidth + ')')
    if (el.scrollHeight > el.clientHeight + 1) problems.push('"' + text + '" is taller than its box (' + el.scrollHeight + ' > ' + el.clientHeight + ')')
  }
  return problems
}`

/** Problems with the elements of these test ids being in view (empty: all in view). */
export function notInView(page: Page, testIds: readonly string[]): Promise<string[]> {
  return page.evaluate(`(${CHECK})(${JSON.stringify(testIds)})`)
}

/** Problems with text under `selector` being shown whole (empty: wraps, nothing cut). */
export function cutText(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(`(${WHOLE_TEXT})(${JSON.stringify(selector)})`)
}

/** Whether the page itself scrolls (it should not: the screens scroll inside it). */
export function pageScrolls(page: Page): Promise<{ horizontal: boolean; vertical: boolean }> {
  return page.evaluate(
    `({ horizontal: document.documentElement.scrollWidth > window.innerWidth, vertical: document.documentElement.scrollHeight > window.innerHeight })`,
  )
}
