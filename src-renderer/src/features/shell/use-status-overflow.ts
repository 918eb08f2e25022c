/**
 * Which items of the status line do not fit on its one line. On a small screen the line keeps one
 * row: the items are taken in order of importance, each kept if it fits in the room the ones kept
 * before it left, so a long item moves into the Menu alone and shorter ones after it stay in sight.
 * A moved item is taken out of the line's flow, out of sight (and hidden from assistive technology),
 * and the Menu lists it instead. Items are measured by their own width, which
 * does not depend on where they are drawn, so measuring again never changes the answer (no flicker).
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react'

/** The same condition as the Menu's media query in styles/shell.css. */
export const COMPACT_HEADER = '(max-width: 1199px), (max-height: 600px)'

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i])
}

/** The keys of the items left out when each, in order, is kept only if it fits beside those kept. */
function itemsThatDoNotFit(items: readonly HTMLElement[], line: HTMLElement): string[] {
  const gap = parseFloat(getComputedStyle(line).columnGap) || 0
  // Sub-pixel widths are rounded by offsetWidth: half a pixel of slack either way is not overflow.
  const room = line.clientWidth + 0.5
  let used = 0
  const left: string[] = []
  for (const item of items) {
    const width = item.getBoundingClientRect().width
    if (width === 0) continue
    const needed = used === 0 ? width : used + gap + width
    if (needed <= room) used = needed
    else left.push(item.dataset.statusItem ?? '')
  }
  return left
}

export function useStatusOverflow(): { lineRef: RefObject<HTMLDivElement | null>; overflowed: readonly string[] } {
  const lineRef = useRef<HTMLDivElement>(null)
  const [overflowed, setOverflowed] = useState<readonly string[]>([])

  const measure = useCallback(() => {
    const line = lineRef.current
    if (!line) return
    const compact = typeof window.matchMedia === 'function' && window.matchMedia(COMPACT_HEADER).matches
    const items = Array.from(line.querySelectorAll<HTMLElement>(':scope > [data-status-item]'))
    const wrapped = compact ? itemsThatDoNotFit(items, line) : []
    setOverflowed((before) => (sameSet(before, wrapped) ? before : wrapped))
  }, [])

  // After every render (an item's words may have changed), and whenever the line is resized.
  useLayoutEffect(measure)
  useLayoutEffect(() => {
    const line = lineRef.current
    if (!line || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(line)
    return () => observer.disconnect()
  }, [measure])

  return { lineRef, overflowed }
}
