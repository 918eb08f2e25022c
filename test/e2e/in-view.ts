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

/**
 * Every control a cashier can press inside `scope` (all of them when a modal dialog or the open Menu is
 * not in front), each brought into view as a tap would need it: its centre is the control itself (no
 * other region drawn over it), and its box is not cut at the window's right edge or by a scrolling box.
 * Controls out of sight on purpose (display: none, visibility: hidden, inert, a closed Menu or folded section) are not
 * controls the cashier can see. Returns the problems in words, naming each control by its test id or words.
 */
const CONTROLS = String.raw`(scope) => {
  const problems = []
  const root = scope ? document.querySelector(scope) : document.body
  if (!root) return ['no ' + scope + ' on the page']
  const selector = 'button, input:not([type="hidden"]), select, textarea, a[href], summary, [role="button"], [tabindex]:not([tabindex="-1"])'
  const vw = document.documentElement.clientWidth
  const vh = window.innerHeight
  const name = (el) => el.getAttribute('data-testid') || el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 40) || el.tagName.toLowerCase()
  let checked = 0
  for (const el of root.querySelectorAll(selector)) {
    if (el.closest('[inert]')) continue
    // Folded away in a closed <details> (its content is not rendered, though Chromium still gives it a
    // box): only that details' own summary can be pressed.
    const folded = el.closest('details:not([open])')
    if (folded && !(el.tagName === 'SUMMARY' && el.parentElement === folded)) continue
    const style = getComputedStyle(el)
    if (style.visibility !== 'visible' || style.display === 'none') continue
    let r = el.getBoundingClientRect()
    if (r.width === 0 || r.height === 0) continue
    // Visually hidden on purpose (1 px, clipped): read by screen readers, not pressed.
    if (r.width <= 1 && r.height <= 1) continue
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' })
    r = el.getBoundingClientRect()
    checked++
    const box = Math.round(r.left) + ',' + Math.round(r.top) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height)
    if (r.right > vw + 0.5 || r.left < -0.5) { problems.push(name(el) + ': box ' + box + ' is cut at the edge of the ' + vw + ' px window'); continue }
    if (r.bottom > vh + 0.5 || r.top < -0.5) { problems.push(name(el) + ': box ' + box + ' cannot be brought into the ' + vh + ' px high window'); continue }
    let cut = null
    for (let p = el.parentElement; p && !cut; p = p.parentElement) {
      const ps = getComputedStyle(p)
      if (ps.overflowX === 'visible' && ps.overflowY === 'visible') continue
      const pr = p.getBoundingClientRect()
      if (r.left < pr.left - 0.5 || r.right > pr.right + 0.5) cut = 'cut sideways by ' + p.tagName.toLowerCase() + '.' + p.className
      else if (r.top < pr.top - 0.5 || r.bottom > pr.bottom + 0.5) cut = 'cut by ' + p.tagName.toLowerCase() + '.' + p.className
    }
    if (cut) { problems.push(name(el) + ': box ' + box + ' ' + cut); continue }
    if (el.matches('input:not([type="checkbox"]):not([type="radio"]), select, textarea') && r.height < 43.5)
      problems.push(name(el) + ': a field ' + Math.round(r.height) + ' px high (a touch target is at least 44 px)')
    const x = r.left + r.width / 2
    const y = r.top + r.height / 2
    const top = document.elementFromPoint(x, y)
    const own = top && (top === el || el.contains(top) || (el.labels && Array.from(el.labels).some((l) => l.contains(top))))
    if (!own) problems.push(name(el) + ': at its centre (' + Math.round(x) + ',' + Math.round(y) + ') is ' + (top ? top.tagName.toLowerCase() + '.' + top.className + ' "' + (top.textContent || '').trim().slice(0, 30) + '"' : 'nothing'))
  }
  if (checked === 0) problems.push('no control found in ' + (scope || 'the page'))
  return problems
}`

