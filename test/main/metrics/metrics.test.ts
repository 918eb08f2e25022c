/**
 * The agent's Prometheus metrics on a real engine (training host over HTTPS, real journal): after an
 * online sale and a payment stored while the host is down, then forwarded, `/metrics` says so. The
 * served text is read by a Prometheus text-format parser (parse-prometheus-text-format, ported from
 * the Prometheus Python client's parser); the same figures are checked in the registry too.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentService, TokenCheck } from '../../../src-main/service'
import { OWNER_POS } from '../../support/service-harness'
import { startLocalServer, type LocalServer } from '../../../src-main/api/local-server'
import { composeEngine, type Engine } from '../../../src-main/app/compose'
import { UndiciHostClient } from '../../../src-main/gateway/gateway-client'
import { MemorySecretStore } from '../../../src-main/keychain'
import { AgentMetrics, MeasuredHostClient } from '../../../src-main/metrics'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { ScriptedCardReader, TEST_CARDS } from '../../fakes/scripted-card-reader'
import { AID, eventually, KEY, TEST_SALE_LIMITS, testSettings } from '../../support/engine-harness'

const parse: (text: string) => Family[] = parsePrometheusTextFormat

interface Family {
  name: string
  type: string
  metrics: Array<{ labels?: Record<string, string>; value?: string; count?: string; sum?: string; buckets?: Record<string, string> }>
}

/**
 * `name{label="v",...}` → value, as parsed, for counters and gauges. The parser folds the series of
 * a labelled histogram into one bucket set without labels, so histogram figures are read from the
 * registry instead (`withHistograms`); the parser still has to accept every histogram line.
 */
function samples(families: Family[]): Map<string, number> {
  const out = new Map<string, number>()
  const key = (name: string, labels: Record<string, string> = {}) =>
    `${name}{${Object.entries(labels)
      .sort()
      .map(([k, v]) => `${k}="${v}"`)
      .join(',')}}`
  for (const family of families)
    for (const metric of family.metrics) {
      if (family.type !== 'HISTOGRAM') out.set(key(family.name, metric.labels), Number(metric.value))
    }
  return out
}

/** The same figures straight from prom-client's registry, for when no parser is installed. */
async function registrySamples(metrics: AgentMetrics): Promise<Map<string, number>> {
  const families = (await metrics.registry.getMetricsAsJSON()) as unknown as Array<{
    name: string
    type: string
    values: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }>
  }>
  const out = new Map<string, number>()
  for (const family of families)
    for (const sample of family.values) {
      const name = sample.metricName ?? family.name
      if (name.endsWith('_bucket')) continue
      const labels = Object.entries(sample.labels)
        .sort()
        .map(([k, v]) => `${k}="${v}"`)
        .join(',')
      out.set(`${name}{${labels}}`, sample.value)
    }
  return out
}

/** The parsed counters and gauges, with the histogram series of the registry. */
async function withHistograms(parsed: Map<string, number>, metrics: AgentMetrics): Promise<Map<string, number>> {
  for (const [name, value] of await registrySamples(metrics))
    if (name.startsWith('pos_agent_host_request_duration_seconds')) parsed.set(name, value)
  return parsed
}

const reader = new ScriptedCardReader()
const dir = mkdtempSync(join(tmpdir(), 'pos-metrics-'))
let host: TrainingHost
let client: UndiciHostClient
let engine: Engine
let metrics: AgentMetrics
let operations: AgentService
let server: LocalServer
const token = 'metrics-test-token-0123456789abcdefghij'

