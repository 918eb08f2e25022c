/**
 * `npm run bench:metrics`: how long a `/metrics` scrape takes on a journal of 1,000,000 sales, against
 * the same scrape on an empty journal in the same run (the baseline). A scrape must not grow with the
 * journal: the queue figures are kept in memory and refreshed after changes (src-main/metrics). Also
 * printed: one refresh on the large journal (paid after a change, off the scrape) and what a scrape
 * would cost if it read the journal itself. Ends with one JSON line of figures.
 *
 * Rows: every sale approved online with its event, one in ten stored offline and since forwarded (a
 * done queue item), and at the end 200 payments still stored and 20 reversals pending.
 */
import { EventEmitter } from 'node:events'
import { Agent, createServer, get as httpGet } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import type { HostClient } from '../../src-main/gateway'
import { FieldSealer, JOURNAL_MIGRATIONS, JournalStore, openJournalDatabase } from '../../src-main/journal'
import { MemorySecretStore } from '../../src-main/keychain'
import { AgentMetrics } from '../../src-main/metrics'
import { DEFAULT_RETRY_POLICY, Forwarder, type QueueAnswerSink, type TxnService } from '../../src-main/txn'
import { percentile } from './support/bench-kit'

const ROWS = Number(process.env.BENCH_METRICS_ROWS ?? 1_000_000)
const SCRAPES = 2_000

async function journalOf(dir: string, sales: number) {
  const db = openJournalDatabase(join(dir, 'journal.sqlite'), { migrations: JOURNAL_MIGRATIONS })
  const insertSale = db.prepare(
    `INSERT INTO sale (id, state, created_at, updated_at, business_day, trans_time, amount_minor, currency, auto_capture, offline)
     VALUES (?, ?, ?, ?, '2025-06-01', '20250601120000', ?, 'USD', 1, ?)`,
  )
  const insertEvent = db.prepare(
    "INSERT INTO sale_event (sale_id, at, type, from_state, to_state) VALUES (?, ?, 'paymentAnswered', 'sending', ?)",
  )
  const insertItem = db.prepare(
    `INSERT INTO outbox (sale_id, operation, message_id, priority, state, amount_minor, currency, attempts, next_attempt_at, created_at, done_at)
     VALUES (?, ?, ?, ?, ?, ?, 'USD', 1, ?, ?, ?)`,
  )
  const start = Date.now() - sales * 1_000
  db.transaction(() => {
    for (let i = 0; i < sales; i++) {
      const id = `T1-BENCH001-${String(i).padStart(8, '0')}`
      const at = start + i * 1_000
      const storedNow = i >= sales - 200
      const reversal = i >= sales - 220 && !storedNow
      const forwarded = !storedNow && !reversal && i % 10 === 0
      const state = storedNow ? 'storedOffline' : reversal ? 'reversalPending' : forwarded ? 'forwarded' : 'approved'
      insertSale.run(id, state, at, at, 1_000 + (i % 5_000), storedNow || forwarded ? 1 : 0)
      insertEvent.run(id, at, state)
      if (forwarded) insertItem.run(id, 'payment', id, 1, 'done', 1_000, at, at, at + 500)
      if (storedNow) insertItem.run(id, 'payment', id, 1, 'pending', 1_000 + (i % 5_000), at + 60_000, at, null)
      if (reversal) insertItem.run(id, 'reversal', id, 0, 'pending', 0, at + 60_000, at, null)
    }
  })()
  const sealer = await FieldSealer.open(new MemorySecretStore(), 'T1', { create: true })
  const journal = new JournalStore(db, sealer, { idEpoch: 'BENCH001' })
  const logger = pino({ level: 'silent' })
  // Built, never started: the figures are read from its status, nothing is sent.
  const forwarder = new Forwarder({
    journal,
    host: {} as HostClient,
    sales: {} as QueueAnswerSink,
    retry: DEFAULT_RETRY_POLICY,
    logger,
  })
  return { db, journal, forwarder }
}

