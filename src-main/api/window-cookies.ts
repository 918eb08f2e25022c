/**
 * The browser windows' session cookies, one per kind of window: a cashier tab's `pos_session` (path
 * `/`) and a customer display's `pos_display` (path `/customer`, where the display's page is and
 * where it calls the API, `/customer/v1/`). A browser keeps one cookie per name and path, so with a
 * single cookie the customer display opened in the cashier's own browser would replace the cashier
 * tab's session and sign it out; with one each, both windows keep theirs.
 *
 * A cookie is only taken for its own kind of window: a cashier page never works with a display's
 * session, nor a display with a cashier's.
 */
import { WINDOW_IDLE_MS, type AgentService, type SessionView } from '../service'

const COOKIE_NAMES: Readonly<Record<SessionView, string>> = { cashier: 'pos_session', customer: 'pos_display' }
const COOKIE_PATHS: Readonly<Record<SessionView, string>> = { cashier: '/', customer: '/customer' }

/** Which window a request is for: the customer display's page and API are under `/customer`. */
export function viewOfPath(pathname: string): SessionView {
  return pathname === '/customer' || pathname.startsWith('/customer/') ? 'customer' : 'cashier'
}

/**
 * A window's cookie: HttpOnly and SameSite=Strict, never a token; kept by the browser across the
 * agent's restarts (and its own) for as long as a window may stay unused, so the window reconnects by
 * itself.
 */
export function sessionCookie(id: string, view: SessionView): string {
  return `${COOKIE_NAMES[view]}=${id}; HttpOnly; SameSite=Strict; Path=${COOKIE_PATHS[view]}; Max-Age=${Math.floor(WINDOW_IDLE_MS / 1000)}`
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  return new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(header ?? '')?.[1]
}

/**
 * The session a request of `view` comes with: its own cookie's. A display opened before displays had
 * their own cookie still holds its session in `pos_session`: it is taken there too, for a display only.
 * A session of the other kind of window is none (undefined), as is no cookie at all; a session the
 * agent does not know is given back as it is, for the caller to be refused.
 */
export function windowSessionOf(
  cookieHeader: string | undefined,
  view: SessionView,
  service: Pick<AgentService, 'windowCaller'>,
): string | undefined {
  const own = cookieValue(cookieHeader, COOKIE_NAMES[view])
  const door = view === 'customer' ? 'display' : 'counter'
  if (own !== undefined) {
    const caller = service.windowCaller(own)
    return caller === undefined || caller.door === door ? own : undefined
  }
  if (view !== 'customer') return undefined
  const shared = cookieValue(cookieHeader, COOKIE_NAMES.cashier)
  return shared !== undefined && service.windowCaller(shared)?.door === 'display' ? shared : undefined
}
