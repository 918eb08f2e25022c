/**
 * The queue's window: up to `size` items at the host at once, their answers journaled in groups.
 * Every answer that came back by the time the loop runs again (one turn of the event loop: all the
 * sockets that became readable together) is one group, and the group is journaled in one commit
 * together with the claim of the items that take the freed places. One disk sync thus settles many
 * answers and counts the next attempts, and the window never waits for its slowest item: a place is
 * refilled in the turn after its answer, not once a whole batch is back.
 *
 * What the commit guarantees is unchanged: an item counts an attempt, durably, before it goes out
 * (the claim commits before the send), and an answer is durable before its item counts as done.
 * Items of one sale never overlap: a claim takes at most the first owed item of each sale
 * (outbox-store.ts), and the next one only after that item is settled.
 */
import type { GatewayOutcome } from '../gateway'
import type { ClaimedItem } from '../journal'

/** An item and the answer the host gave it. */
export interface Answered {
  item: ClaimedItem
  outcome: GatewayOutcome
}

export interface SendWindowDeps {
  /** Items at the host at once. */
  size: number
  send(item: ClaimedItem): Promise<GatewayOutcome>
  /**
   * Journals `answers` and claims up to `room` items to send next, in one commit. When it throws,
   * nothing of it was committed: the answers are not journaled and nothing was claimed.
   */
  commit(answers: Answered[], room: number): ClaimedItem[]
  /** Whether new items may be claimed (false once the terminal must stop forwarding). */
  mayClaim(): boolean
  /** After each committed group: how many answers it journaled. */
  journaled(count: number): void
}

export interface WindowResult {
  /** Items claimed and sent. */
  sent: number
  /** Items sent whose answers were not journaled (a failed commit, a client that threw): to be put back. */
  unjournaled: number[]
  /** The first failure; once one happens nothing more is claimed or journaled, and the window empties. */
  failure: { error: unknown } | undefined
}

/** Sends until nothing due is left and nothing is out; resolves once every sent item has come back. */
export async function runSendWindow(deps: SendWindowDeps): Promise<WindowResult> {
  const out = new Set<number>()
  const arrived: Answered[] = []
  let failure: { error: unknown } | undefined
  let sent = 0
  let inFlight = 0
  let answerCame: (() => void) | undefined

  const dispatch = (item: ClaimedItem): void => {
    out.add(item.seq)
    sent++
    inFlight++
    deps
      .send(item)
      .then(
        (outcome) => arrived.push({ item, outcome }),
        (error: unknown) => (failure ??= { error }),
      )
      .finally(() => {
        inFlight--
        const wake = answerCame
        answerCame = undefined
        wake?.()
      })
  }

  for (;;) {
    const answers = failure === undefined ? arrived.splice(0) : []
    const room = failure === undefined && deps.mayClaim() ? deps.size - inFlight : 0
    let claimed: ClaimedItem[] = []
    if (answers.length > 0 || room > 0) {
      try {
        claimed = deps.commit(answers, room)
        for (const { item } of answers) out.delete(item.seq)
        if (answers.length > 0) deps.journaled(answers.length)
      } catch (error) {
        failure ??= { error }
      }
    }
    claimed.forEach(dispatch)
    if (inFlight === 0 && (failure !== undefined || (claimed.length === 0 && arrived.length === 0))) break
    if (arrived.length === 0 || failure !== undefined) await new Promise<void>((resolve) => (answerCame = resolve))
    // Whatever else comes back in this turn joins the group: setImmediate runs after the poll phase
    // has handed over every readable socket (nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick).
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  return { sent, unjournaled: [...out], failure }
}
