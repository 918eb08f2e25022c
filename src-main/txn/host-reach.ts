/**
 * Whether the bank answered the last call that says so, whoever made it: a sale at the counter, a void
 * or a return, or the queue's forwarder. An answer (approved, declined, or refused by the host) means
 * it was reached; a request that provably never arrived means it was not; a lost answer says nothing.
 * The queue's status carries it, so the header's bank badge and the Queue screen agree with the last
 * sale's own answer, not only with the last item the queue sent.
 */
import type { GatewayOutcome, HostClient } from '../gateway'

/** What one outcome says of the bank: reached, not reached, or nothing (undefined). */
export function reachedBank(outcome: GatewayOutcome): boolean | undefined {
  if (outcome.kind === 'notDelivered') return false
  if (outcome.kind === 'approved' || outcome.kind === 'declined') return true
  // Refused by the agent's own check, the request never left: that says nothing about the bank.
  if (outcome.kind === 'rejected' && outcome.source === 'host') return true
  return undefined
}

export class HostReach {
  private reached: boolean | undefined
  private readonly listeners: Array<() => void> = []

  /** Undefined until a call has said either way. */
  get reachable(): boolean | undefined {
    return this.reached
  }

  /** `listener` hears every call that reached the bank (the queue ends its wait for an outage's probe). */
  onReached(listener: () => void): void {
    this.listeners.push(listener)
  }

  note(outcome: GatewayOutcome): void {
    const said = reachedBank(outcome)
    if (said === undefined) return
    this.reached = said
    if (said) for (const listener of this.listeners) listener()
  }

  /** `client`, telling this every outcome of its calls. */
  watch(client: HostClient): HostClient {
    return {
      send: async (kind, body, originalId) => this.noted(await client.send(kind, body, originalId)),
      sendUnchecked: async (kind, body, originalId) => this.noted(await client.sendUnchecked(kind, body, originalId)),
      close: () => client.close(),
    }
  }

  private noted(outcome: GatewayOutcome): GatewayOutcome {
    this.note(outcome)
    return outcome
  }
}
