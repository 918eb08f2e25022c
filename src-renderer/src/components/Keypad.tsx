/**
 * The on-screen amount keypad, laid out like a calculator: 7 8 9 / 4 5 6 / 1 2 3 / point 0 00, with
 * erase and clear beside. Large keys; each has an accessible name. The point is offered only for a
 * currency with decimals. The keys are for touch and mouse: the keyboard types the same digits
 * directly, so they are left out of the Tab order (Tab goes from the amount straight to Charge).
 */
export interface KeypadProps {
  disabled: boolean
  /** The id of the words saying why the keys are greyed out. */
  describedBy?: string
  /** The currency has decimals: show the point key. */
  decimals: boolean
  onDigits(digits: string): void
  onPoint(): void
  onErase(): void
  onClear(): void
}

const ROWS = [
  ['7', '8', '9'],
  ['4', '5', '6'],
  ['1', '2', '3'],
] as const

export function Keypad({ disabled, describedBy, decimals, onDigits, onPoint, onErase, onClear }: KeypadProps) {
  const key = (digits: string) => (
    <button
      key={digits}
      type="button"
      className="key"
      tabIndex={-1}
      disabled={disabled}
      data-keypad=""
      data-testid={`key-${digits}`}
      onClick={() => onDigits(digits)}
    >
      {digits}
    </button>
  )
  return (
    <div
      className="keypad"
      role="group"
      aria-label="Amount keypad"
      aria-describedby={disabled ? describedBy : undefined}
      data-testid="keypad"
    >
      {ROWS.flat().map(key)}
      {decimals ? (
        <button
          type="button"
          className="key"
          tabIndex={-1}
          disabled={disabled}
          data-keypad=""
          aria-label="Decimal point"
          data-testid="key-point"
          onClick={onPoint}
        >
          .
        </button>
      ) : (
        <span aria-hidden="true" />
      )}
      {key('0')}
      {key('00')}
      <button
        type="button"
        className="key key-erase"
        tabIndex={-1}
        disabled={disabled}
        data-keypad=""
        aria-label="Erase last digit"
        data-testid="key-erase"
        onClick={onErase}
      >
        ⌫
      </button>
      <button
        type="button"
        className="key key-clear"
        tabIndex={-1}
        disabled={disabled}
        data-keypad=""
        aria-label="Clear amount"
        data-testid="key-clear"
        onClick={onClear}
      >
        Clear
      </button>
    </div>
  )
}
