/**
 * Which token a door was shown: the installation token (every scope) or an integrator token in force
 * (its own scopes). Compared in constant time over SHA-256 digests, which are always 32 bytes: a
 * token of any length or characters (a header may carry any Latin-1 byte) is simply not the token,
 * never an error. A door passes on only the grant, never the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { INSTALLATION_GRANT, type TokenGrant } from './caller'
import type { IntegratorTokens } from './integrator-tokens'

export class TokenCheck {
  private readonly installation: Buffer

  constructor(
    installation: string,
    private readonly tokens?: Pick<IntegratorTokens, 'verify'>,
  ) {
    this.installation = digest(installation)
  }

  /** The grant `given` carries, or undefined for a token that is not (or no longer) one. */
  grantOf(given: string): TokenGrant | undefined {
    if (timingSafeEqual(digest(given), this.installation)) return INSTALLATION_GRANT
    return this.tokens?.verify(given)
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest()
}