/** Problems with the controls in `scope` (a CSS selector; the whole page by default) being pressable. */
export function coveredControls(page: Page, scope?: string): Promise<string[]> {
  return page.evaluate(`(${CONTROLS})(${JSON.stringify(scope ?? null)})`)
}

/**
 * What is cut at the right: an element drawn past the window's right edge, or a box that scrolls
 * sideways (its content wider than itself: the cashier would have to scroll to read the rest).
 * An element clipped by a box on purpose (overflow: hidden) is that box's business, measured itself.
 */
export function cutAtRight(page: Page): Promise<string[]> {
  return page.evaluate(String.raw`(() => {
    const vw = document.documentElement.clientWidth
    const label = (el) => el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? '[' + el.getAttribute('data-testid') + ']' : '.' + String(el.className).split(' ')[0])
    const problems = new Set()
    for (const el of document.body.querySelectorAll('*')) {
      const style = getComputedStyle(el)
      if (style.visibility !== 'visible' || el.closest('[inert]')) continue
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1)
        problems.add(label(el) + ' scrolls sideways (' + el.scrollWidth + ' px of content in ' + el.clientWidth + ' px)')
      if (r.right <= vw + 0.5) continue
      let clipped = false
      for (let p = el.parentElement; p && p !== document.body && !clipped; p = p.parentElement) {
        const ps = getComputedStyle(p)
        clipped = ps.overflowX !== 'visible'
      }
      if (!clipped) problems.add(label(el) + ' "' + (el.textContent || '').trim().slice(0, 30) + '" ends at ' + Math.round(r.right) + ' px in a ' + vw + ' px window')
    }
    return [...problems]
  })()`)
}

/** How the status line stands: the items in sight, and those moved into the Menu, each with its width. */
export interface StatusLineLayout {
  kept: Array<{ key: string; width: number }>
  moved: Array<{ key: string; width: number }>
  /** The room the kept items leave at the end of the line (px), less the gap before another item. */
  roomLeft: number
  problems: string[]
}

/**
 * The status line measured on its boxes: every item kept in sight lies whole inside the line, on its
 * one row centred on the line, and is the element under its own centre; every item moved into the Menu is wider than the
 * room the kept ones left (nothing that would have fitted was moved).
 */
export function statusLine(page: Page): Promise<StatusLineLayout> {
  return page.evaluate(String.raw`(() => {
    const line = document.querySelector('[data-testid="status-bar"]')
    if (!line) return { kept: [], moved: [], roomLeft: 0, problems: ['no status line'] }
    const lr = line.getBoundingClientRect()
    const gap = parseFloat(getComputedStyle(line).columnGap) || 0
    const kept = []
    const moved = []
    const problems = []
    let right = lr.left
    for (const item of line.querySelectorAll(':scope > [data-status-item]')) {
      const r = item.getBoundingClientRect()
      if (r.width === 0) continue
      const key = item.getAttribute('data-status-item')
      if (item.hasAttribute('data-overflowed')) { moved.push({ key, width: r.width }); continue }
      kept.push({ key, width: r.width })
      right = Math.max(right, r.right)
      if (r.left < lr.left - 0.5 || r.right > lr.right + 0.5 || r.top < lr.top - 0.5 || r.bottom > lr.bottom + 0.5)
        problems.push(key + ' is kept in the line but drawn outside it')
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
      if (!top || !item.contains(top)) problems.push(key + ' is kept in the line but not the element under its centre')
      const off = (r.top + r.bottom) / 2 - (lr.top + lr.bottom) / 2
      if (Math.abs(off) > 1.5) problems.push(key + ' sits ' + Math.round(off) + ' px off the middle of the line')
    }
    const roomLeft = lr.right - right - (kept.length > 0 ? gap : 0)
    for (const item of moved)
      if (item.width <= roomLeft) problems.push(item.key + ' (' + Math.round(item.width) + ' px) is in the Menu though ' + Math.round(roomLeft) + ' px were left on the line')
    return { kept, moved, roomLeft, problems }
  })()`)
}
