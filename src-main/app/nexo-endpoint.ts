/**
 * The nexo endpoint of a running agent (docs/nexo.md): a NexoTerminal over the agent's operations,
 * served over HTTPS with the integrator token. Off unless the configuration (`nexo.enabled`) or
 * `serve --nexo` turns it on: an open port is a door, and a terminal without a nexo POS needs none.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { NexoTerminal, startNexoServer, type NexoServer } from '../nexo'
import type { RunningAgent } from './agent'
import type { Runtime } from './runtime'

export interface NexoEndpointOptions {
  host?: string | undefined
  port?: number | undefined
}

export async function startNexoEndpoint(runtime: Runtime, agent: RunningAgent, options: NexoEndpointOptions): Promise<NexoServer> {
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
  })
  return startNexoServer({
    terminal,
    tokens: agent.tokenCheck,
    stateDir: runtime.dataDir,
    host: options.host ?? agent.config.nexo.host,
    port: options.port ?? agent.config.nexo.port,
  })
}

/** The agent's version, as nexo's POISoftware reports it. */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version?: string }).version ?? '0'
  } catch {
    return '0'
  }
}
