/**
 * Keyboard-first sale entry: digits, the decimal point and Backspace key the amount (in the amount
 * field too, so the field always shows the store's entry), Enter does what the screen offers (charge;
 * after a result, the next sale), Escape stops the card reading or clears. Keys on other form fields,
 * and everything while a dialog is open, are left alone. What each key means is decided by the store.
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
      // A modal dialog has the keyboard: a digit typed there must not change the amount behind it.
      if (document.querySelector('[aria-modal="true"]')) return
      const target = event.target instanceof HTMLElement ? event.target : null
      const amountField = target?.hasAttribute('data-amount-field') ?? false
      if (target && !amountField && isFormField(target)) return
      // Enter on an ordinary button presses that button; on the field, a keypad key or nothing, it is the screen's Enter.
      const neutral = !target || target === document.body || amountField || target.hasAttribute('data-keypad')
      const s = store.getState()
      if (event.key === 'Enter') {
        if (!neutral) return
        event.preventDefault()
        s.pressEnter()
      } else if (event.key === 'Escape') {
        event.preventDefault()
        s.pressEscape()
      } else if (/^\d$/.test(event.key)) {
        event.preventDefault()
        s.typeDigits(event.key)
      } else if (event.key === '.' || event.key === ',' || event.key === 'Decimal') {
        event.preventDefault()
        s.typePoint()
      } else if (event.key === 'Backspace') {
        event.preventDefault()
        s.eraseDigit()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [store])
}
