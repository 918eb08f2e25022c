/**
 * Who may use the cashier UI in a browser. Loading the page is not enough: any local process can load
 * it. A window is opened from a launch link, `/?launch=<nonce>` (or `/customer?launch=…`), that `serve`
 * prints at start for the machine's owner, or that `openCashierWindow` / `openCustomerDisplay` give
 * (access.ts says who may ask: a cashier window needs the `admin` scope or a cashier window). The
 * nonce is good once, for ten minutes; redeemed, it becomes a session: a random id in an HttpOnly,
 * SameSite=Strict cookie, never a token. Each session remembers what opened it, and ends when that
 * ends: a token revoked, or the window it was opened from; a manager can revoke one from Settings.
 * A session unused for a week ends too. Sessions are paired windows: kept in the journal by the
 * SHA-256 of their secret, they survive the agent's restarts, so a window reconnects by itself.
 * Windows are counted per opener and per root opener (a token and every window opened from its
 * windows): each is a caller with its own allowance of event streams and connections, so a token
 * that could open them without end could take every connection of the agent. Past the count, the
 * opener's longest-unused window makes room if it is not in use; otherwise the new one is refused.
 */
import { createHash, randomBytes } from 'node:crypto'
import { PosError } from '../../src-shared/errors'
import type { WindowRecord } from '../journal'

export type SessionView = 'cashier' | 'customer'

export const LAUNCH_TTL_MS = 10 * 60_000
/** A window session unused this long has ended (a counter closed over a long weekend still reconnects). */
export const WINDOW_IDLE_MS = 7 * 24 * 60 * 60_000
/** How often a window's "last seen" is written to the journal (kept in memory in between). */
const SEEN_WRITE_MS = 60_000
/**
 * Live windows one opener keeps at once (and launch links not yet opened): a token's customer
 * displays, a cashier window's displays, and the machine's owner's own windows (a counter needs a
 * cashier window and a display, kept across restarts and the odd reopened browser).
 */
export const WINDOWS_PER_OPENER = { token: 4, window: 4, owner: 8 } as const
/** Live windows in all under one root opener: a token or the machine's owner, with every window opened from its windows. */
export const WINDOWS_PER_ROOT = 16
/**
 * A window seen this recently (a call, its page, a heartbeat of its open event stream) is in use: it
 * is never ended to make room for a new one.
 */
export const WINDOW_IN_USE_MS = 2 * 60_000

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
  createdAt: number
  lastSeenAt: number
  /** When lastSeenAt was last written to the journal. */
  writtenAt: number
}

/** Where paired windows are kept between restarts (the journal's window_session table). */
export interface WindowPersistence {
  add(record: WindowRecord): void
  live(): WindowRecord[]
  seen(hash: string, at: number): void
  end(hash: string, at: number, why: string): void
}

/** A window as Settings lists it: never its secret. */
export interface WindowView {
  /** A short, one-way name for the window (the start of its secret's hash). */
  id: string
  view: SessionView
  openedBy: WindowOpener
  createdAt: number
  lastSeenAt: number
}

type EndReason = 'openerRevoked' | 'idle' | 'revoked' | 'replaced'

/** Why a launch link opened nothing: unknown, used or expired (or its opener ended), or its opener has every window it may keep in use. */
export type RedeemRefusal = 'unknown' | 'tooManyWindows'

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex')
/** A window's listed id: the first 12 hex digits of its hash (the audit trail's window:… too). */
const idOf = (hash: string): string => hash.slice(0, 12)

export interface WindowEvents {
  /** A session began (a launch link redeemed). */
  opened?(session: string, view: SessionView, openedBy: WindowOpener): void
  /**
   * A session ended: revoked with what opened it or by a manager, or idle too long. `id` is its listed
   * id; `session` its secret, when this process saw it (the door's streams are keyed by it).
   */
  closed?(id: string, session: string | undefined, why: EndReason, view: SessionView): void
}

export class WindowSessions {
  private readonly launches = new Map<string, Launch>()
  /** Live sessions by the hash of their secret. */
  private readonly sessions = new Map<string, Session>()
  /** The secret of each session this process saw, by hash: what the door's streams are keyed by. */
  private readonly secrets = new Map<string, string>()

