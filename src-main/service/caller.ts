/**
 * Who is calling, as every door tells the service: the door, and what authenticates the call there
 * (a counter window's session, a token and its scopes, nexo's SaleID). A door builds a Caller from
 * its transport and nothing more; what a Caller may do is access.ts.
 */
import { createHash } from 'node:crypto'
import type { TokenScope } from '../../src-shared/contract'
import type { SaleOrigin } from '../../src-shared/sale'

/** An integrator token as the service knows it once a door has checked it: never the token itself. */
export interface TokenGrant {
  /** The token's id ("installation" for the agent's own token file). */
  id: string
  name: string
  scopes: readonly TokenScope[]
}

export type Caller =
  /** A cashier window: Electron's, or a browser window opened from a launch link (its session). */
  | { door: 'counter'; session: string }
  /** A customer display window (reads only). */
  | { door: 'display'; session: string }
  /** A POS over the local API, with its token. */
  | { door: 'pos'; token: TokenGrant }
  /** A POS over nexo, with its token and the SaleID of the POS that sent the message. */
  | { door: 'nexo'; token: TokenGrant; saleId: string }
  /**
   * A cash register over ZVT: the grant the terminal's ZVT configuration gives every register (ZVT has
   * no token; its password is an operator guard, docs/zvt.md), and the register's address.
   */
  | { door: 'zvt'; token: TokenGrant; register: string }
  /** The machine owner's command line. */
  | { door: 'cli' }
  /** The first-run setup page (`pos-agent setup`), opened once from its link on this computer. */
  | { door: 'setup' }

/** The machine's owner at the command line. */
export const CLI: Caller = { door: 'cli' }
/** The first-run setup page. */
export const SETUP: Caller = { door: 'setup' }

/** The agent's own token file (`<data folder>/api-token`), readable only by the machine's owner. */
export const INSTALLATION_GRANT: TokenGrant = { id: 'installation', name: 'installation token', scopes: ['admin'] }

/** Who rang a sale up, as the journal keeps it: the counter, or a POS (any integration). */
export function saleOriginOf(caller: Caller): SaleOrigin {
  return caller.door === 'counter' || caller.door === 'display' ? 'counter' : 'pos'
}

/**
 * What the audit trail names as the way in: a token's id, a nexo POS's SaleID, or a window's short
 * fingerprint (never the session secret itself).
 */
export function viaOf(caller: Caller): string | undefined {
  switch (caller.door) {
    case 'counter':
    case 'display':
      return `window:${fingerprint(caller.session)}`
    case 'pos':
      return `token:${caller.token.id}`
    case 'nexo':
      return `token:${caller.token.id} sale:${caller.saleId}`
    case 'zvt':
      return `register:${caller.register}`
    case 'cli':
    case 'setup':
      return undefined
  }
}

/** A short, one-way name for a secret (a session id) that can be written down. */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12)
}

/**
 * Who a caller is for the limits a door keeps per caller (event streams, PIN tries): a window by its
 * session, a token by its id (the same token over the local API and nexo), the command line.
 */
export function callerKey(caller: Caller): string {
  switch (caller.door) {
    case 'counter':
    case 'display':
      return caller.session
    case 'pos':
    case 'nexo':
    case 'zvt':
      return `token:${caller.token.id}`
    case 'cli':
    case 'setup':
      return caller.door
  }
}

/**
 * Who a caller counts under for what a door allows per opener (event streams, connections): a token
 * together with every window opened from it, the machine's owner's windows together (`rootOf`), so
 * that opening windows mints no fresh allowance.
 */
export function openerKey(caller: Caller, rootOf: (session: string) => string): string {
  if (caller.door === 'counter' || caller.door === 'display') return rootOf(caller.session)
  return callerKey(caller)
}

/**
 * The key a caller's PIN tries are limited by: a token (whatever the door), or for a window, what
 * first opened it (`rootOf`: the machine's owner, or a token), so that opening windows from windows
 * mints no fresh tries.
 */
export function pinLimitKey(caller: Caller, rootOf: (session: string) => string): string {
  if (caller.door === 'counter' || caller.door === 'display') return `windows-of:${rootOf(caller.session)}`
  return callerKey(caller)
}
