/**
 * The store's server from the command line (docs/store.md): the recovery key pair and its re-wrap,
 * the terminal's enrolment, the rescue of a dead terminal's queue, the fleet view, and the terminal's
 * store credentials in the keychain. The work is the store domain's; here the console.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import {
  enrolTerminal,
  fleetTable,
  fleetView,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  passphraseProblem,
  runRescue,
  StoreConnection,
  wrapRecoveryKey,
  readFleet,
  type EnrolInput,
  type LaneRecords,
  type RescueRunInput,
  type RescueRunResult,
  type StoreConnectionSettings,
} from '../../store'
import { SYSTEM_CLOCK, type Clock } from '../../../src-shared/clock'
import { EXIT } from '../exit-codes'

// What the rescue sends with and a lane connects with are the composition root's (app/store-outside.ts).
export { rescueSender, storeConnectionOf } from '../../app'

/** `pos-agent store keygen`: the private key into a new file (owner-only), the public key printed for the configuration. */
export function storeKeygen(file: string, passphrase: string): number {
  if (existsSync(file)) {
    console.error(`${file} already exists: a recovery key is never overwritten (choose another file name)`)
    return EXIT.usage
  }
  const problem = passphraseProblem(passphrase)
  if (problem) {
    console.error(`${problem}: no key was made`)
    return EXIT.usage
  }
  const pair = makeRecoveryKeyPair(passphrase)
  writeFileSync(file, pair.privateKeyPem, { mode: 0o600, flag: 'wx' })
  console.log(`recovery private key written to ${file} (keep it off the terminals, with its passphrase apart from it)`)
  console.log(`put this in every terminal's configuration as store.recoveryPublicKey:\n${pair.publicKey}`)
  return EXIT.ok
}

/**
 * `pos-agent store keygen --rewrap OLD --out NEW`: the same key pair in a new file under the current
 * protection (scrypt, AES-256-GCM) and a passphrase that meets the rule; OLD is left for the manager
 * to destroy once NEW is checked.
 */
export function storeRewrap(oldFile: string, file: string, oldPassphrase: string, newPassphrase: string): number {
  if (existsSync(file)) {
    console.error(`${file} already exists: a recovery key is never overwritten (choose another file name)`)
    return EXIT.usage
  }
  let opened: ReturnType<typeof openRecoveryPrivateKey>
  try {
    opened = openRecoveryPrivateKey(readFileSync(oldFile, 'utf8'), oldPassphrase)
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}: nothing was written`)
    return EXIT.usage
  }
  const problem = passphraseProblem(newPassphrase)
  if (problem) {
    console.error(`${problem}: nothing was written`)
    return EXIT.usage
  }
  writeFileSync(file, wrapRecoveryKey(opened.jwk, newPassphrase), { mode: 0o600, flag: 'wx' })
  console.log(`the recovery key of ${oldFile} is written to ${file} under the new passphrase (public key ${opened.publicKey})`)
  console.log(`check that ${file} opens (for instance with \`pos-agent rescue --dry-run\`), then destroy ${oldFile} and its copies`)
  return EXIT.ok
}

export type RescueInput = Omit<RescueRunInput, 'print' | 'warn'>

/** `pos-agent rescue`: the run (src-main/store/rescue-run.ts) on the console; exit 0 when nothing is left or refused. */
export function rescueCommand(input: RescueInput): Promise<RescueRunResult> {
  return runRescue({ ...input, print: (text) => console.log(text), warn: (text) => console.error(text) })
}

export type EnrolCommandInput = Omit<EnrolInput, 'print' | 'warn'>

/** `pos-agent store enrol`: on the terminal, its copy key and certificate (src-main/store/enrol-terminal.ts). */
export function enrolCommand(input: EnrolCommandInput): Promise<number> {
  return enrolTerminal({ ...input, print: (text) => console.log(text), warn: (text) => console.error(text) })
}

/** `pos-agent fleet`: every lane that wrote a heartbeat to this store server (or these, through a hub). */
export async function fleetCommand(
  connections: Array<Omit<StoreConnectionSettings, 'name'>>,
  json: boolean,
  timeoutMs = 5_000,
  clock: Clock = SYSTEM_CLOCK,
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
  const lanes = fleetView(records, clock.now())
  console.log(json ? JSON.stringify(lanes) : fleetTable(lanes))
  return lanes.some((lane) => lane.needsPerson.length > 0) ? EXIT.failure : EXIT.ok
}
