/**
 * Which token a door was shown: the installation token (every scope) or an integrator token in force
 * (its own scopes). Compared in constant time; a door passes on only the grant, never the token.
 */
import { timingSafeEqual } from 'node:crypto'
import { INSTALLATION_GRANT, type TokenGrant } from './caller'
import type { IntegratorTokens } from './integrator-tokens'

export class TokenCheck {
  constructor(
    private readonly installation: string,
    private readonly tokens?: Pick<IntegratorTokens, 'verify'>,
  ) {}

  /** The grant `given` carries, or undefined for a token that is not (or no longer) one. */
  grantOf(given: string): TokenGrant | undefined {
    const installation = given.length === this.installation.length && timingSafeEqual(Buffer.from(given), Buffer.from(this.installation))
    if (installation) return INSTALLATION_GRANT
    return this.tokens?.verify(given)
  }
}
