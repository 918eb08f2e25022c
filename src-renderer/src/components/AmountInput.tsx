/**
 * A money field keyed the sale's way, wherever an amount is typed (tip, return): digits shift in from
 * the right as minor units, like a cash register (2 0 0 → 2.00), a point switches to the amount as
 * written (docs/ui.md "Amount entry"). The field's text is the amount as shown; the keys are read
 * from the change, as on the sale screen (store/amount-entry.ts). Focusing it selects what is there,
 * so the first key starts a new amount.
 */
import { useRef, type InputHTMLAttributes } from 'react'
import { isKnownCurrency, minorUnitDigits } from '../../../src-shared/money'
import { entryAfterEdit, entryFromText, entryText } from '../store'

/** A currency's decimals; a code the agent would not send is read as two. */
function decimalsOf(currency: string): number {
  return isKnownCurrency(currency) ? minorUnitDigits(currency) : 2
}

/** The entry behind a shown amount: a full amount ("7.50") is the digits a register keyed (750). */
export function entryOfShown(text: string, fractionDigits: number): string {
  const full = fractionDigits > 0 ? new RegExp(`^[\\d,]*\\.\\d{${fractionDigits}}$`) : /^[\d,]+$/
  return full.test(text) ? text.replace(/\D/g, '').replace(/^0+/, '') : entryFromText(text, fractionDigits)
}

/** The shown text after the field changed from `before` to `after`. */
export function amountTextAfterEdit(before: string, after: string, currency: string): string {
  const digits = decimalsOf(currency)
  return entryText(entryAfterEdit(entryOfShown(before, digits), before, after, digits), digits)
}

export interface AmountInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  text: string
  currency: string
  onText(text: string): void
}

export function AmountInput({ text, currency, onText, onFocus, ...rest }: AmountInputProps) {
  // A tap that focuses the field would put the caret where it landed after the focus selected all:
  // that first mouseup is let go, so the selection stays.
  const justFocused = useRef(false)
  return (
    <input
      {...rest}
      type="text"
      data-keyed-amount=""
      inputMode="decimal"
      autoComplete="off"
      value={text}
      onFocus={(event) => {
        event.currentTarget.select()
        justFocused.current = true
        onFocus?.(event)
      }}
      onMouseUp={(event) => {
        if (justFocused.current) event.preventDefault()
        justFocused.current = false
      }}
      onBlur={() => {
        justFocused.current = false
      }}
      onPaste={(event) => {
        event.preventDefault()
        const digits = decimalsOf(currency)
        onText(entryText(entryFromText(event.clipboardData.getData('text'), digits), digits))
      }}
      onChange={(event) => onText(amountTextAfterEdit(text, event.target.value, currency))}
    />
  )
}
