/**
 * Settings: where payments go and who this terminal is, whether the signing key is present (and its
 * check value). The key field is write-only: it clears itself as soon as it is sent and the key is
 * never shown, stored in the UI state, or logged. A cashier sees what the terminal is and the windows
 * only: the acquirer's ids, the signing key and the POS tokens are a manager's (a terminal without
 * staff shows them to whoever sets it up).
 */
import { useEffect, useId, useState, type FormEvent } from 'react'
import { DisabledReason } from '../../components/DisabledReason'
import { NoticeLine } from '../../components/Notice'
import { signingKeyProblem, usePos, usePosStore } from '../../store'
import { IntegratorTokens } from './IntegratorTokens'
import { PairedWindows } from './PairedWindows'

export function SettingsScreen() {
  const store = usePosStore()
  const fieldId = useId()
  const settings = usePos((s) => s.settings)
  const appInfo = usePos((s) => s.appInfo)
  const saving = usePos((s) => s.keySaving)
  const notice = usePos((s) => s.keyNotice)
  // Staff set up and someone other than a manager signed in: a cashier's Settings.
  const cashier = usePos((s) => s.counter?.required === true && s.counter.operator?.role !== 'manager')
  const [key, setKey] = useState('')
  const problem = key === '' ? null : signingKeyProblem(key)

  useEffect(() => {
    void store.getState().refreshSettings()
  }, [store])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (signingKeyProblem(key) !== null || saving) return
    const value = key
    setKey('')
    void store.getState().setSigningKey(value)
  }

  const managerPart = (
    <>
      <dl className="facts facts-wide" data-testid="settings-bank">
        <div>
          <dt>Bank address</dt>
          <dd data-testid="settings-host">{settings?.offlineBaseUrl ?? '—'}</dd>
        </div>
        <div>
          <dt>Acquirer id (AID)</dt>
          <dd>{settings?.aid ?? '—'}</dd>
        </div>
        <div>
          <dt>Store id</dt>
          <dd>{settings?.storeId ?? '—'}</dd>
        </div>
        <div>
          <dt>Merchant id</dt>
          <dd>{settings?.merchantId ?? '—'}</dd>
        </div>
        <div>
          <dt>Signing key</dt>
          <dd data-testid="signing-key-status">
            {!settings
              ? '—'
              : settings.signingKey.present
                ? `Stored (check value ${settings.signingKey.kcv ?? 'unknown'}, to compare with the acquirer's)`
                : 'Not stored'}
          </dd>
        </div>
      </dl>
      <form className="key-form" onSubmit={submit} autoComplete="off">
        <h3>Replace the signing key</h3>
        <label htmlFor={fieldId}>New signing key from the acquirer (32 characters)</label>
        <input
          id={fieldId}
          type="password"
          className="key-input"
          data-testid="signing-key-input"
          autoComplete="off"
          spellCheck={false}
          value={key}
          aria-invalid={problem !== null}
          aria-describedby={`${fieldId}-problem`}
          onChange={(event) => setKey(event.target.value)}
        />
        <p id={`${fieldId}-problem`} className="field-message field-error">
          {problem ?? ''}
        </p>
        <button
          type="submit"
          className="button button-large button-primary"
          data-testid="save-signing-key-button"
          disabled={saving || signingKeyProblem(key) !== null}
          aria-describedby={saving || key === '' ? `${fieldId}-why` : problem !== null ? `${fieldId}-problem` : undefined}
        >
          {saving ? 'Storing the key…' : 'Store the key'}
        </button>
        {/* An empty field says nothing under it; the greyed-out button says what it waits for. */}
        <DisabledReason id={`${fieldId}-why`} reason={saving ? 'Storing the key…' : key === '' ? signingKeyProblem(key) : null} />
        <NoticeLine notice={notice} testId="signing-key-notice" />
      </form>
      <IntegratorTokens />
    </>
  )

  return (
    <section className="screen" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <dl className="facts facts-wide" data-testid="settings-summary">
        <div>
          <dt>Mode</dt>
          <dd>{appInfo?.mode === 'training' ? 'Training (nothing is charged)' : 'Production'}</dd>
        </div>
        <div>
          <dt>Currency</dt>
          <dd>{appInfo?.currency ?? '—'}</dd>
        </div>
        <div>
          <dt>Terminal id</dt>
          <dd>{settings?.terminalId ?? appInfo?.terminalId ?? '—'}</dd>
        </div>
        <div>
          <dt>Tip tolerance</dt>
          <dd>{appInfo ? `${appInfo.tipTolerancePercent}%` : '—'}</dd>
        </div>
      </dl>
      {cashier ? (
        // A cashier's Settings: the manager's part folded away (a manager at the counter opens it and
        // approves with their PIN), so none of its words are in the cashier's way.
        <details className="manager-settings" data-testid="manager-settings">
          <summary data-testid="settings-manager-only">
            For a manager: the bank&apos;s details, the payment key and the POS connections
          </summary>
          {managerPart}
        </details>
      ) : (
        managerPart
      )}
      <PairedWindows />
    </section>
  )
}
