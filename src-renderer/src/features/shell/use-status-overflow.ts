/**
 * Which items of the status line did not fit on its one line. On a small screen the line keeps one
 * row: items that wrap to a second row are clipped out of sight (and hidden from assistive
 * technology), and the Menu lists them instead. The items stay laid out while hidden, so measuring
 * them again never changes the answer (no flicker between two layouts).
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react'

/** The same condition as the Menu's media query in styles/shell.css. */
export const COMPACT_HEADER = '(max-width: 1199px), (max-height: 600px)'

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i])
}

export function useStatusOverflow(): { lineRef: RefObject<HTMLDivElement | null>; overflowed: readonly string[] } {
  const lineRef = useRef<HTMLDivElement>(null)
  const [overflowed, setOverflowed] = useState<readonly string[]>([])

  const measure = useCallback(() => {
    const line = lineRef.current
    if (!line) return
    const compact = typeof window.matchMedia === 'function' && window.matchMedia(COMPACT_HEADER).matches
    const items = Array.from(line.querySelectorAll<HTMLElement>(':scope > [data-status-item]'))
    const top = items[0]?.offsetTop ?? 0
    const wrapped = compact ? items.filter((item) => item.offsetTop > top).map((item) => item.dataset.statusItem ?? '') : []
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
