/**
 * A whole engine for tests: a real SQLite journal in a temp folder, the data key in a memory secret
 * store, the real gateway client over HTTPS to a training host on 127.0.0.1, and the given reader.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { composeEngine, type Engine, type EngineSettings } from '../../src-main/app/compose'
import type { CardReader } from '../../src-main/device'
import { UndiciHostClient } from '../../src-main/gateway/gateway-client'
import { MemorySecretStore } from '../../src-main/keychain'
import { startTrainingHost, type TrainingHost } from '../../src-main/training/host'
import { DEFAULT_OFFLINE_LIMITS } from '../../src-main/txn/offline-policy'
import { DEFAULT_TIP_POLICY } from '../../src-main/txn/tip-policy'

export const AID = 'ENGINE-ACQ'
export const KEY = 'engine-test-signing-key-01234567'

export interface EngineHarness {
  engine: Engine
  host: TrainingHost
  client: UndiciHostClient
  dir: string
  secrets: MemorySecretStore
  /** The same journal and host again; `changed`: settings changed since (a terminal reconfigured). */
  restart(reader?: CardReader, changed?: Partial<EngineSettings>): Promise<Engine>
  close(): Promise<void>
}

/** The configuration's default limits for a USD terminal: at most USD 10 000.00, confirmed above USD 1 000.00. */
export const TEST_SALE_LIMITS = { maxSaleMinor: 1_000_000, confirmAboveMinor: 100_000 } as const

export function testSettings(dir: string, overrides: Partial<EngineSettings> = {}): EngineSettings {
  return {
    dataDir: dir,
    merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1', pspInfo: { mcc: '5812' } },
    currency: 'USD',
    limits: TEST_SALE_LIMITS,
    restaurantMode: false,
    cardReadTimeoutSeconds: 30,
    duplicateWindowMs: 10 * 60_000,
    offline: DEFAULT_OFFLINE_LIMITS('USD', 100),
    tips: DEFAULT_TIP_POLICY,
    retry: {
      baseDelayMs: 20,
      maxDelayMs: 100,
      maxAttempts: 50,
      maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
    },
    ...overrides,
  }
}

export async function startEngineHarness(reader: CardReader, overrides: Partial<EngineSettings> = {}): Promise<EngineHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-engine-'))
  const host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
  const client = new UndiciHostClient(
    {
      offlineBaseUrl: host.url,
      baseUrl: host.url,
      aid: AID,
      signType: 'HMAC-SHA256',
      extraCaPem: host.caPem,
      connectTimeoutMs: 2_000,
      responseTimeoutMs: 1_500,
    },
    { signingKey: KEY },
  )
  const secrets = new MemorySecretStore()
  const logger = pino({ level: 'silent' })
  let settings = testSettings(dir, overrides)
  const harness: EngineHarness = {
    engine: await composeEngine(settings, { reader, host: client, secrets, logger }),
    host,
    client,
    dir,
    secrets,
    async restart(nextReader = reader, changed) {
      await harness.engine.close()
      if (changed) settings = { ...settings, ...changed }
      harness.engine = await composeEngine(settings, { reader: nextReader, host: client, secrets, logger })
      return harness.engine
    },
    async close() {
      await harness.engine.close()
      await client.close()
      await host.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return harness
}

/** Polls until `check` passes or the time is up (the forwarder works in the background). */
export async function eventually<T>(check: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * A retry policy whose failed items wait ten minutes: what the queue does next is then only what an
 * outage's end or a manager makes it do.
 */
export const TEN_MINUTE_RETRY = {
  baseDelayMs: 600_000,
  maxDelayMs: 600_000,
  maxAttempts: 50,
  maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
}
