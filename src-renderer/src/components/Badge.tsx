import type { Tone } from '../store'

/** A short status word with a colour; 'off' (grey) is a status nobody can vouch for now. */
export function Badge({ tone, children, testId }: { tone: Tone | 'off'; children: string; testId?: string }) {
  return (
    <span className={`badge tone-${tone}`} data-testid={testId}>
      {children}
    </span>
  )
}