beforeAll(async () => {
  host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
  client = new UndiciHostClient(
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
  // Long backoff: a stored payment stays stored until the test forwards it.
  const retry = {
    baseDelayMs: 60_000,
    maxDelayMs: 60_000,
    maxAttempts: 50,
    maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
  }
  const secrets = new MemorySecretStore()
  const logger = pino({ level: 'silent' })
  metrics = new AgentMetrics({
    info: { terminalId: 'T1', mode: 'training', currency: 'USD' },
    alarmCodes: ['DATA_KEY_MISSING'],
    refreshMs: 20,
  })
  engine = await composeEngine(testSettings(dir, { retry }), {
    reader,
    host: new MeasuredHostClient(client, (outcome) => metrics.observeHostCall(outcome)),
    secrets,
    logger,
  })
  metrics.watch({ txn: engine.txn, forwarder: engine.forwarder, journal: engine.journal, reader, alarms: () => engine.alarms })
  operations = new AgentService({
    engine,
    metrics,
    reader,
    secrets,
    retry,
    logger,
    info: {
      mode: 'training',
      currency: 'USD',
      terminalId: 'T1',
      merchantId: 'M1',
      storeAddress: [],
      restaurantMode: false,
      tipTolerancePercent: 20,
      saleLimits: TEST_SALE_LIMITS,
      trainingCards: [],
    },
    settings: { offlineBaseUrl: host.url, aid: AID, storeId: 'S1', terminalId: 'T1', merchantId: 'M1' },
  })
  server = await startLocalServer({
    port: 0,
    rendererRoot: dir,
    service: operations,
    tokens: new TokenCheck(token),
    health: () => ({ ok: true }),
  })
})
afterAll(async () => {
  await server.close()
  operations.close()
  metrics.close()
  await engine.close()
  await client.close()
  await host.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The queue figures are refreshed shortly after a change, off the sale's path: wait for them. */
async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('metrics not refreshed in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function scrape(): Promise<{ contentType: string; text: string }> {
  const url = new URL('/metrics', server.url)
  const reply = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  expect(reply.status).toBe(200)
  return { contentType: reply.headers.get('content-type') ?? '', text: await reply.text() }
}

async function sale(amountMinor: number) {
  reader.present({ card: TEST_CARDS.chipVisa() })
  const started = await operations.dispatch(OWNER_POS, 'startSale', { amountMinor })
  if (!started.ok) throw new Error(started.error.message)
  return engine.txn.waitForOutcome((started.value as { id: string }).id)
}

describe('/metrics', () => {
  it('counts an online sale and a stored payment, with the queue, reader and host figures, then the payment forwarded', async () => {
    expect((await sale(1_500)).state).toBe('approved')
    host.setFault('*', 'http-503')
    const stored = await sale(2_345)
    expect(stored.state).toBe('storedOffline')
    const expectStored = (figures: Map<string, number>) => {
      expect(figures.get('pos_agent_info{currency="USD",mode="training",terminal_id="T1"}')).toBe(1)
      expect(figures.get('pos_agent_sales_total{outcome="approved"}')).toBe(1)
      expect(figures.get('pos_agent_sales_total{outcome="storedOffline"}')).toBe(1)
      expect(figures.get('pos_agent_sales_total{outcome="declined"}')).toBe(0)
      expect(figures.get('pos_agent_host_request_duration_seconds_count{operation="payment",outcome="approved"}')).toBe(1)
      expect(
        figures.get('pos_agent_host_request_duration_seconds_count{operation="payment",outcome="notDelivered"}'),
      ).toBeGreaterThanOrEqual(1)
      expect(figures.get('pos_agent_host_request_duration_seconds_sum{operation="payment",outcome="approved"}')).toBeGreaterThan(0)
      expect(figures.get('pos_agent_queue_items{}')).toBe(1)
      expect(figures.get('pos_agent_stored_payments{}')).toBe(1)
      expect(figures.get('pos_agent_stored_amount_minor{currency="USD"}')).toBe(2_345)
      expect(figures.get('pos_agent_oldest_stored_payment_age_seconds{}')).toBeGreaterThanOrEqual(0)
      expect(figures.get('pos_agent_oldest_stored_payment_age_seconds{}')).toBeLessThan(60)
      expect(figures.get('pos_agent_needs_attention{}')).toBe(0)
      expect(figures.get('pos_agent_reversals_pending{}')).toBe(0)
      expect(figures.get('pos_agent_reader_connected{}')).toBe(1)
      expect(figures.get('pos_agent_alarms{code="DATA_KEY_MISSING"}')).toBe(0)
    }
    await until(async () => (await registrySamples(metrics)).get('pos_agent_stored_payments{}') === 1)
    expectStored(await registrySamples(metrics))
    const served = await scrape()
    expect(served.contentType).toMatch(/^text\/plain; version=0\.0\.4/)
    expectStored(await withHistograms(samples(parse(served.text)), metrics))

    host.clearFaults()
    await engine.forwarder.forwardNow()
    await eventually(() => engine.txn.reads.get(stored.id)?.state === 'forwarded')
    await until(async () => (await registrySamples(metrics)).get('pos_agent_queue_items{}') === 0)
    const after = await withHistograms(samples(parse((await scrape()).text)), metrics)
    expect(after.get('pos_agent_stored_payments{}')).toBe(0)
    expect(after.has('pos_agent_stored_amount_minor{currency="USD"}')).toBe(false)
    expect(after.get('pos_agent_oldest_stored_payment_age_seconds{}')).toBe(0)
    expect(after.get('pos_agent_host_reachable{}')).toBe(1)
    expect(after.get('pos_agent_host_request_duration_seconds_count{operation="payment",outcome="approved"}')).toBe(2)
  })

  it('counts a return as a return when it ends, never as a sale', async () => {
    const before = await registrySamples(metrics)
    const salesCounted = (figures: Map<string, number>) =>
      [...figures].filter(([name]) => name.startsWith('pos_agent_sales_total')).reduce((sum, [, n]) => sum + n, 0)
    const paid = await sale(4_000)
    reader.present({ card: TEST_CARDS.chipVisa() })
    const ret = engine.txn.returns.start({ originalId: paid.id, amountMinor: 1_500, currency: 'USD', managerApproved: true })
    await eventually(() => engine.txn.reads.get(ret.id)?.state === 'credited', 8_000)
    const after = await registrySamples(metrics)
    expect(after.get('pos_agent_returns_total{outcome="credited"}')).toBe(
      (before.get('pos_agent_returns_total{outcome="credited"}') ?? 0) + 1,
    )
    expect(after.get('pos_agent_returns_total{outcome="declined"}')).toBe(0)
    expect(after.get('pos_agent_sales_total{outcome="creditPending"}') ?? 0).toBe(0)
    expect(after.get('pos_agent_sales_total{outcome="credited"}') ?? 0).toBe(0)
    // The sale counted once; the return not at all among sales.
    expect(salesCounted(after)).toBe(salesCounted(before) + 1)
  })

  it('is read whole by a Prometheus text-format parser: every family typed, every value a number', async () => {
    const families = parse((await scrape()).text)
    expect(families.map((f) => f.name).sort()).toEqual(
      [
        'pos_agent_info',
        'pos_agent_sales_total',
        'pos_agent_returns_total',
        'pos_agent_host_request_duration_seconds',
        'pos_agent_queue_items',
        'pos_agent_stored_payments',
        'pos_agent_needs_attention',
        'pos_agent_oldest_stored_payment_age_seconds',
        'pos_agent_printer_state',
        'pos_agent_stored_amount_minor',
        'pos_agent_reversals_pending',
        'pos_agent_host_reachable',
        'pos_agent_reader_connected',
        'pos_agent_alarms',
        // Declared always; without a store it has no series (docs/monitoring.md).
        'pos_agent_store_copy',
      ].sort(),
    )
    for (const family of families) {
      expect(['COUNTER', 'GAUGE', 'HISTOGRAM']).toContain(family.type)
      for (const metric of family.metrics)
        for (const value of [metric.value, metric.count, metric.sum, ...Object.values(metric.buckets ?? {})])
          if (value !== undefined) expect(Number.isFinite(Number(value)), `${family.name} ${value}`).toBe(true)
    }
  })

  it('needs the token, like the rest of the API', async () => {
    expect((await fetch(new URL('/metrics', server.url))).status).toBe(401)
    expect((await fetch(new URL('/metrics', server.url), { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
  })
})
