/**
 * The prompt area: one live region (screen readers announce each new prompt) that stays in place
 * while a sale runs. Prompts wrap, never cut: a long instruction takes another line rather than
 * ending in "…". When the sale has ended the prompt is its result, as a heading.
 */
import type { Tone } from '../store'

export interface PromptAreaProps {
  text: string
  detail: string
  tone: Tone
  testId?: string
  label?: string
  /** Show the text as the result's heading (id and test id of that heading). */
  heading?: { id: string; testId: string }
}

export function PromptArea({ text, detail, tone, testId = 'sale-prompt', label = 'Sale status', heading }: PromptAreaProps) {
  return (
    <div className={`prompt-area tone-${tone}`} role="status" aria-live="polite" aria-atomic="true" aria-label={label} data-testid={testId}>
      {heading ? (
        <h2 id={heading.id} className="prompt-text" data-testid={heading.testId}>
          {text}
        </h2>
      ) : (
        <p className="prompt-text">{text}</p>
      )}
      <p className="prompt-detail">{detail}</p>
    </div>
  )
}
