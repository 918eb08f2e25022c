/**
 * A limit on PIN tries per caller (one counter window, one token, one nexo POS), on top of each
 * operator's own lockout: thirty tries a minute is far above a busy counter's pace and far below a script's.
 * A try over the limit is refused before any PIN is looked at.
 */
import { PosError } from '../../src-shared/errors'

export const PIN_TRIES_PER_WINDOW = 30
export const PIN_WINDOW_MS = 60_000
/** Callers remembered at once (the oldest forgotten first). */
const CALLERS_KEPT = 10_000

export class PinGuard {
  private readonly tries = new Map<string, number[]>()

  constructor(
    private readonly now: () => number,
    private readonly limit = PIN_TRIES_PER_WINDOW,
    private readonly windowMs = PIN_WINDOW_MS,
  ) {}

  /** Takes one try for `key`, or refuses with TOO_MANY_TRIES. */
  take(key: string): void {
    const now = this.now()
    const recent = (this.tries.get(key) ?? []).filter((at) => at > now - this.windowMs)
    if (recent.length >= this.limit) {
      this.tries.set(key, recent)
      const waitS = Math.ceil((recent[0]! + this.windowMs - now) / 1000)
      throw new PosError('TOO_MANY_TRIES', `too many PIN tries from this caller: wait ${waitS} s`)
    }
    recent.push(now)
    this.tries.delete(key)
    if (this.tries.size >= CALLERS_KEPT) this.tries.delete(this.tries.keys().next().value!)
    this.tries.set(key, recent)
  }
}
