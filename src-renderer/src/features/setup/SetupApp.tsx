/**
 * First-run setup as a whole page: the acquirer's settings and signing key, the store, the first
 * manager, then the terminal's checks in plain words and whether it is ready to take cards.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { SetupAnswer, SetupField, SetupForm, SetupProblems, SetupState } from '../../../../src-shared/setup-form'
import { loadSetupState, submitSetup } from './setup-api'
import { APPROVER_FIELDS, FieldGroup, HOST_FIELDS, MANAGER_FIELDS, STORE_FIELDS } from './SetupFields'
import { SetupResults } from './SetupResults'

export function SetupApp() {
  const [state, setState] = useState<SetupState | 'loading' | 'closed'>('loading')
  const [form, setForm] = useState<SetupForm>({ currency: 'USD' })
  const [problems, setProblems] = useState<SetupProblems>({})
  const [answer, setAnswer] = useState<Extract<SetupAnswer, { ok: true }>>()
  const [busy, setBusy] = useState(false)
  const summary = useRef<HTMLParagraphElement>(null)

  useEffect(() => {
    document.title = 'Set up this terminal'
    void loadSetupState().then((loaded) => {
      setState(loaded ?? 'closed')
      if (loaded) setForm((current) => ({ ...current, ...loaded.values }))
    })
  }, [])

  const change = (name: SetupField, value: string) => setForm((current) => ({ ...current, [name]: value }))

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setAnswer(undefined)
    const result = await submitSetup(form)
    setBusy(false)
    if (result.ok) {
      setProblems({})
      setAnswer(result)
      // The key and PINs leave the page once they are stored.
      setForm((current) => ({ ...current, signingKey: '', managerPin: '', approverPin: '' }))
      setState((current) => (typeof current === 'object' ? { ...current, needsFirstManager: false, needsApproval: true } : current))
    } else setProblems(result.problems)
    summary.current?.focus()
  }

  if (state === 'loading') return <main className="setup-page">Loading…</main>
  if (state === 'closed')
    return (
      <main className="setup-page">
        <h1>Set up this terminal</h1>
        <p>This page must be opened from the link that the setup program printed. Start it again to get a new link.</p>
      </main>
    )
  const count = Object.keys(problems).length
  // The keychain first: without it the signing key cannot be kept, so nothing typed could be saved.
  if (!state.keychain.ok)
    return (
      <main className="setup-page">
        <h1>Set up this terminal</h1>
        <section className="notice notice-error setup-keychain" role="alert" data-testid="setup-keychain" aria-labelledby="keychain-title">
          <h2 id="keychain-title">This computer has no working keychain yet</h2>
          <p>The terminal keeps its signing key in the computer&apos;s keychain. Fix this first; the form comes after.</p>
          <p data-testid="setup-keychain-what">{state.keychain.text}</p>
          {state.keychain.fix && (
            <p data-testid="setup-keychain-fix">
              <strong>To fix it:</strong> {state.keychain.fix}
            </p>
          )}
          <button
            type="button"
            className="button button-primary button-large"
            data-testid="setup-keychain-again"
            disabled={busy}
            onClick={() => {
              setBusy(true)
              void loadSetupState().then((loaded) => {
                setBusy(false)
                if (loaded) setState(loaded)
              })
            }}
          >
            {busy ? 'Checking…' : 'Check again'}
          </button>
        </section>
      </main>
    )
  return (
    <main className="setup-page">
      <h1>Set up this terminal</h1>
      <p className="hint" data-testid="setup-keychain-ok">
        Keychain: {state.keychain.text}. The settings are saved in {state.configFile}.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <FieldGroup title="Acquirer" fields={HOST_FIELDS} form={form} problems={problems} onChange={change} />
        <FieldGroup title="Store and terminal" fields={STORE_FIELDS} form={form} problems={problems} onChange={change} />
        {state.needsFirstManager && (
          <FieldGroup
            title="First manager"
            intro="The manager signs in, approves returns and adds the other staff."
            fields={MANAGER_FIELDS}
            form={form}
            problems={problems}
            onChange={change}
          />
        )}
        {state.needsApproval && (
          <FieldGroup
            title="Manager approval"
            intro="This terminal is set up already. A manager must approve changing its settings."
            fields={APPROVER_FIELDS}
            form={form}
            problems={problems}
            onChange={change}
          />
        )}
        <p
          ref={summary}
          tabIndex={-1}
          role="status"
          data-testid="setup-summary"
          className={count > 0 || problems.form ? 'field-error' : undefined}
        >
          {problems.form ?? (count > 0 ? `Nothing was saved. Fix the ${count === 1 ? 'field' : `${count} fields`} marked above.` : '')}
        </p>
        <div className="form-actions">
          <button type="submit" className="button button-primary button-large" disabled={busy} data-testid="setup-save">
            {busy ? 'Saving and checking…' : 'Save and check'}
          </button>
        </div>
      </form>
      {answer && <SetupResults answer={answer} />}
    </main>
  )
}
