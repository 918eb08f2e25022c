/**
 * The fixed-size prompt area: always rendered with the same height so nothing moves while a sale
 * runs; a live region, so screen readers announce each new prompt.
 */
import type { Tone } from '../store'

export interface PromptAreaProps {
  text: string
  detail: string
  tone: Tone
  testId?: string
  label?: string
}

export function PromptArea({ text, detail, tone, testId = 'sale-prompt', label = 'Sale status' }: PromptAreaProps) {
  return (
    <div className={`prompt-area tone-${tone}`} role="status" aria-live="polite" aria-atomic="true" aria-label={label} data-testid={testId}>
      <p className="prompt-text">{text}</p>
      <p className="prompt-detail">{detail}</p>
    </div>
  )
}
