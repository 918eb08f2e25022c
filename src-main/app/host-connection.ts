/**
 * Connecting to the host a runtime is configured for: the configured offline host in production, or
 * in training mode an embedded training host started in this process, trusted through its own CA.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, trainingConfig, type AgentConfig } from '../config'
import { ensureTrainingKey, readSigningKey, UndiciHostClient, type HostClient, type HostEndpoint } from '../gateway'
import { startTrainingHost, type TrainingHost } from '../training'
import type { Runtime } from './runtime'

export interface HostConnection {
  client: HostClient
  endpoint: HostEndpoint
  /** Present in training mode: the embedded host, for its ledger and faults, and the configuration pointing at it. */
  trainingHost?: TrainingHost
  trainingConfig?: AgentConfig
  close(): Promise<void>
}

export function endpointFromConfig(config: AgentConfig): HostEndpoint {
  const { host } = config
  let extraCaPem: string | undefined
  if (host.caFile !== undefined) {
    try {
      extraCaPem = readFileSync(host.caFile, 'utf8')
    } catch (error) {
      throw new ConfigError(`host.caFile ${host.caFile} cannot be read (${error instanceof Error ? error.message : String(error)})`)
    }
  }
  return {
    offlineBaseUrl: host.offlineBaseUrl,
    baseUrl: host.baseUrl,
    aid: host.aid,
    signType: host.signType,
    keyId: host.keyId,
    extraCaPem,
    connectTimeoutMs: host.connectTimeoutMs,
    responseTimeoutMs: host.responseTimeoutMs,
  }
}

/** Starts the embedded training host for a runtime without configuration, sharing its key. */
export async function startEmbeddedTrainingHost(
  runtime: Runtime,
  port = 0,
): Promise<{ host: TrainingHost; config: AgentConfig; signingKey: string }> {
  const signingKey = await ensureTrainingKey(runtime.secrets, runtime.aid)
  const host = await startTrainingHost({
    port,
    stateDir: join(runtime.dataDir, 'training-host'),
    signingKeys: { [runtime.aid]: signingKey },
    log: (line) => runtime.logger.debug(line),
  })
  return { host, config: trainingConfig(host.url, host.caFile, runtime.dataDir, runtime.tried?.settings).config, signingKey }
}

export async function openHostClient(runtime: Runtime): Promise<HostConnection> {
  if (runtime.loaded !== undefined) {
    const endpoint = endpointFromConfig(runtime.loaded.config)
    const client = new UndiciHostClient(endpoint, {
      signingKey: await readSigningKey(runtime.secrets, endpoint.aid),
      logger: runtime.logger,
      // The messages' DateTime: the runtime's clock, the one the sales are dated by.
      now: () => new Date(runtime.clock.now()),
    })
    return { client, endpoint, close: () => client.close() }
  }
  const training = await startEmbeddedTrainingHost(runtime)
  const endpoint = endpointFromConfig(training.config)
  const client = new UndiciHostClient(endpoint, {
    signingKey: training.signingKey,
    logger: runtime.logger,
    now: () => new Date(runtime.clock.now()),
  })
  return {
    client,
    endpoint,
    trainingHost: training.host,
    trainingConfig: training.config,
    close: async () => {
      await client.close()
      await training.host.close()
    },
  }
}
