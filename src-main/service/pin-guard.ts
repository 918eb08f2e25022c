/**
 * A limit on PIN tries per caller, on top of each operator's own lockout, refused before any PIN is
 * looked at. At the counter's windows (all the windows one opener started, counted together), thirty
 * tries a minute: far above a busy counter's pace, far below a script's. A POS's token, where a
 * person types a manager's PIN only now and then, gets ten tries in fifteen minutes: an integration
 * that guesses cannot lock one manager after another out of their own terminal.
 */
import { PosError } from '../../src-shared/errors'

export const PIN_TRIES_PER_WINDOW = 30
export const PIN_WINDOW_MS = 60_000
export const PIN_TRIES_PER_TOKEN = 10
export const PIN_TOKEN_WINDOW_MS = 15 * 60_000
/** Callers remembered at once (the oldest forgotten first). */
const CALLERS_KEPT = 10_000

export class PinGuard {
  private readonly tries = new Map<string, number[]>()

  constructor(private readonly now: () => number) {}

  /** Takes one try for `key` (caller.ts pinLimitKey), or refuses with TOO_MANY_TRIES. */
  take(key: string): void {
    const now = this.now()
    const token = key.startsWith('token:')
    const limit = token ? PIN_TRIES_PER_TOKEN : PIN_TRIES_PER_WINDOW
    const windowMs = token ? PIN_TOKEN_WINDOW_MS : PIN_WINDOW_MS
    const recent = (this.tries.get(key) ?? []).filter((at) => at > now - windowMs)
    if (recent.length >= limit) {
      this.tries.set(key, recent)
      const waitS = Math.ceil((recent[0]! + windowMs - now) / 1000)
      throw new PosError('TOO_MANY_TRIES', `too many PIN tries from this caller: wait ${waitS} s`)
    }
    recent.push(now)
    this.tries.delete(key)
    if (this.tries.size >= CALLERS_KEPT) this.tries.delete(this.tries.keys().next().value!)
    this.tries.set(key, recent)
  }
}
