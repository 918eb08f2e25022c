/**
 * The counter's first screen once the terminal has operators: operator number and PIN. Nothing of
 * the last operator's work is on screen until someone signs in.
 */
import { useId, useState, type FormEvent } from 'react'
import { DisabledReason } from '../../components/DisabledReason'
import { usePos, usePosStore } from '../../store'

export function SignInScreen() {
  const store = usePosStore()
  const id = useId()
  const signingIn = usePos((s) => s.signingIn)
  const problem = usePos((s) => s.signInProblem)
  const [operatorId, setOperatorId] = useState('')
  const [pin, setPin] = useState('')
  const missing = operatorId.trim() === '' ? 'Type your operator number.' : pin === '' ? 'Type your PIN.' : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (missing !== null || signingIn) return
    const typed = pin
    setPin('')
    void store.getState().signIn(operatorId.trim(), typed)
  }

  return (
    <main className="app-loading sign-in" aria-labelledby={`${id}-title`}>
      <form className="sign-in-form" onSubmit={submit} autoComplete="off" data-testid="sign-in-form">
        <h2 id={`${id}-title`} className="sign-in-title">
          Sign in
        </h2>
        <label htmlFor={`${id}-operator`}>Operator number</label>
        <input
          id={`${id}-operator`}
          data-testid="operator-id-input"
          // The first key a cashier presses is their number: it goes here.
          autoFocus
          inputMode="numeric"
          autoComplete="off"
          maxLength={16}
          value={operatorId}
          onChange={(event) => setOperatorId(event.target.value)}
        />
        <label htmlFor={`${id}-pin`}>PIN</label>
        <input
          id={`${id}-pin`}
          data-testid="operator-pin-input"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          value={pin}
          onChange={(event) => setPin(event.target.value)}
        />
        {problem && (
          <p className="notice notice-error" role="alert" data-testid="sign-in-problem">
            {problem}
          </p>
        )}
        <button
          type="submit"
          className="button button-large button-primary"
          data-testid="sign-in-button"
          disabled={signingIn || missing !== null}
          aria-describedby={signingIn || missing !== null ? `${id}-why` : undefined}
        >
          {signingIn ? 'Signing in…' : 'Sign in'}
        </button>
        <DisabledReason id={`${id}-why`} reason={signingIn ? 'Checking the PIN…' : missing} />
      </form>
    </main>
  )
}
