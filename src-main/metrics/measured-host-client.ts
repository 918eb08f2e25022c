/**
 * The host client, timed: every answer is counted in the host latency histogram by operation and
 * outcome class. The latency is the one the gateway client measured for the outcome, so the
 * figure is the same the logs carry.
 */
import type { GatewayOutcome, HostClient } from '../gateway'

export class MeasuredHostClient implements HostClient {
  constructor(
    private readonly inner: HostClient,
    private readonly observe: (outcome: GatewayOutcome) => void,
  ) {}

  async send(...args: Parameters<HostClient['send']>): Promise<GatewayOutcome> {
    return this.observed(await this.inner.send(...args))
  }

  async sendUnchecked(...args: Parameters<HostClient['sendUnchecked']>): Promise<GatewayOutcome> {
    return this.observed(await this.inner.sendUnchecked(...args))
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  private observed(outcome: GatewayOutcome): GatewayOutcome {
    this.observe(outcome)
    return outcome
  }
}