  constructor(
    private readonly now: () => number = Date.now,
    private readonly events: WindowEvents = {},
    private readonly store?: WindowPersistence,
    /** Whether what opened a window is still there (a token not revoked), for windows kept from before a restart. */
    openerAlive: (opener: WindowOpener) => boolean = () => true,
  ) {
    const at = now()
    for (const record of store?.live() ?? []) {
      const openedBy = JSON.parse(record.openedBy) as WindowOpener
      const session = {
        view: record.view,
        openedBy,
        createdAt: record.createdAt,
        lastSeenAt: record.lastSeenAt,
        writtenAt: record.lastSeenAt,
      }
      if (at - record.lastSeenAt >= WINDOW_IDLE_MS) store!.end(record.hash, at, 'idle')
      else if (!openerAlive(openedBy)) store!.end(record.hash, at, 'openerRevoked')
      else this.sessions.set(record.hash, session)
    }
    // A window opened from a window that is gone is gone too.
    for (const [hash, session] of [...this.sessions])
      if (session.openedBy.kind === 'window' && !this.sessions.has(session.openedBy.session)) this.endHash(hash, 'openerRevoked')
  }

  /**
   * A new one-time nonce for a window of `view`. Refused (TOO_MANY_WINDOWS) when the opener already
   * has every window it may keep, all in use, unless `whenFull` is `issue` (the link `serve` prints at
   * start: it is checked when opened). An opener keeps as many links not yet opened as windows (its
   * oldest is dropped for a new one), so minting links holds nothing either.
   */
  issue(view: SessionView, openedBy: WindowOpener, whenFull: 'refuse' | 'issue' = 'refuse'): string {
    this.forgetExpired()
    const opener = this.stored(openedBy)
    if (whenFull === 'refuse' && this.roomFor(opener) === undefined) throw tooManyWindows(opener)
    const pending = [...this.launches].filter(([, launch]) => sameOpener(launch.openedBy, opener))
    for (const [nonce] of pending.slice(0, Math.max(0, pending.length - this.capOf(opener) + 1))) this.launches.delete(nonce)
    const nonce = randomBytes(24).toString('base64url')
    this.launches.set(nonce, { view, openedBy: opener, expiresAt: this.now() + LAUNCH_TTL_MS })
    return nonce
  }

  /**
   * The session a nonce opens, once; undefined for a nonce unknown, used or expired, or whose opener
   * has ended (`refused` is told `unknown`), or when the opener's windows are all in use
   * (`tooManyWindows`). Making room ends the opener's longest-unused window that is not in use.
   */
  redeem(nonce: string, refused: (why: RedeemRefusal) => void = () => {}): { id: string; view: SessionView } | undefined {
    const launch = this.launches.get(nonce)
    this.launches.delete(nonce)
    if (!launch || launch.expiresAt <= this.now() || (launch.openedBy.kind === 'window' && !this.sessions.has(launch.openedBy.session)))
      return void refused('unknown')
    const room = this.roomFor(launch.openedBy)
    if (room === undefined) return void refused('tooManyWindows')
    if (room !== 'free') this.endHash(room, 'replaced')
    const id = randomBytes(32).toString('base64url')
    const hash = hashOf(id)
    const now = this.now()
    const session: Session = { view: launch.view, openedBy: launch.openedBy, createdAt: now, lastSeenAt: now, writtenAt: now }
    this.store?.add({ hash, view: session.view, openedBy: JSON.stringify(session.openedBy), createdAt: now, lastSeenAt: now })
    this.sessions.set(hash, session)
    this.secrets.set(hash, id)
    this.events.opened?.(id, launch.view, launch.openedBy)
    return { id, view: launch.view }
  }

  /** What a session cookie opens, if it is a live session; notes that it was used. */
  sessionView(id: string | undefined): SessionView | undefined {
    if (id === undefined) return undefined
    const hash = hashOf(id)
    const session = this.sessions.get(hash)
    if (!session) return undefined
    this.secrets.set(hash, id)
    const now = this.now()
    if (now - session.lastSeenAt >= WINDOW_IDLE_MS) {
      this.endHash(hash, 'idle')
      return undefined
    }
    session.lastSeenAt = now
    if (now - session.writtenAt >= SEEN_WRITE_MS) {
      session.writtenAt = now
      this.store?.seen(hash, now)
    }
    return session.view
  }

  /**
   * What first opened the chain of windows `id` belongs to: the machine's owner, or a token. Windows
   * opened from windows share their root's limits (a window cannot mint fresh PIN tries).
   */
  rootOf(id: string): string {
    let session = this.sessions.get(hashOf(id))
    for (let depth = 0; session?.openedBy.kind === 'window' && depth < 64; depth++) session = this.sessions.get(session.openedBy.session)
    if (session?.openedBy.kind === 'token') return `token:${session.openedBy.id}`
    return 'owner'
  }

