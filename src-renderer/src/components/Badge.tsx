import type { Tone } from '../store'

/** A short status word with a colour. */
export function Badge({ tone, children, testId }: { tone: Tone; children: string; testId?: string }) {
  return (
    <span className={`badge tone-${tone}`} data-testid={testId}>
      {children}
    </span>
  )
}
