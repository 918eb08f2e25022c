/**
 * Keyboard-first sale entry: digits and Backspace key the amount, Enter charges, Escape stops the
 * card reading or clears. The amount field reads its own typing (onChange); everything else that is
 * not a form field or a dialog comes here. What each key means is decided by the store.
 */
import { useEffect } from 'react'
import { usePosStore } from '../../store'

function isFormField(element: HTMLElement): boolean {
  return element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT' || element.isContentEditable
}

export function useSaleKeys(): void {
  const store = usePosStore()
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
      const target = event.target instanceof HTMLElement ? event.target : null
      if (target?.closest('[role="alertdialog"], [role="dialog"]')) return
      const amountField = target?.hasAttribute('data-amount-field') ?? false
      if (target && !amountField && isFormField(target)) return
      // Enter on an ordinary button presses that button; on the field, a keypad key or nothing, it charges.
      const neutral = !target || target === document.body || amountField || target.hasAttribute('data-keypad')
      const s = store.getState()
      if (event.key === 'Enter') {
        if (!neutral) return
        event.preventDefault()
        s.pressEnter()
      } else if (event.key === 'Escape') {
        event.preventDefault()
        s.pressEscape()
      } else if (amountField) {
        return
      } else if (/^\d$/.test(event.key)) {
        event.preventDefault()
        s.typeDigits(event.key)
      } else if (event.key === 'Backspace') {
        event.preventDefault()
        s.eraseDigit()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [store])
}
