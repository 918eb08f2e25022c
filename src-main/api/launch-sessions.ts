/**
 * Who may use the cashier UI in a browser. Loading the page is not enough: any local process can load
 * it. A window is opened from a launch link, `/?launch=<nonce>` (or `/customer?launch=…`), that `serve`
 * prints at start (and `npm start` shows) or that an integrator holding the API token asks for
 * (`POST /v1/launch`). The nonce is good once, for ten minutes; redeemed, it becomes a session: a
 * random id in an HttpOnly, SameSite=Strict cookie, never the API token. A session for the customer
 * display may only read (DISPLAY_OPERATIONS). Sessions live as long as this process: after a restart
 * the cashier opens the new link.
 */
import { randomBytes } from 'node:crypto'

export type SessionView = 'cashier' | 'customer'

export const LAUNCH_TTL_MS = 10 * 60_000

interface Launch {
  view: SessionView
  expiresAt: number
}

export class LaunchSessions {
  private readonly launches = new Map<string, Launch>()
  private readonly sessions = new Map<string, SessionView>()

  constructor(private readonly now: () => number = Date.now) {}

  /** A new one-time nonce for a window of `view`. */
  issue(view: SessionView = 'cashier'): string {
    this.forgetExpired()
    const nonce = randomBytes(24).toString('base64url')
    this.launches.set(nonce, { view, expiresAt: this.now() + LAUNCH_TTL_MS })
    return nonce
  }

  /** The session a nonce opens, once; undefined for a nonce unknown, used or expired. */
  redeem(nonce: string): { id: string; view: SessionView } | undefined {
    const launch = this.launches.get(nonce)
    this.launches.delete(nonce)
    if (!launch || launch.expiresAt <= this.now()) return undefined
    const id = randomBytes(32).toString('base64url')
    this.sessions.set(id, launch.view)
    return { id, view: launch.view }
  }

  /** What a session cookie opens, if it is one of this process's sessions. */
  sessionView(id: string | undefined): SessionView | undefined {
    return id === undefined ? undefined : this.sessions.get(id)
  }

  private forgetExpired(): void {
    const now = this.now()
    for (const [nonce, launch] of this.launches) if (launch.expiresAt <= now) this.launches.delete(nonce)
  }
}
