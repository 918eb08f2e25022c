/**
 * Settings → Integrator tokens: a manager gives each POS its own token, sees when each was last
 * used, and revokes one without touching the others. A new token is shown once, here, to be copied
 * into the POS; the agent keeps only its hash.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DisabledReason } from '../../components/DisabledReason'
import { NoticeLine } from '../../components/Notice'
import { dateTimeText } from '../../components/time-text'
import { Dialog, DialogTitle } from '../../components/Dialog'
import { usePos, usePosStore } from '../../store'
import type { IntegratorTokenView, TokenScope } from '../../../../src-shared/contract'
import { DEFAULT_SCOPES, ScopeChoice, scopesText } from './ScopeChoice'

export function IntegratorTokens() {
  const store = usePosStore()
  const fieldId = useId()
  const tokens = usePos((s) => s.integratorTokens)
  const newToken = usePos((s) => s.newToken)
  const busy = usePos((s) => s.tokenBusy)
  const notice = usePos((s) => s.tokenNotice)
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<TokenScope[]>(DEFAULT_SCOPES)
  const [revoking, setRevoking] = useState<IntegratorTokenView | null>(null)
  /** The token whose Done was just pressed: its row takes the focus, in view, once the dialog is gone. */
  const [justMade, setJustMade] = useState<string | null>(null)

  useEffect(() => {
    void store.getState().refreshTokens()
  }, [store])

  // After the dialog's own focus handling (it runs first, as the dialog leaves), so the row keeps it.
  useEffect(() => {
    if (justMade === null) return
    const row = document.getElementById(`${fieldId}-row-${justMade}`)
    if (!row) return
    row.focus()
    row.scrollIntoView({ block: 'nearest' })
    setJustMade(null)
  }, [justMade, tokens, fieldId])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (name.trim() === '' || scopes.length === 0 || busy) return
    void store
      .getState()
      .createToken(name.trim(), scopes)
      .then((made) => {
        if (!made) return
        setName('')
        setScopes(DEFAULT_SCOPES)
      })
  }
  const inForce = tokens.filter((token) => token.revokedAt === undefined)

  return (
    <section className="tokens" aria-labelledby={`${fieldId}-title`} data-testid="integrator-tokens">
      <h3 id={`${fieldId}-title`}>POS connections (tokens)</h3>
      <p className="field-message">Each POS connected to this terminal gets its own token. Revoke one to cut that POS off.</p>
      {newToken && (
        <NewTokenDialog
          name={newToken.name}
          token={newToken.token}
          onDone={() => {
            setJustMade(newToken.id)
            store.getState().dismissNewToken()
          }}
        />
      )}
      {inForce.length === 0 ? (
        <p data-testid="no-tokens">No integrator token yet.</p>
      ) : (
        <ul className="token-list" data-testid="token-list">
          {inForce.map((token) => (
            <li key={token.id} id={`${fieldId}-row-${token.id}`} className="token-row" tabIndex={-1} data-testid={`token-${token.name}`}>
              <span className="token-name">{token.name}</span>
              <span className="token-when">
                Made {dateTimeText(token.createdAt)} ·{' '}
                {token.lastUsedAt === undefined ? 'never used' : `last used ${dateTimeText(token.lastUsedAt)}`}
              </span>
              <span className="token-when" data-testid={`token-scopes-${token.name}`}>
                It may: {scopesText(token.scopes)}
              </span>
              <button type="button" className="button" disabled={busy} onClick={() => setRevoking(token)}>
                Revoke {token.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="token-form" onSubmit={submit} autoComplete="off">
        <label htmlFor={fieldId}>New token for (the POS it is for)</label>
        <input
          id={fieldId}
          className="token-name-input"
          data-testid="token-name-input"
          maxLength={64}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <ScopeChoice scopes={scopes} onChange={setScopes} />
        <button
          type="submit"
          className="button button-primary"
          data-testid="create-token-button"
          disabled={busy || name.trim() === '' || scopes.length === 0}
          aria-describedby={busy || name.trim() === '' || scopes.length === 0 ? `${fieldId}-why` : undefined}
        >
          Make a token
        </button>
        <DisabledReason
          id={`${fieldId}-why`}
          reason={
            busy
              ? 'Working…'
              : name.trim() === ''
                ? 'Type what the token is for first.'
                : scopes.length === 0
                  ? 'Tick at least one thing it may do.'
                  : null
          }
        />
      </form>
      <NoticeLine notice={notice} testId="token-notice" />
      {revoking && (
        <ConfirmDialog
          title={`Revoke the token for ${revoking.name}?`}
          confirmLabel="Revoke"
          cancelLabel="Keep it"
          busy={busy}
          testId="revoke-token-dialog"
          onConfirm={() => {
            const id = revoking.id
            setRevoking(null)
            void store.getState().revokeToken(id)
          }}
          onCancel={() => setRevoking(null)}
        >
          That POS can no longer start or look up sales on this terminal until it gets a new token.
        </ConfirmDialog>
      )}
    </section>
  )
}

/**
 * The new token, over the page: shown only this once, so it is never below the fold of a long
 * Settings screen (a small terminal display, 800x480) and the manager leaves it only by saying it
 * was copied. Focus starts on the token, so an early Enter does not throw it away.
 */
function NewTokenDialog({ name, token, onDone }: { name: string; token: string; onDone(): void }) {
  const bodyId = useId()
  const tokenRef = useRef<HTMLElement>(null)
  // No onEscape: Escape does not close it, the token cannot be shown again.
  return (
    <Dialog className="new-token" testId="new-token" describedBy={bodyId} initialFocus={tokenRef}>
      <DialogTitle>Token for {name}</DialogTitle>
      <p id={bodyId}>Copy it into the POS now: it is shown only this once.</p>
      <code ref={tokenRef} className="token-text" data-testid="new-token-text" tabIndex={0}>
        {token}
      </code>
      <div className="dialog-actions">
        <button type="button" className="button button-large button-primary" data-testid="new-token-done" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
    </Dialog>
  )
}
