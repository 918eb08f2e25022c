/**
 * What a new integrator token may do, chosen by the manager who makes it, in a manager's words: the
 * scopes of src-shared/contract/access.ts. A POS's everyday work (looking up, taking payments) is
 * ticked; refunds and managing the terminal are the manager's choice, the latter with a warning.
 */
import { useId } from 'react'
import { DEFAULT_TOKEN_SCOPES, TOKEN_SCOPES, type TokenScope } from '../../../../src-shared/contract'

/** Each scope in words, as the token list shows it too. */
export const SCOPE_WORDS: Readonly<Record<TokenScope, string>> = {
  read: 'Look up sales and reports',
  sell: 'Take payments, voids and tips',
  refund: 'Give refunds',
  admin: 'Manage this terminal (signing key, staff, tokens)',
}

export const DEFAULT_SCOPES: TokenScope[] = [...DEFAULT_TOKEN_SCOPES]

export function ScopeChoice({ scopes, onChange }: { scopes: TokenScope[]; onChange(scopes: TokenScope[]): void }) {
  const legendId = useId()
  const toggle = (scope: TokenScope, on: boolean) => onChange(TOKEN_SCOPES.filter((s) => (s === scope ? on : scopes.includes(s))))
  return (
    <fieldset className="token-scopes" aria-labelledby={legendId} data-testid="token-scopes">
      <legend id={legendId}>It may</legend>
      {TOKEN_SCOPES.map((scope) => (
        <label key={scope} className="token-scope">
          <input
            type="checkbox"
            data-testid={`token-scope-${scope}`}
            checked={scopes.includes(scope)}
            onChange={(event) => toggle(scope, event.target.checked)}
          />
          {SCOPE_WORDS[scope]}
        </label>
      ))}
      {scopes.includes('admin') && (
        <p className="field-message" role="note" data-testid="token-admin-warning">
          A POS with this can change the signing key and the staff of this terminal. Give it only to software you trust as a manager.
        </p>
      )}
    </fieldset>
  )
}

/** A token's scopes in words, for its row in the list. */
export function scopesText(scopes: readonly TokenScope[]): string {
  return scopes.map((scope) => SCOPE_WORDS[scope].toLowerCase()).join('; ')
}
