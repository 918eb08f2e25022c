/**
 * Shifts: an operator's time signed in at the counter, from the sign-in to the sign-out, the next
 * operator's sign-in or the close of the batch, whichever comes first (the close ends it in its own
 * commit: journal/batch-store.ts). Kept in the journal, so a restart does not lose the open shift:
 * the same operator signing in again (after a restart, or twice) goes on with it.
 */
import type { ShiftStore } from '../journal'

export class Shifts {
  constructor(
    private readonly store: ShiftStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `operatorId` signed in at the counter (`at`: now, or the close they stayed signed in through):
   * their shift starts, unless it is the one still open.
   */
  signedIn(operatorId: string, at = this.now()): void {
    if (this.store.open()?.operatorId === operatorId) return
    this.store.start(operatorId, at)
  }

  /** `operatorId` signed out (or was signed out when idle, `at`): their shift ends, if it is the open one. */
  signedOut(operatorId: string, at = this.now()): void {
    if (this.store.open()?.operatorId === operatorId) this.store.end(at)
  }
}
