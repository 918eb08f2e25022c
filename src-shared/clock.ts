/**
 * The one clock the agent reads the time of day from: a sale's time and its queued copies', a
 * receipt's, a nexo answer's, a certificate's or a queued item's age. It is passed in (the runtime
 * holds it, app/ hands it on), so a test or a replay sets the time. What measures elapsed time for a
 * timeout or an idle moment (a card prompt's deadline, the journal's idle checkpoint) reads the
 * computer's own clock: a set clock must not stop a timer.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number
}

/** The computer's clock. */
export const SYSTEM_CLOCK: Clock = { now: () => Date.now() }
