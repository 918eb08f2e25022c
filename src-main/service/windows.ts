/**
 * Who may use the cashier UI in a browser. Loading the page is not enough: any local process can load
 * it. A window is opened from a launch link, `/?launch=<nonce>` (or `/customer?launch=…`), that `serve`
 * prints at start for the machine's owner, or that `openCashierWindow` / `openCustomerDisplay` give
 * (access.ts says who may ask: a cashier window needs the `admin` scope or a cashier window). The
 * nonce is good once, for ten minutes; redeemed, it becomes a session: a random id in an HttpOnly,
 * SameSite=Strict cookie, never a token. Each session remembers what opened it, and ends when that
 * ends: a token revoked, or the window it was opened from. A session unused for a day ends too.
 * Sessions live as long as this process: after a restart the cashier opens the new link.
 */
import { randomBytes } from 'node:crypto'

export type SessionView = 'cashier' | 'customer'

export const LAUNCH_TTL_MS = 10 * 60_000
/** A window session unused this long has ended. */
export const WINDOW_IDLE_MS = 24 * 60 * 60_000

/** What opened a window: the machine's owner (serve's own link, the installation token), a token, another window. */
export type WindowOpener = { kind: 'owner' } | { kind: 'token'; id: string } | { kind: 'window'; session: string }

interface Launch {
  view: SessionView
  openedBy: WindowOpener
  expiresAt: number
}

interface Session {
  view: SessionView
  openedBy: WindowOpener
  lastSeenAt: number
}

export interface WindowEvents {
  /** A session began (a launch link redeemed). */
  opened?(session: string, view: SessionView, openedBy: WindowOpener): void
  /** A session ended: revoked with what opened it, or idle too long. */
  closed?(session: string, why: 'openerRevoked' | 'idle'): void
}

export class WindowSessions {
  private readonly launches = new Map<string, Launch>()
  private readonly sessions = new Map<string, Session>()

  constructor(
    private readonly now: () => number = Date.now,
    private readonly events: WindowEvents = {},
  ) {}

  /** A new one-time nonce for a window of `view`. */
  issue(view: SessionView, openedBy: WindowOpener): string {
    this.forgetExpired()
    const nonce = randomBytes(24).toString('base64url')
    this.launches.set(nonce, { view, openedBy, expiresAt: this.now() + LAUNCH_TTL_MS })
    return nonce
  }

  /** The session a nonce opens, once; undefined for a nonce unknown, used or expired, or whose opener has ended. */
  redeem(nonce: string): { id: string; view: SessionView } | undefined {
    const launch = this.launches.get(nonce)
    this.launches.delete(nonce)
    if (!launch || launch.expiresAt <= this.now()) return undefined
    if (launch.openedBy.kind === 'window' && !this.sessions.has(launch.openedBy.session)) return undefined
    const id = randomBytes(32).toString('base64url')
    this.sessions.set(id, { view: launch.view, openedBy: launch.openedBy, lastSeenAt: this.now() })
    this.events.opened?.(id, launch.view, launch.openedBy)
    return { id, view: launch.view }
  }

  /** What a session cookie opens, if it is a live session of this process; notes that it was used. */
  sessionView(id: string | undefined): SessionView | undefined {
    if (id === undefined) return undefined
    const session = this.sessions.get(id)
    if (!session) return undefined
    const now = this.now()
    if (now - session.lastSeenAt >= WINDOW_IDLE_MS) {
      this.end(id, 'idle')
      return undefined
    }
    session.lastSeenAt = now
    return session.view
  }

  /** Token `tokenId` was revoked: every window it opened ends, and every window opened from those. */
  tokenRevoked(tokenId: string): void {
    for (const [id, session] of [...this.sessions])
      if (session.openedBy.kind === 'token' && session.openedBy.id === tokenId) this.end(id, 'openerRevoked')
    for (const [nonce, launch] of [...this.launches])
      if (launch.openedBy.kind === 'token' && launch.openedBy.id === tokenId) this.launches.delete(nonce)
  }

  private end(id: string, why: 'openerRevoked' | 'idle'): void {
    if (!this.sessions.delete(id)) return
    this.events.closed?.(id, why)
    for (const [child, session] of [...this.sessions])
      if (session.openedBy.kind === 'window' && session.openedBy.session === id) this.end(child, why)
  }

  private forgetExpired(): void {
    const now = this.now()
    for (const [nonce, launch] of this.launches) if (launch.expiresAt <= now) this.launches.delete(nonce)
  }
}
