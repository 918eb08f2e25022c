/**
 * A modal dialog keeps the keyboard: focus moves into it when it opens (to `initial`, or its first
 * control), Tab and Shift+Tab cycle inside it, everything else on the page is inert while it is open
 * (no Tab to the menu behind it, no typed digit reaching a hidden amount), and when it closes focus
 * goes back to where it was, or, when that control is gone or disabled, to what is left of its row
 * in a list (`data-focus-row`: a voided sale's Receipt once its Void is gone), else to the amount
 * field or the screen. (WAI-ARIA Authoring Practices, "Dialog (Modal) Pattern".)
 */
import { useEffect, type RefObject } from 'react'

const FOCUSABLE = [
  'button:not([disabled])',
  'a[href]',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ')

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => !element.closest('[inert]'))
}

function canTakeFocus(element: HTMLElement | null): element is HTMLElement {
  return (
    element !== null &&
    element.isConnected &&
    !element.closest('[inert]') &&
    !(element as HTMLButtonElement).disabled &&
    element !== element.ownerDocument.body
  )
}

/** Where focus goes after a dialog whose opener is gone: the amount field, else the screen. */
function fallbackTarget(doc: Document): HTMLElement | null {
  const field = doc.querySelector<HTMLInputElement>('[data-amount-field]')
  if (field && !field.readOnly) return field
  return doc.querySelector<HTMLElement>('[data-focus-fallback]')
}

/** The first control left in the opener's list row (`data-focus-row`), found again should the row have been drawn anew. */
function rowTarget(doc: Document, row: HTMLElement | null): HTMLElement | null {
  const key = row?.getAttribute('data-focus-row')
  if (!row || key === null || key === undefined) return null
  const now = row.isConnected
    ? row
    : [...doc.querySelectorAll<HTMLElement>('[data-focus-row]')].find((r) => r.getAttribute('data-focus-row') === key)
  return now ? (focusables(now).find(canTakeFocus) ?? null) : null
}

/** Open dialogs, the top one last: only the top one pulls focus back. */
const openDialogs: HTMLElement[] = []

/** Elements made inert for open dialogs, with how many dialogs asked (dialogs may open over each other). */
const inertHolds = new Map<Element, number>()

function holdInert(dialog: HTMLElement): Element[] {
  const held: Element[] = []
  for (const child of dialog.ownerDocument.body.children) {
    if (child.contains(dialog) || child.tagName === 'SCRIPT') continue
    const count = inertHolds.get(child) ?? 0
    if (count === 0) child.setAttribute('inert', '')
    inertHolds.set(child, count + 1)
    held.push(child)
  }
  return held
}

function releaseInert(held: readonly Element[]): void {
  for (const child of held) {
    const count = (inertHolds.get(child) ?? 1) - 1
    if (count > 0) inertHolds.set(child, count)
    else {
      inertHolds.delete(child)
      child.removeAttribute('inert')
    }
  }
}

export function useDialogFocus(dialog: RefObject<HTMLElement | null>, initial?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const node = dialog.current
    if (!node) return
    const doc = node.ownerDocument
    const opener = doc.activeElement instanceof HTMLElement ? doc.activeElement : null
    const openerRow = opener?.closest<HTMLElement>('[data-focus-row]') ?? null
    const held = holdInert(node)
    openDialogs.push(node)
    const first = initial?.current ?? focusables(node)[0] ?? node
    // The dialog opens at its top (a receipt is read from its head), whichever control holds the keys.
    first.focus({ preventScroll: true })
    node.scrollTop = 0

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return
      const items = focusables(node)
      if (items.length === 0) {
        event.preventDefault()
        return
      }
      const index = items.indexOf(doc.activeElement as HTMLElement)
      const next = event.shiftKey ? (index <= 0 ? items.length - 1 : index - 1) : index === items.length - 1 ? 0 : index + 1
      event.preventDefault()
      items[next]?.focus()
    }
    // Focus that lands outside anyway (a click on the backdrop, a script) comes back in.
    const onFocusIn = (event: FocusEvent) => {
      if (openDialogs.at(-1) !== node || !(event.target instanceof Node) || node.contains(event.target)) return
      ;(focusables(node)[0] ?? node).focus()
    }
    node.addEventListener('keydown', onKeyDown)
    doc.addEventListener('focusin', onFocusIn)
    // The focused control went away as the dialog moved on (the form gave way to the card prompt, Stop
    // to Done): the focus goes to what the dialog offers now, never left on the page behind it.
    const regained = new MutationObserver(() => {
      if (openDialogs.at(-1) !== node) return
      const active = doc.activeElement
      if (active && active !== doc.body && node.contains(active)) return
      ;(focusables(node)[0] ?? node).focus({ preventScroll: true })
    })
    regained.observe(node, { childList: true, subtree: true })
    return () => {
      regained.disconnect()
      node.removeEventListener('keydown', onKeyDown)
      doc.removeEventListener('focusin', onFocusIn)
      openDialogs.splice(openDialogs.indexOf(node), 1)
      releaseInert(held)
      const back = canTakeFocus(opener) ? opener : (rowTarget(doc, openerRow) ?? fallbackTarget(doc))
      back?.focus()
    }
  }, [dialog, initial])
}
