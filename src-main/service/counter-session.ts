/**
 * Who is signed in at which counter window. A sign-in belongs to the window it was made in: another
 * window (a second browser, one a token opened) has nobody signed in until someone signs in there,
 * so a manager at the real counter lends their authority to no other window. Someone who leaves
 * without signing out is signed out after the idle time the store sets (`operators.idleSignOutMinutes`),
 * and a manager then approves nothing more. Shifts (src-main/operators/shifts.ts) follow the sign-ins.
 */
import type { OperatorView } from '../operators'
import type { Shifts } from '../operators'

interface SignedIn {
  operator: OperatorView
  lastActiveAt: number
}

export class CounterSessions {
  private readonly signedIn = new Map<string, SignedIn>()

  constructor(
    private readonly shifts: Shifts,
    private readonly now: () => number,
    /** Idle time before a sign-in ends by itself, ms; 0 never. */
    private readonly idleSignOutMs: number,
  ) {}

  /**
   * Who is signed in at `session` now; `active`: this call is their work, which keeps the sign-in
   * alive. A sign-in idle too long has ended: the operator's shift ended when the idle time ran out,
   * and `onIdle` is told who it was.
   */
  operatorAt(session: string, active = false, onIdle?: (operator: OperatorView) => void): OperatorView | undefined {
    const entry = this.signedIn.get(session)
    if (!entry) return undefined
    const now = this.now()
    if (this.idleSignOutMs > 0 && now - entry.lastActiveAt >= this.idleSignOutMs) {
      this.end(session, entry.lastActiveAt + this.idleSignOutMs)
      onIdle?.(entry.operator)
      return undefined
    }
    if (active) entry.lastActiveAt = now
    return entry.operator
  }

  /** `operator` signed in at `session`, replacing whoever was signed in there; their shift starts. */
  signIn(session: string, operator: OperatorView): void {
    this.signedIn.set(session, { operator, lastActiveAt: this.now() })
    this.shifts.signedIn(operator.id)
  }

  /** Whoever was signed in at `session` signs out (their shift ends, unless they are still signed in elsewhere). */
  signOut(session: string): OperatorView | undefined {
    const entry = this.signedIn.get(session)
    if (entry) this.end(session, this.now())
    return entry?.operator
  }

  /** A window that closed for good (its opener revoked, expired): its sign-in ends with it. */
  forget(session: string): void {
    if (this.signedIn.has(session)) this.end(session, this.now())
  }

  /**
   * After a close of day: whoever is still signed in at `session` (else at any window) works on
   * into the next batch, so their shift starts again at the close.
   */
  continueAfterClose(session: string | undefined, closedAt: number): void {
    const entry = (session !== undefined ? this.signedIn.get(session) : undefined) ?? [...this.signedIn.values()].at(-1)
    if (entry) this.shifts.signedIn(entry.operator.id, closedAt)
  }

  private end(session: string, at: number): void {
    const entry = this.signedIn.get(session)!
    this.signedIn.delete(session)
    const elsewhere = [...this.signedIn.values()].some((other) => other.operator.id === entry.operator.id)
    if (!elsewhere) this.shifts.signedOut(entry.operator.id, at)
  }
}
