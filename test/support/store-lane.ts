/**
 * A lane with a store: the real engine (SQLite journal, the gateway client over HTTPS to a training
 * host) linked to a real nats-server through the production wiring (app/store-wiring.ts).
 */
import pino from 'pino'
import { composeEngine, type Engine, type EngineSettings } from '../../src-main/app/compose'
import { wireStore, type StoreWiring } from '../../src-main/app/store-wiring'
import type { CardReader } from '../../src-main/device'
import { UndiciHostClient } from '../../src-main/gateway/gateway-client'
import type { SecretStore } from '../../src-main/keychain'
import { StoreConnection, StoreLink, type StoreLinkSettings } from '../../src-main/store'
import { AID, KEY, testSettings } from './engine-harness'

export interface LaneOptions {
  dir: string
  hostUrl: string
  caPem: string
  natsUrl: string
  storeId?: string
  terminalId: string
  reader: CardReader
  secrets: SecretStore
  recoveryPublicKey: string
  requireReplica?: boolean
  ackTimeoutMs?: number
  heartbeatMs?: number
  settings?: Partial<EngineSettings>
}

export interface Lane {
  engine: Engine
  wiring: StoreWiring
  client: UndiciHostClient
  close(): Promise<void>
}

export function hostClient(hostUrl: string, caPem: string): UndiciHostClient {
  return new UndiciHostClient(
    {
      offlineBaseUrl: hostUrl,
      baseUrl: hostUrl,
      aid: AID,
      signType: 'HMAC-SHA256',
      extraCaPem: caPem,
      connectTimeoutMs: 1_000,
      responseTimeoutMs: 1_000,
    },
    { signingKey: KEY },
  )
}

export function linkSettings(options: LaneOptions): StoreLinkSettings {
  return {
    servers: [options.natsUrl],
    storeId: options.storeId ?? 'S1',
    terminalId: options.terminalId,
    recoveryPublicKey: options.recoveryPublicKey,
    requireReplica: options.requireReplica ?? true,
    ackTimeoutMs: options.ackTimeoutMs ?? 500,
    heartbeatMs: options.heartbeatMs ?? 200,
    maxAgeMs: 96 * 3_600_000,
    version: 'test',
  }
}

export async function startLane(options: LaneOptions): Promise<Lane> {
  const logger = pino({ level: process.env.LANE_LOG ?? 'silent' })
  const settings = testSettings(options.dir, {
    ...options.settings,
    merchant: { storeId: options.storeId ?? 'S1', terminalId: options.terminalId, merchantId: 'M1', pspInfo: { mcc: '5812' } },
  })
  const wiring = await wireStore(new StoreLink(linkSettings(options), logger), settings.merchant)
  const client = hostClient(options.hostUrl, options.caPem)
  const engine = await composeEngine(settings, {
    reader: options.reader,
    host: client,
    secrets: options.secrets,
    logger,
    store: wiring.engineStore,
  })
  wiring.start(engine, options.reader)
  return {
    engine,
    wiring,
    client,
    async close() {
      // The link first: its replica reads the journal on a timer, so it stops before the journal closes.
      await wiring.link.close()
      await engine.close()
      await client.close()
    },
  }
}

/** A look at the store from outside the lane: the copies it holds for a terminal. */
export async function copiesAtStore(natsUrl: string, terminalId: string, storeId = 'S1'): Promise<string[]> {
  const connection = new StoreConnection({ servers: [natsUrl], storeId, name: 'test', maxAgeMs: 96 * 3_600_000 })
  try {
    return (await connection.copySubjects(terminalId, 3_000)).sort()
  } finally {
    await connection.close()
  }
}
