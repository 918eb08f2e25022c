/**
 * The counter with a keypad alone (digits, Enter, Escape, the arrows; no Tab, no Space): the arrows
 * move the focus from control to control as Tab would (down and right forward, up and left back),
 * inside the dialog in front when there is one, and stop at the first and last control as a list does
 * (a silent wrap from the last button back to the first row lands on a control nobody meant to reach);
 * Enter ticks a checkbox (unless the box takes Enter itself); Escape on any screen but the
 * sale goes back to the sale. A list box is passed by like any control (an arrow never changes its
 * choice unasked, e.g. the period of the sales shown): Enter on it starts choosing, up and down then
 * choose, and Enter (or Escape) ends the choice. Keys a control needs itself are left to it: left and
 * right in a text field (up and down move on), and anything a dialog or the Menu already handled.
 */
import { useEffect } from 'react'
import { usePosStore } from '../../store'

const FOCUSABLE = [
  'button:not([disabled])',
  'summary',
  'a[href]',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ')

const FORWARD = new Set(['ArrowDown', 'ArrowRight'])
const BACK = new Set(['ArrowUp', 'ArrowLeft'])

function shown(element: HTMLElement): boolean {
  if (element.closest('[inert]')) return false
  const style = getComputedStyle(element)
  if (style.visibility !== 'visible' || style.display === 'none') return false
  const box = element.getBoundingClientRect()
  return box.width > 1 && box.height > 1
}

/** The first control the cashier can reach inside `container`. */
export function firstControl(container: HTMLElement): HTMLElement | undefined {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].find(shown)
}

/** The controls the arrows walk, in page order: the dialog in front, else the whole page. */
function controls(doc: Document): HTMLElement[] {
  const dialogs = doc.querySelectorAll<HTMLElement>('[aria-modal="true"]')
  const scope: ParentNode = dialogs.length > 0 ? dialogs[dialogs.length - 1]! : doc.body
  return [...scope.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(shown)
}

/** The next control after (or before) `from` in page order; at either end it stays where it is. */
export function nextControl(items: readonly HTMLElement[], from: Element | null, forward: boolean): HTMLElement | undefined {
  if (items.length === 0) return undefined
  const at = from ? items.indexOf(from as HTMLElement) : -1
  if (at >= 0) return items[Math.min(items.length - 1, Math.max(0, at + (forward ? 1 : -1)))]
  // From something that is not itself a control (the screen, the page): the first one after it.
  if (from && from !== from.ownerDocument?.body) {
    const after = items.find((item) => from.compareDocumentPosition(item) & Node.DOCUMENT_POSITION_FOLLOWING && !from.contains(item))
    const inside = items.find((item) => from.contains(item))
    const first = inside ?? after
    if (first) return forward ? first : items[Math.max(0, items.indexOf(first) - 1)]
  }
  return forward ? items[0] : items[items.length - 1]
}

function isTextField(element: Element): boolean {
  return (
    element instanceof HTMLTextAreaElement ||
    (element instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(element.type))
  )
}

export function useKeypadNavigation(): void {
  const store = usePosStore()
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
      const target = event.target instanceof HTMLElement ? event.target : null
      const doc = document
      if (event.key === 'Enter' && target instanceof HTMLInputElement && target.type === 'checkbox') {
        event.preventDefault()
        target.click()
        return
      }
      // A list box: Enter starts choosing (up and down then choose), Enter or Escape ends it.
      if (target instanceof HTMLSelectElement && (event.key === 'Enter' || (event.key === 'Escape' && target.dataset.choosing))) {
        event.preventDefault()
        if (target.dataset.choosing) delete target.dataset.choosing
        else if (event.key === 'Enter') target.dataset.choosing = 'on'
        return
      }
      if (event.key === 'Escape') {
        const s = store.getState()
        if (doc.querySelector('[aria-modal="true"]') || s.screen === 'sale') return
        event.preventDefault()
        s.navigate('sale')
        return
      }
      const forward = FORWARD.has(event.key)
      if (!forward && !BACK.has(event.key)) return
      const sideways = event.key === 'ArrowLeft' || event.key === 'ArrowRight'
      // Up and down choose in a list box only once Enter started choosing; otherwise every arrow moves on.
      if (target instanceof HTMLSelectElement && !sideways && target.dataset.choosing) return
      if (target instanceof HTMLSelectElement) delete target.dataset.choosing
      // Left and right move the caret in a text field; an amount field keys from the right, so its arrows move on.
      if (target && isTextField(target) && sideways && !target.hasAttribute('data-keyed-amount')) return
      const next = nextControl(controls(doc), target ?? doc.activeElement, forward)
      if (!next) return
      event.preventDefault()
      next.focus()
    }
    // A list box left while choosing stops choosing: coming back to it, the arrows pass it by again.
    const onFocusOut = (event: FocusEvent) => {
      if (event.target instanceof HTMLSelectElement) delete event.target.dataset.choosing
    }
    document.addEventListener('keydown', onKeyDown)
    document.addEventListener('focusout', onFocusOut)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('focusout', onFocusOut)
    }
  }, [store])
}
