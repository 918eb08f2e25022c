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
import {
  makeCopyKeyPair,
  makeEnrolment,
  readCopyKey,
  StoreConnection,
  StoreLink,
  type StoreLinkSettings,
  type X25519PrivateJwk,
} from '../../src-main/store'
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
  /**
   * The lane's copy key (src-main/store/enrolment.ts); without it, the one in `secrets`, as the
   * production wiring reads it. A lane with neither seals with a key of its run, which a rescue
   * refuses; `enrolled: false` gives it none at all (a terminal not enrolled publishes no copy).
   */
  copyKey?: X25519PrivateJwk
  enrolled?: false
  /** The enrolment certificate the lane puts into the store's bucket at start. */
  enrolment?: string
  /** The lane's NKey seed, when the store server has one user per lane. */
  nkeySeed?: string
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
    copyKey: options.copyKey,
    enrolment: options.enrolment,
    nkeySeed: options.nkeySeed,
    requireReplica: options.requireReplica ?? true,
    ackTimeoutMs: options.ackTimeoutMs ?? 500,
    heartbeatMs: options.heartbeatMs ?? 200,
    maxAgeMs: 96 * 3_600_000,
    version: 'test',
  }
}

/**
 * A lane with the real engine and the production wiring. `link`: store settings set on its link
 * beyond the lane's own (docs/store.md "How safe the store's copy is": `requireDurable`,
 * `syncAlways`, `replicas`, several servers).
 */
export async function startLane(options: LaneOptions, link: Partial<StoreLinkSettings> = {}): Promise<Lane> {
  const logger = pino({ level: process.env.LANE_LOG ?? 'silent' })
  const settings = testSettings(options.dir, {
    ...options.settings,
    merchant: { storeId: options.storeId ?? 'S1', terminalId: options.terminalId, merchantId: 'M1', pspInfo: { mcc: '5812' } },
  })
  const copyKey =
    options.enrolled === false
      ? undefined
      : (options.copyKey ??
        (await readCopyKey(options.secrets, settings.merchant.storeId, settings.merchant.terminalId)) ??
        makeCopyKeyPair().privateJwk)
  const wiring = await wireStore(new StoreLink({ ...linkSettings(options), copyKey, ...link }, logger), settings.merchant)
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

/**
 * Enrols a terminal's copy key at the store as `pos-agent store enrol` does: the certificate, made
 * with the recovery private key, put into the `pos_enrol` bucket under the terminal's key.
 */
export async function enrolAtStore(
  natsUrl: string,
  recoveryPrivate: X25519PrivateJwk,
  terminal: { storeId?: string; terminalId: string; publicKey: string },
): Promise<string> {
  const storeId = terminal.storeId ?? 'S1'
  const certificate = JSON.stringify(
    makeEnrolment(recoveryPrivate, {
      storeId,
      terminalId: terminal.terminalId,
      publicKey: terminal.publicKey,
      by: 'test',
      now: new Date(),
    }),
  )
  const connection = new StoreConnection({ servers: [natsUrl], storeId, name: 'test enrol', maxAgeMs: 96 * 3_600_000 })
  try {
    await connection.putEnrolment(terminal.terminalId, certificate, 3_000)
    return certificate
  } finally {
    await connection.close()
  }
}
