/**
 * Which token a door was shown: the installation token (every scope) or an integrator token in force
 * (its own scopes). Compared in constant time, as bytes: a header may carry any Latin-1 character,
 * which is one character but two bytes in UTF-8, so the lengths compared are the bytes' (the
 * installation token's length is no secret: every one has the same), and a token of any length or
 * characters is simply not the token, never an error. A door passes on only the grant, never the token.
 */
import { timingSafeEqual } from 'node:crypto'
import { INSTALLATION_GRANT, type TokenGrant } from './caller'
import type { IntegratorTokens } from './integrator-tokens'

export class TokenCheck {
  private readonly installation: Buffer

  constructor(
    installation: string,
    private readonly tokens?: Pick<IntegratorTokens, 'verify'>,
  ) {
    this.installation = Buffer.from(installation, 'utf8')
  }

  /** The grant `given` carries, or undefined for a token that is not (or no longer) one. */
  grantOf(given: string): TokenGrant | undefined {
    const bytes = Buffer.from(given, 'utf8')
    if (bytes.length === this.installation.length && timingSafeEqual(bytes, this.installation)) return INSTALLATION_GRANT
    return this.tokens?.verify(given)
  }
}
