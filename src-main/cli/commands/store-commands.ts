/**
 * The store's server from the command line (docs/store.md): the recovery key pair, the rescue of a
 * dead terminal's queue, the fleet view, and the terminal's store credentials in the keychain.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { OPERATIONS, type HostClient } from '../../gateway'
import {
  CopyOpener,
  enrolledKeys,
  readEnrolmentHistory,
  fleetTable,
  fleetView,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  rescueCsv,
  rescueTerminal,
  StoreConnection,
  readFleet,
  type LaneRecords,
  type RescueReport,
  type RescueSender,
  type StoreConnectionSettings,
} from '../../store'
import { storeCaPem } from '../../app'
import { storeSecretAccount } from '../../keychain'
import { displayAmount } from '../../../src-shared/money'
import { EXIT } from '../exit-codes'
import { agreeing, counted } from '../../../src-shared/counted'

/** `pos-agent store keygen`: the private key into a new file (owner-only), the public key printed for the configuration. */
export function storeKeygen(file: string, passphrase: string): number {
  if (existsSync(file)) {
    console.error(`${file} already exists: a recovery key is never overwritten (choose another file name)`)
    return EXIT.usage
  }
  const pair = makeRecoveryKeyPair(passphrase)
  writeFileSync(file, pair.privateKeyPem, { mode: 0o600, flag: 'wx' })
  console.log(`recovery private key written to ${file} (keep it off the terminals, with its passphrase apart from it)`)
  console.log(`put this in every terminal's configuration as store.recoveryPublicKey:\n${pair.publicKey}`)
  return EXIT.ok
}

/** The gateway client as the rescue's sender: each item under its own id, as the terminal would have sent it. */
export function rescueSender(host: HostClient): RescueSender {
  return {
    async send(copy) {
      const originalId = OPERATIONS[copy.operation].takesOriginalId ? copy.saleId : undefined
      const outcome = await host.sendUnchecked(copy.operation, copy.body, originalId)
      switch (outcome.kind) {
        case 'approved':
          return { kind: 'approved', authCode: outcome.authorizationCode }
        case 'declined':
          return { kind: 'declined', reason: outcome.reason }
        case 'rejected':
          return { kind: 'refused', reason: `refused by the bank: ${outcome.message}` }
        case 'notDelivered':
          return { kind: 'notSent', reason: 'not sent: the bank could not be reached' }
        case 'unknown':
          return { kind: 'notSent', reason: 'no valid answer came back from the bank' }
      }
    },
  }
}

export interface RescueInput {
  connection: Omit<StoreConnectionSettings, 'name'>
  terminalId: string
  keyPem: string
  passphrase: string
  host: HostClient
  reportDir: string
  timeoutMs?: number
  json?: boolean
}

/** `pos-agent rescue`: returns the report and the exit code (0 when nothing is left, 1 when a run again is needed). */
export async function rescueCommand(input: RescueInput): Promise<{ code: number; report: RescueReport; file: string }> {
  const key = openRecoveryPrivateKey(input.keyPem, input.passphrase)
  const connection = new StoreConnection({ ...input.connection, name: `pos-agent rescue on ${hostname()}` })
  try {
    const storeId = input.connection.storeId
    const history = await readEnrolmentHistory(connection, storeId, input.terminalId, input.timeoutMs ?? 5_000)
    const enrolled = enrolledKeys(key.jwk, history, { storeId, terminalId: input.terminalId })
    const report = await rescueTerminal({
      senderPublicKeys: enrolled.keys,
      connection,
      storeId: input.connection.storeId,
      terminalId: input.terminalId,
      opener: new CopyOpener(key.jwk),
      sender: rescueSender(input.host),
      by: hostname(),
      rescueId: randomUUID(),
      timeoutMs: input.timeoutMs ?? 5_000,
      now: () => new Date(),
    })
    mkdirSync(input.reportDir, { recursive: true })
    const file = join(input.reportDir, `rescue-${input.terminalId}-${report.endedAt.replace(/[:.]/g, '-')}.csv`)
    writeFileSync(file, rescueCsv(report), { flag: 'wx' })
    if (input.json) console.log(JSON.stringify({ ...report, file }))
    else console.log(rescueSummary(report, file))
    return { code: report.left === 0 ? EXIT.ok : EXIT.failure, report, file }
  } finally {
    await connection.close()
  }
}

function rescueSummary(report: RescueReport, file: string): string {
  const counts = new Map<string, number>()
  for (const line of report.lines) counts.set(line.result, (counts.get(line.result) ?? 0) + 1)
  const what = report.lines.map(
    (l) =>
      `  ${l.saleId} ${l.operation} ${l.currency ? displayAmount(l.amountMinor, l.currency) : ''}: ${l.bankSaid}${l.authCode ? ` (${l.authCode})` : ''}`,
  )
  return [
    `terminal ${report.terminalId} of store ${report.storeId} is fenced since ${report.fence.rescuedAt} (by ${report.fence.by}): it no longer sends its queue`,
    report.lines.length === 0 ? 'nothing was left to send' : `${counted(report.lines.length, 'message')}:`,
    ...what,
    [...counts].map(([result, n]) => `${n} ${result}`).join(', '),
    report.left === 0
      ? 'nothing is left at the store for this terminal'
      : `${counted(report.left, 'message')} ${agreeing(report.left, 'is', 'are')} still waiting: run the rescue again once the bank answers`,
    `report: ${file}`,
  ]
    .filter((line) => line !== '')
    .join('\n')
}

/** `pos-agent fleet`: every lane that wrote a heartbeat to this store server (or these, through a hub). */
export async function fleetCommand(
  connections: Array<Omit<StoreConnectionSettings, 'name'>>,
  json: boolean,
  timeoutMs = 5_000,
): Promise<number> {
  const records: LaneRecords[] = []
  for (const settings of connections) {
    const connection = new StoreConnection({ ...settings, name: `pos-agent fleet on ${hostname()}` })
    try {
      // Heartbeats and fences, each parsed: one that does not read is a line of the table, not a stop.
      records.push(...(await readFleet(connection, timeoutMs)))
    } finally {
      await connection.close()
    }
  }
  const lanes = fleetView(records, Date.now())
  console.log(json ? JSON.stringify(lanes) : fleetTable(lanes))
  return lanes.some((lane) => lane.needsPerson.length > 0) ? EXIT.failure : EXIT.ok
}

/** The store connection settings a lane's configuration names (its own credentials from the keychain). */
export async function storeConnectionOf(
  config: {
    merchant: { storeId: string }
    store?:
      | {
          servers: string[]
          caFile?: string | undefined
          domain?: string | undefined
          user?: string | undefined
          nkey?: string | undefined
        }
      | undefined
  },
  secrets: { get(account: string): Promise<string | undefined> },
  maxAgeMs: number,
): Promise<Omit<StoreConnectionSettings, 'name'> | undefined> {
  const store = config.store
  if (!store) return undefined
  return {
    servers: store.servers,
    caPem: storeCaPem(store),
    storeId: config.merchant.storeId,
    domain: store.domain,
    user: store.user,
    password: store.user ? await secrets.get(storeSecretAccount('password', store.user)) : undefined,
    nkeySeed: store.nkey ? await secrets.get(storeSecretAccount('nkey-seed', store.nkey)) : undefined,
    maxAgeMs,
  }
}
