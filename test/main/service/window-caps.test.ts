/**
 * How many windows one opener keeps (service/windows.ts): a token its few customer displays, a window
 * its few, all of a token's windows together a few more; past that the longest-unused window that is
 * not in use makes room, and when all are in use the new one is refused in plain words. Links not yet
 * opened are capped the same way, so minting them holds nothing. A clock the test moves.
 */
import { describe, expect, it } from 'vitest'
import { PosError } from '../../../src-shared/errors'
import {
  WINDOW_IN_USE_MS,
  WINDOWS_PER_OPENER,
  WINDOWS_PER_ROOT,
  WindowSessions,
  type RedeemRefusal,
  type WindowOpener,
} from '../../../src-main/service'

function sessions() {
  let now = 1_000_000
  const closed: Array<{ id: string; why: string }> = []
  const windows = new WindowSessions(() => now, { closed: (id, _s, why) => closed.push({ id, why }) })
  /** A link issued and opened: the session, or why none (`issue`: the link itself was refused). */
  const open = (opener: WindowOpener, view: 'cashier' | 'customer' = 'customer') => {
    let refused: RedeemRefusal | 'issue' | undefined
    let nonce: string
    try {
      nonce = windows.issue(view, opener)
    } catch (error) {
      expect((error as PosError).code).toBe('TOO_MANY_WINDOWS')
      return { session: undefined, refused: 'issue' }
    }
    const session = windows.redeem(nonce, (why) => (refused = why))
    return { session, refused }
  }
  return { windows, closed, open, later: (ms: number) => (now += ms) }
}

const TOKEN: WindowOpener = { kind: 'token', id: 'read-only' }

describe('windows per opener', () => {
  it('a token opens a few displays; more while all are in use is refused in plain words, with nothing ended', () => {
    const { windows, open, closed } = sessions()
    for (let i = 0; i < WINDOWS_PER_OPENER.token; i++) expect(open(TOKEN).session).toBeDefined()
    const refused = (() => {
      try {
        windows.issue('customer', TOKEN)
      } catch (error) {
        return error
      }
    })()
    expect(refused).toBeInstanceOf(PosError)
    expect((refused as PosError).code).toBe('TOO_MANY_WINDOWS')
    expect(windows.list()).toHaveLength(WINDOWS_PER_OPENER.token)
    expect(closed).toEqual([])
  })

  it("the machine's owner always finds room: its longest-unused window ends, even one used a moment ago (a tab just closed)", () => {
    const { windows, open, closed, later } = sessions()
    const OWNER: WindowOpener = { kind: 'owner' }
    expect(open(OWNER, 'cashier').session).toBeDefined()
    const firstListed = windows.list()[0]!.id
    for (let i = 1; i < WINDOWS_PER_OPENER.owner; i++) {
      later(1_000)
      expect(open(OWNER, 'cashier').session).toBeDefined()
    }
    later(1_000)
    const next = open(OWNER, 'cashier')
    expect(next.session).toBeDefined()
    expect(closed).toEqual([{ id: firstListed, why: 'replaced' }])
    expect(windows.list()).toHaveLength(WINDOWS_PER_OPENER.owner)
  })

  it('the longest-unused window that is not in use makes room; one seen lately stays', () => {
    const { windows, open, closed, later } = sessions()
    const first = open(TOKEN).session!
    const others = Array.from({ length: WINDOWS_PER_OPENER.token - 1 }, () => open(TOKEN).session!)
    later(WINDOW_IN_USE_MS)
    // The first display is still showing sales (its stream's heartbeat, a call): in use.
    expect(windows.sessionView(first.id)).toBe('customer')
    later(1_000)
    const fifth = open(TOKEN)
    expect(fifth.session).toBeDefined()
    expect(closed).toHaveLength(1)
    expect(closed[0]!.why).toBe('replaced')
    expect(windows.sessionView(first.id)).toBe('customer')
    // The one ended was one of the others, the longest unused.
    expect(others.filter((o) => windows.sessionView(o.id) === undefined)).toHaveLength(1)
  })

  it('a link opened while every window is in use opens nothing, and says why', () => {
    const { windows, open } = sessions()
    // A link minted before the others were opened, opened after them: the count is checked again.
    const early = windows.issue('customer', TOKEN)
    for (let i = 0; i < WINDOWS_PER_OPENER.token; i++) expect(open(TOKEN).session).toBeDefined()
    let why: RedeemRefusal | undefined
    expect(windows.redeem(early, (w) => (why = w))).toBeUndefined()
    expect(why).toBe('tooManyWindows')
    // A link unknown, or used: `unknown`.
    let unknown: RedeemRefusal | undefined
    expect(windows.redeem(early, (w) => (unknown = w))).toBeUndefined()
    expect(unknown).toBe('unknown')
  })

  it('links not yet opened are capped too: the oldest is dropped for a new one', () => {
    const { windows } = sessions()
    const links = Array.from({ length: 50 }, () => windows.issue('customer', TOKEN))
    const opened = links.map((nonce) => windows.redeem(nonce)).filter((s) => s !== undefined)
    expect(opened).toHaveLength(WINDOWS_PER_OPENER.token)
    // The ones that opened are the newest links.
    expect(links.slice(-WINDOWS_PER_OPENER.token).every((nonce) => windows.redeem(nonce) === undefined)).toBe(true)
  })

  it('windows opened from windows count under their root: a token cannot multiply them through a chain', () => {
    const { open, windows } = sessions()
    const admin: WindowOpener = { kind: 'token', id: 'admin' }
    const roots = Array.from({ length: WINDOWS_PER_OPENER.token }, () => open(admin, 'cashier').session!)
    let made = roots.length
    for (const root of roots)
      for (let i = 0; i < WINDOWS_PER_OPENER.window; i++) if (open({ kind: 'window', session: root.id }).session) made++
    expect(made).toBe(WINDOWS_PER_ROOT)
    expect(windows.list()).toHaveLength(WINDOWS_PER_ROOT)
    // Another token's allowance is its own.
    expect(open({ kind: 'token', id: 'other' }).session).toBeDefined()
  })
})
