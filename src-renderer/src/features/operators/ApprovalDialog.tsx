/**
 * A manager approves at the counter: the action the agent said needs a manager waits while a manager
 * reads what it does (the amount, the card and the sale; the person; the batch's totals: the words the
 * audit trail keeps, from describeApproval) and types their number and PIN (approving-bridge.ts sends
 * it again with them). On a keypad, Enter after the number goes on to the PIN, as at sign-in, so the
 * PIN is never typed into the visible number field. Cancel gives up; the screen then shows the refusal.
 */
import { useId, useRef, useState, type FormEvent } from 'react'
import { Dialog, DialogTitle } from '../../components/Dialog'
import { usePos, usePosStore } from '../../store'
import type { ApprovalRequestView, OperationName } from '../../../../src-shared/contract'

/** What each action a manager approves is called in the dialog's title (every one: a test holds it to the contract). */
export const ACTION_WORDS: Readonly<Partial<Record<OperationName, string>>> = {
  voidSale: 'this void',
  startReturn: 'this return',
  adjustTip: 'this tip',
  retryAttention: 'sending this again',
  closeDay: 'closing the day',
  acknowledgeAttention: 'this acknowledgement',
  setSigningKey: 'the new signing key',
  createToken: 'a new integrator token',
  revokeToken: 'revoking this token',
  exportDay: 'this export with the audit trail',
  addOperator: 'adding this person',
  setOperatorPin: 'this new PIN',
  disableOperator: 'disabling this person',
  unlockOperator: 'letting this person sign in again',
  revokeWindow: 'closing this window',
  auditTrail: 'reading the audit trail',
}

export function ApprovalDialog() {
  const approval = usePos((s) => s.approval)
  if (!approval) return null
  return (
    <ApprovalForm action={ACTION_WORDS[approval.operation] ?? 'this'} problem={approval.problem} described={approval.described ?? null} />
  )
}

function ApprovalForm({ action, problem, described }: { action: string; problem: string | null; described: ApprovalRequestView | null }) {
  const store = usePosStore()
  const id = useId()
  const firstRef = useRef<HTMLInputElement>(null)
  const pinRef = useRef<HTMLInputElement>(null)
  const [operatorId, setOperatorId] = useState('')
  const [pin, setPin] = useState('')
  const ready = operatorId.trim() !== '' && pin !== ''

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!ready) return
    store.getState().answerApproval({ operatorId: operatorId.trim(), pin })
  }
  return (
    <Dialog
      className="approval-dialog"
      testId="approval-dialog"
      initialFocus={firstRef}
      onEscape={() => store.getState().answerApproval(null)}
    >
      <form onSubmit={submit} autoComplete="off">
        <DialogTitle>A manager approves {action}</DialogTitle>
        {/* Side by side where there is room: what is approved stays in sight while the PIN is typed. */}
        <div className="approval-body">
          {described && (
            <div className="approval-what" data-testid="approval-what" id={`${id}-what`}>
              <p className="approval-words" data-testid="approval-words">
                {described.facts[0]?.label === 'Approve' ? described.facts[0].value : described.words}
              </p>
              {described.facts.length > 1 && (
                <dl className="facts approval-facts">
                  {described.facts.slice(1).map((fact) => (
                    <div key={fact.label}>
                      <dt>{fact.label}</dt>
                      <dd data-testid={`approval-fact-${fact.label}`}>{fact.value}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </div>
          )}
          <div className="sign-in-form approval-inputs">
            <label htmlFor={`${id}-operator`}>Manager number</label>
            <input
              ref={firstRef}
              id={`${id}-operator`}
              data-testid="approval-operator-input"
              inputMode="numeric"
              maxLength={16}
              value={operatorId}
              aria-describedby={described ? `${id}-what` : undefined}
              onChange={(event) => setOperatorId(event.target.value)}
              onKeyDown={(event) => {
                // Enter after the number goes on to the PIN (as at sign-in): the PIN never lands here, in clear.
                if (event.key !== 'Enter') return
                event.preventDefault()
                if (operatorId.trim() !== '') pinRef.current?.focus()
              }}
            />
            <label htmlFor={`${id}-pin`}>Manager PIN</label>
            <input
              ref={pinRef}
              id={`${id}-pin`}
              data-testid="approval-pin-input"
              type="password"
              inputMode="numeric"
              maxLength={8}
              value={pin}
              onChange={(event) => setPin(event.target.value)}
            />
            {problem && (
              <p className="notice notice-error" role="alert">
                {problem}
              </p>
            )}
            <div className="dialog-actions">
              <button type="button" className="button button-large" onClick={() => store.getState().answerApproval(null)}>
                Cancel
              </button>
              <button type="submit" className="button button-large button-primary" data-testid="approve-button" disabled={!ready}>
                Approve
              </button>
            </div>
          </div>
        </div>
      </form>
    </Dialog>
  )
}