async function measure(sales: number) {
  const dir = mkdtempSync(join(tmpdir(), 'pos-bench-metrics-'))
  const built = performance.now()
  const { db, journal, forwarder } = await journalOf(dir, sales)
  const buildMs = performance.now() - built
  const metrics = new AgentMetrics({ info: { terminalId: 'T1', mode: 'training', currency: 'USD' }, alarmCodes: ['DATA_KEY_MISSING'] })
  const refreshed = performance.now()
  metrics.watch({
    txn: new EventEmitter() as unknown as TxnService, // no sale happens during the measurement
    forwarder,
    journal,
    reader: { status: () => ({ connected: true, busy: false }) },
    alarms: () => [],
  })
  const refreshMs = performance.now() - refreshed
  const scrapes: number[] = []
  let text = ''
  for (let i = 0; i < 200; i++) await metrics.scrape() // warm-up: compiled code, as in a long-running agent
  for (let i = 0; i < SCRAPES; i++) {
    const t = performance.now()
    text = await metrics.scrape()
    scrapes.push(performance.now() - t)
  }
  // The same scrape through HTTP, as Prometheus makes it.
  const server = createServer(
    (_, response) => void metrics.scrape().then((body) => response.writeHead(200, { 'content-type': metrics.contentType }).end(body)),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const get = () =>
    new Promise<void>((resolve, reject) => httpGet(url, { agent }, (response) => response.resume().on('end', resolve)).on('error', reject))
  for (let i = 0; i < 50; i++) await get()
  const http: number[] = []
  for (let i = 0; i < SCRAPES / 4; i++) {
    const t = performance.now()
    await get()
    http.push(performance.now() - t)
  }
  agent.destroy()
  server.closeAllConnections()
  server.close()
  // What a scrape would cost if it read the journal each time (what the metrics avoid).
  const queries: number[] = []
  for (let i = 0; i < 20; i++) {
    const t = performance.now()
    forwarder.status()
    journal.openSales()
    queries.push(performance.now() - t)
  }
  metrics.close()
  db.close()
  rmSync(dir, { recursive: true, force: true })
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
  if (!/pos_agent_stored_payments \d+/.test(text)) throw new Error('the scrape lacks the stored payments')
  return {
    buildMs,
    refreshMs,
    p50: percentile(sorted(scrapes), 50),
    p99: percentile(sorted(scrapes), 99),
    httpP99: percentile(sorted(http), 99),
    queryP99: percentile(sorted(queries), 99),
    storedLine: /pos_agent_stored_payments \d+/.exec(text)![0],
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000
const baseline = await measure(0)
console.log(
  `baseline (empty journal): scrape p50 ${round(baseline.p50)} ms, p99 ${round(baseline.p99)} ms; over HTTP p99 ${round(baseline.httpP99)} ms`,
)
const large = await measure(ROWS)
console.log(`journal of ${ROWS} sales built in ${Math.round(large.buildMs)} ms; ${large.storedLine}`)
console.log(`large journal: scrape p50 ${round(large.p50)} ms, p99 ${round(large.p99)} ms; over HTTP p99 ${round(large.httpP99)} ms`)
console.log(
  `one refresh of the queue figures after a change: ${round(large.refreshMs)} ms; reading the journal at every scrape would cost p99 ${round(large.queryP99)} ms`,
)
console.log(
  JSON.stringify({
    bench: 'metrics',
    rows: ROWS,
    scrapeMsP50: round(large.p50),
    scrapeMsP99: round(large.p99),
    httpScrapeMsP99: round(large.httpP99),
    baselineScrapeMsP99: round(baseline.p99),
    ratio: round(large.p99 / baseline.p99),
    refreshMs: round(large.refreshMs),
    journalReadMsP99: round(large.queryP99),
  }),
)
