/**
 * The queue's window: up to `size` items at the host at once, their answers journaled in groups.
 * Every answer that came back by the time the loop runs again (one turn of the event loop: all the
 * sockets that became readable together) is one group, and the group is journaled in one commit
 * together with the claim of further items when fewer than a window are left to send. One disk sync
 * thus settles many answers, and the window never waits for its slowest item or for a commit: a
 * place that frees is refilled at once from the items claimed ahead, not once a whole batch is back.
 *
 * What the commit guarantees is unchanged: an item counts an attempt, durably, before it goes out
 * (the claim commits before the send), and an answer is durable before its item counts as done.
 * Items of one sale never overlap: a claim takes at most the first owed item of each sale
 * (outbox-store.ts), and the next one only after that item is settled.
 */
import type { GatewayOutcome } from '../gateway'
import type { ClaimedItem } from '../journal'

/** Items claimed ahead, in windows: a place that frees never waits for a commit to be refilled. */
const CLAIM_AHEAD = 4

/** An item and the answer the host gave it. */
export interface Answered {
  item: ClaimedItem
  outcome: GatewayOutcome
}

export interface SendWindowDeps {
  /** Items at the host at once. */
  size: number
  /** Windows' worth of items claimed ahead (4 when unset; 1 for a single probe of the host). */
  claimAhead?: number
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
  /** Items claimed and never sent (the window stopped first): to be put back, their attempt not made. */
  unsent: number[]
  /** The first failure; once one happens nothing more is claimed or journaled, and the window empties. */
  failure: { error: unknown } | undefined
}

/** Sends until nothing due is left and nothing is out; resolves once every sent item has come back. */
export async function runSendWindow(deps: SendWindowDeps): Promise<WindowResult> {
  const claimAhead = deps.claimAhead ?? CLAIM_AHEAD
  /** Claimed and not journaled: waiting to go, at the host, or answered and not yet committed. */
  const out = new Set<number>()
  /** Claimed (the attempt counted, durably) and not sent yet: a place that frees is refilled at once. */
  const ahead: ClaimedItem[] = []
  const arrived: Answered[] = []
  let failure: { error: unknown } | undefined
  let sent = 0
  let inFlight = 0
  let answerCame: (() => void) | undefined

  const refill = (): void => {
    while (failure === undefined && inFlight < deps.size && ahead.length > 0 && deps.mayClaim()) dispatch(ahead.shift()!)
  }
  const dispatch = (item: ClaimedItem): void => {
    sent++
    inFlight++
    void deps
      .send(item)
      .then(
        (outcome) => arrived.push({ item, outcome }),
        (error: unknown) => (failure ??= { error }),
      )
      .finally(() => {
        inFlight--
        refill()
        const wake = answerCame
        answerCame = undefined
        wake?.()
      })
  }

  for (;;) {
    // A group is committed once fewer than a window are left to send (its commit claims more), once
    // nothing is out, or once it is a full claim's worth: between commits the window keeps sending.
    const low = ahead.length < deps.size
    const groupDue = low || inFlight === 0 || arrived.length >= deps.size * claimAhead || !deps.mayClaim()
    const answers = failure === undefined && groupDue ? arrived.splice(0) : []
    // Claimed in chunks of several windows: few claims, each riding in the commit of a group.
    const room = failure === undefined && low && deps.mayClaim() ? deps.size * claimAhead - inFlight - ahead.length : 0
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
    for (const item of claimed) out.add(item.seq)
    ahead.push(...claimed)
    refill()
    const stopped = failure !== undefined || !deps.mayClaim()
    if (inFlight === 0 && (stopped || (arrived.length === 0 && ahead.length === 0 && claimed.length === 0))) break
    await new Promise<void>((resolve) => (answerCame = resolve))
    // Whatever else comes back in this turn joins the group: setImmediate runs after the poll phase
    // has handed over every readable socket (nodejs.org/en/learn/asynchronous-work/event-loop-timers-and-nexttick).
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  const unsent = new Set(ahead.map((item) => item.seq))
  return { sent, unjournaled: [...out].filter((seq) => !unsent.has(seq)), unsent: [...unsent], failure }
}
