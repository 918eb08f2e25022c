/**
 * Runs inside a checkout of the last release (copied to its test/upgrade/ by
 * test/support/upgrade-journal.ts), with that release's own engine: it fills a journal with what a
 * terminal may owe the bank when it is updated, then stops, and writes what it left owed.
 *
 *   argv: <dataDir> <hostUrl> <caFile> <secretsFile> <manifestFile>
 *
 * With the real training host over HTTPS: three sales approved (authorised only, restaurant mode);
 * then a fourth the host charges but whose answer it drops (process-then-drop), so a reversal is
 * owed; from then on the bank is unreachable (a closed port), and a tip of the first sale, a capture
 * of the second, a return's credit on the third and two payments stored offline are queued. The
 * queue tries each once against the closed port, so the body of every owed item is seen as sent.
 * The manifest lists each owed item (operation, ids, state) with the SHA-256 of the body it sent,
 * never the body (stored payments carry card data). Only imports that exist in the release are used.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync, existsSync } from 'node:fs'
import { request } from 'node:https'
import { createServer } from 'node:net'
import Database from 'better-sqlite3'
import pino from 'pino'
import { composeEngine } from '../../src-main/app/compose'
import { UndiciHostClient, type HostClient } from '../../src-main/gateway/gateway-client'
import type { SecretStore } from '../../src-main/keychain'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { AID, KEY, testSettings } from '../support/engine-harness'

const [dataDir, hostUrl, caFile, secretsFile, manifestFile] = process.argv.slice(2)
if (!dataDir || !hostUrl || !caFile || !secretsFile || !manifestFile)
  throw new Error('usage: release-writer <dataDir> <hostUrl> <caFile> <secretsFile> <manifestFile>')
const ca = readFileSync(caFile, 'utf8')

/** The keychain as a file, so the new code finds the data key and the installation's id again. */
class FileSecrets implements SecretStore {
  readonly kind = 'os-keychain' as const
  constructor(private readonly file: string) {}
  private read(): Record<string, string> {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>) : {}
  }
  get(account: string): Promise<string | undefined> {
    return Promise.resolve(this.read()[account])
  }
  set(account: string, secret: string): Promise<void> {
    writeFileSync(this.file, JSON.stringify({ ...this.read(), [account]: secret }), { mode: 0o600 })
    return Promise.resolve()
  }
  delete(account: string): Promise<boolean> {
    const all = this.read()
    const had = account in all
    delete all[account]
    writeFileSync(this.file, JSON.stringify(all), { mode: 0o600 })
    return Promise.resolve(had)
  }
}

const closedPort = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number }
    probe.close(() => resolve(port))
  })
})
const client = (url: string) =>
  new UndiciHostClient(
    {
      offlineBaseUrl: url,
      baseUrl: url,
      aid: AID,
      signType: 'HMAC-SHA256',
      extraCaPem: ca,
      connectTimeoutMs: 1_000,
      responseTimeoutMs: 1_500,
    },
    { signingKey: KEY },
  )
const bank = client(hostUrl)
const unreachable = client(`https://127.0.0.1:${closedPort}`)

/** Every body sent, by operation and the message's id, last one kept: what the queue holds sealed. */
const sentBodies = new Map<string, string>()
let bankUp = true
/** Set just before the sale whose answer the host drops: the bank is gone from the moment that answer is lost. */
let downAfterNextPayment = false
const sha256 = (body: unknown) => createHash('sha256').update(JSON.stringify(body)).digest('hex')
/** A message's own id: in its merchantTransInfo; a reversal has none and goes by its sale's. */
const messageIdOf = (body: unknown, originalId?: string) =>
  (body as { merchantTransInfo?: { merchantTransID?: string } } | null)?.merchantTransInfo?.merchantTransID ?? originalId ?? ''
async function sendVia<T>(
  kind: string,
  body: unknown,
  originalId: string | undefined,
  send: (to: UndiciHostClient) => Promise<T>,
): Promise<T> {
  sentBodies.set(`${kind} ${messageIdOf(body, originalId)}`, sha256(body))
  const outcome = await send(bankUp ? bank : unreachable)
  if (downAfterNextPayment && kind === 'payment') {
    downAfterNextPayment = false
    bankUp = false
  }
  return outcome
}
const host: HostClient = {
  send: (kind, body, originalId) => sendVia(kind, body, originalId, (to) => to.send(kind, body, originalId)),
  sendUnchecked: (kind, body, originalId) => sendVia(kind, body, originalId, (to) => to.sendUnchecked(kind, body, originalId)),
  close: async () => {
    await bank.close()
    await unreachable.close()
  },
}