  /**
   * Whether one more window of `opener` fits: `free`, or the hash of the window to end for it (the
   * longest unused of the opener's, or of its root's, that is not in use); undefined when none may go.
   */
  private roomFor(opener: WindowOpener): 'free' | string | undefined {
    const now = this.now()
    const root = this.rootOfOpener(opener)
    const own: Array<[string, Session]> = []
    const underRoot: Array<[string, Session]> = []
    for (const entry of this.sessions) {
      if (sameOpener(entry[1].openedBy, opener)) own.push(entry)
      if (this.rootOfOpener(entry[1].openedBy) === root) underRoot.push(entry)
    }
    const full = own.length >= this.capOf(opener) ? own : underRoot.length >= WINDOWS_PER_ROOT ? underRoot : undefined
    if (!full) return 'free'
    const [hash, session] = full.reduce((a, b) => (b[1].lastSeenAt < a[1].lastSeenAt ? b : a))
    // The machine's owner (the installation token, serve's own link) is trusted with the whole agent:
    // its new window always finds room, in place of its longest-unused one (a tab closed a moment ago).
    if (opener.kind === 'owner' && full === own) return hash
    return now - session.lastSeenAt >= WINDOW_IN_USE_MS ? hash : undefined
  }

  private capOf(opener: WindowOpener): number {
    return WINDOWS_PER_OPENER[opener.kind]
  }

  /** The root key of a window opened by `opener` (as rootOf says it): `owner` or `token:<id>`. */
  private rootOfOpener(opener: WindowOpener): string {
    let current: WindowOpener | undefined = opener
    for (let depth = 0; current?.kind === 'window' && depth < 64; depth++) current = this.sessions.get(current.session)?.openedBy
    return current?.kind === 'token' ? `token:${current.id}` : 'owner'
  }

  /** The live windows, oldest first (Settings, for a manager). */
  list(): WindowView[] {
    return [...this.sessions].map(([hash, s]) => ({
      id: idOf(hash),
      view: s.view,
      openedBy: s.openedBy,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
    }))
  }

  /** A manager ends window `id` (and every window opened from it); false when there is none. */
  revoke(id: string): boolean {
    const hash = [...this.sessions.keys()].find((h) => idOf(h) === id)
    if (hash === undefined) return false
    this.endHash(hash, 'revoked')
    return true
  }

  /** Token `tokenId` was revoked: every window it opened ends, and every window opened from those. */
  tokenRevoked(tokenId: string): void {
    for (const [hash, session] of [...this.sessions])
      if (session.openedBy.kind === 'token' && session.openedBy.id === tokenId) this.endHash(hash, 'openerRevoked')
    for (const [nonce, launch] of [...this.launches])
      if (launch.openedBy.kind === 'token' && launch.openedBy.id === tokenId) this.launches.delete(nonce)
  }

  private endHash(hash: string, why: EndReason): void {
    const ended = this.sessions.get(hash)
    if (!ended || !this.sessions.delete(hash)) return
    this.store?.end(hash, this.now(), why)
    this.events.closed?.(idOf(hash), this.secrets.get(hash), why, ended.view)
    this.secrets.delete(hash)
    for (const [child, session] of [...this.sessions])
      if (session.openedBy.kind === 'window' && session.openedBy.session === hash)
        this.endHash(child, why === 'revoked' ? 'openerRevoked' : why)
  }

  /** A window opener as kept: another window by its hash, never its secret. */
  private stored(openedBy: WindowOpener): WindowOpener {
    return openedBy.kind === 'window' ? { kind: 'window', session: hashOf(openedBy.session) } : openedBy
  }

  private forgetExpired(): void {
    const now = this.now()
    for (const [nonce, launch] of this.launches) if (launch.expiresAt <= now) this.launches.delete(nonce)
  }
}

function sameOpener(a: WindowOpener, b: WindowOpener): boolean {
  if (a.kind === 'token' && b.kind === 'token') return a.id === b.id
  if (a.kind === 'window' && b.kind === 'window') return a.session === b.session
  return a.kind === 'owner' && b.kind === 'owner'
}

function tooManyWindows(opener: WindowOpener): PosError {
  const cap = WINDOWS_PER_OPENER[opener.kind]
  return new PosError('TOO_MANY_WINDOWS', `this opener already has ${cap} windows (or ${WINDOWS_PER_ROOT} in all) in use; end one first`)
}
