/**
 * Why a control is greyed out, said next to it and tied to it (aria-describedby on the control with
 * the same id), so nobody is left pressing a dead button.
 */
export function DisabledReason({ id, reason, testId }: { id: string; reason: string | null; testId?: string }) {
  if (!reason) return null
  return (
    <p id={id} className="why-disabled" data-testid={testId}>
      {reason}
    </p>
  )
}