/** The training host's admin door (not signed, 127.0.0.1 only): the fault that drops one answer. */
function setFault(rule: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(rule)
    const req = request(
      new URL('/admin/faults', hostUrl),
      { method: 'POST', ca, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume()
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`admin faults answered ${res.statusCode}`))))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const base = testSettings(dataDir)
const reader = new ScriptedCardReader()
const engine = await composeEngine(
  {
    ...base,
    restaurantMode: true,
    duplicateWindowMs: 0,
    limits: { ...base.limits, unreferencedReturnMaxMinor: 10_000 },
    offline: { ...base.offline, allowSwipe: true },
    retry: {
      baseDelayMs: 50,
      maxDelayMs: 200,
      maxAttempts: 100_000,
      maxAgeHours: { payment: 24, reversal: 72, tips: 24, cancel: 24, capture: 24 },
    },
  },
  { reader, host, secrets: new FileSecrets(secretsFile), logger: pino({ level: 'silent' }) },
)
const { txn } = engine

async function sale(amountMinor: number, offlinePolicy?: 'forceOffline'): Promise<{ id: string; state: string }> {
  reader.present({ card: TEST_CARDS.chipVisa() })
  const started = txn.startSale({ amountMinor, currency: 'USD', ...(offlinePolicy ? { offlinePolicy } : {}) })
  return txn.waitForOutcome(started.id)
}
const expect = (what: string, state: string, wanted: string): void => {
  if (state !== wanted) throw new Error(`${what} ended ${state}, expected ${wanted}`)
}

const tipped = await sale(4_000)
expect('the sale to tip', tipped.state, 'approved')
const captured = await sale(2_500)
expect('the sale to capture', captured.state, 'approved')
const returned = await sale(6_000)
expect('the sale to return', returned.state, 'approved')

await setFault({ operation: 'payment', fault: 'process-then-drop', times: 1 })
// the host charges it and its answer is lost: the release owes a reversal, and the bank is gone
downAfterNextPayment = true
const reversed = await sale(3_300)

await txn.adjustTip(tipped.id, 700)
await txn.capture(captured.id)
reader.present({ card: TEST_CARDS.chipVisa() })
const credit = txn.startReturn({ originalId: returned.id, amountMinor: 1_500, currency: 'USD', managerApproved: true })
const creditDone = await txn.waitForOutcome(credit.id)
expect('the return', creditDone.state, 'creditPending')
const stored = [await sale(1_800, 'forceOffline'), await sale(2_200, 'forceOffline')]
for (const s of stored) expect('a stored payment', s.state, 'storedOffline')

type Row = { seq: number; saleId: string; operation: string; messageId: string; state: string; attempts: number }
const look = new Database(`${dataDir}/journal.sqlite`, { readonly: true })
const owedRows = (): Row[] =>
  look
    .prepare(
      "SELECT seq, sale_id AS saleId, operation, message_id AS messageId, state, attempts FROM outbox WHERE state IN ('pending', 'inflight', 'attention') ORDER BY seq",
    )
    .all() as Row[]
// Each owed item tried once against the closed port: its sealed body has been seen as it goes out.
const until = Date.now() + 30_000
while (owedRows().some((row) => row.attempts === 0)) {
  if (Date.now() > until) throw new Error(`items never tried: ${JSON.stringify(owedRows().filter((r) => r.attempts === 0))}`)
  engine.forwarder.wake()
  await new Promise((r) => setTimeout(r, 50))
}
await engine.close()
await host.close()
const rows = owedRows()
const saleStates = Object.fromEntries(
  (look.prepare('SELECT id, state FROM sale').all() as Array<{ id: string; state: string }>).map((s) => [s.id, s.state]),
)
const version = look.pragma('user_version', { simple: true })
look.close()

const kindOf: Record<string, string> = { merchandiseCredit: 'merchandiseCredit' }
const items = rows.map((row) => ({
  ...row,
  bodySha256: sentBodies.get(`${kindOf[row.operation] ?? row.operation} ${row.messageId}`) ?? null,
}))
const roles = {
  tipped: tipped.id,
  captured: captured.id,
  returned: returned.id,
  credit: credit.id,
  reversed: reversed.id,
  stored: stored.map((s) => s.id),
}
writeFileSync(manifestFile, JSON.stringify({ journalVersion: version, roles, reversedState: reversed.state, saleStates, items }, null, 2))
console.log(`owed ${items.length}`)
