/**
 * The nexo endpoint of a running agent (docs/nexo.md): a NexoTerminal over the agent's operations,
 * served over HTTPS with the integrator token. Off unless the configuration (`nexo.enabled`) or
 * `serve --nexo` turns it on: an open port is a door, and a terminal without a nexo POS needs none.
 */
import { packageVersion } from '../config'
import type { NexoServer } from '../nexo'
import type { RunningAgent } from './agent'
import type { Runtime } from './runtime'

export interface NexoEndpointOptions {
  host?: string | undefined
  port?: number | undefined
}

export async function startNexoEndpoint(runtime: Runtime, agent: RunningAgent, options: NexoEndpointOptions): Promise<NexoServer> {
  // Loaded only when the endpoint is on, so an agent without it starts without its code.
  const { NexoTerminal, startNexoServer } = await import('../nexo')
  const { merchant } = agent.config
  const terminal = new NexoTerminal({
    service: agent.service,
    // What nexo must remember across restarts lives in the journal, beside the sales it speaks of.
    memory: agent.engine.journal.nexo,
    terminalId: merchant.terminalId,
    merchantId: merchant.merchantId,
    storeName: merchant.storeName,
    storeAddress: merchant.storeAddress,
    training: agent.config.mode === 'training',
    version: packageVersion(),
    logger: runtime.logger.child({ door: 'nexo' }),
    clock: runtime.clock,
  })
  return startNexoServer({
    terminal,
    tokens: agent.tokenCheck,
    stateDir: runtime.dataDir,
    host: options.host ?? agent.config.nexo.host,
    port: options.port ?? agent.config.nexo.port,
    refused: () => agent.service.credentialRefused('nexo', 'token'),
  })
}
