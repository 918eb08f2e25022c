/** The on-screen amount keypad: 1–9, 00, 0, erase. Large keys; each has an accessible name. */
export interface KeypadProps {
  disabled: boolean
  onDigits(digits: string): void
  onErase(): void
  onClear(): void
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0'] as const

export function Keypad({ disabled, onDigits, onErase, onClear }: KeypadProps) {
  return (
    <div className="keypad" role="group" aria-label="Amount keypad" data-testid="keypad">
      {KEYS.map((key) => (
        <button
          key={key}
          type="button"
          className="key"
          disabled={disabled}
          data-keypad=""
          data-testid={`key-${key}`}
          onClick={() => onDigits(key)}
        >
          {key}
        </button>
      ))}
      <button
        type="button"
        className="key key-erase"
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
