/**
 * Whether the bank answered the last call that says so, whoever made it: a sale at the counter, a void
 * or a return, or the queue's forwarder. An answer (approved, declined, or refused by the host) means
 * it was reached; a request that provably never arrived means it was not; a lost answer says nothing.
 * The queue's status carries it, so the header's bank badge and the Queue screen agree with the last
 * sale's own answer, not only with the last item the queue sent.
 */
import type { GatewayOutcome, HostClient } from '../gateway'

export class HostReach {
  private reached: boolean | undefined

  /** Undefined until a call has said either way. */
  get reachable(): boolean | undefined {
    return this.reached
  }

  note(outcome: GatewayOutcome): void {
    if (outcome.kind === 'notDelivered') this.reached = false
    else if (outcome.kind === 'approved' || outcome.kind === 'declined') this.reached = true
    // Refused by the agent's own check, the request never left: that says nothing about the bank.
    else if (outcome.kind === 'rejected' && outcome.source === 'host') this.reached = true
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
