/**
 * Model-based checker of the store's promises (docs/store.md "What the store trusts, and what it does
 * not"), against real parts: the store server as `pos-agent store server-config` writes it (Debian's
 * nats-server, one NKey user per lane), the training host over HTTPS (its ledger is the bank's truth),
 * and lane T-0001 in a child process (test/support/store-lane-worker.ts) that reaches the store through
 * a TCP forwarder. fast-check draws sequences of offline and online sales, voids of earlier sales, the
 * bank down and up, the lane frozen (SIGSTOP) and thawed, cut off from the store and back, killed
 * (SIGKILL) and started again on its own disk, the store server killed and started again on its store,
 * and rescues run from lane T-0002 (with the manager stating the terminal is off, or not). After each
 * sequence everything is settled (the bank up, the lane reachable, thawed or started again, its queue
 * drained, stopped; a last rescue when it was fenced) and checked:
 *
 * - every payment reaches the bank at most once charged: never two charges for one merchantTransID,
 *   and no charge for a sale the cashier saw voided or not approved (a voided stored payment may reach
 *   the bank only to be refused or reversed);
 * - every stored payment (approved offline, not voided) is charged at least once;
 * - nothing is left at the store for a rescued lane, and its last rescue left nothing to send;
 * - a fenced lane published nothing after its fence, and learned of it.
 *
 * Timing is real, so a replayed seed takes the same decisions but not always the same interleaving:
 * the command list a failure prints is the surest replay (`RESCUE_MODEL_COMMANDS`).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import type { Subscription } from '@nats-io/transport-node'
import { rescueSender } from '../../src-main/cli/commands/store-commands'
import {
  adminConnectionSettings,
  copyKeyAccount,
  CopyOpener,
  makeCopyKeyPair,
  makeEnrolment,
  makeRecoveryKeyPair,
  openRecoveryPrivateKey,
  readFence,
  runRescue,
  StoreConnection,
  type RescueRunResult,
} from '../../src-main/store'
import { isNotFound } from '../../src-main/store/store-connection'
import { bucketStream, bucketSubject, FENCE_BUCKET, laneStreamName, terminalCopies, terminalKey } from '../../src-main/store/store-names'
import { startTrainingHost, type TrainingHost } from '../../src-main/training/host'
import { AID, KEY } from './engine-harness'
import { FileSecretStore } from './file-secret-store'
import { hostClient } from './store-lane'
import { startForwarder, startStoreServer, type Forwarder, type StoreServer } from './store-server'

const STORE = 'S1'
const LANE = 'T-0001'
const RESCUER = 'T-0002'
const PASSPHRASE = 'a manager keeps this apart'
const MAX_AGE = 96 * 3_600_000
/** Short, so that a lane silent for a moment (frozen, dead, cut off) may be rescued in test time. */
export const RESCUE_AFTER_SECONDS = 2
/**
 * How long a healed lane has to send what it owes and to know of its fence: a fence watch made before
 * the store server was killed is made again after 15 s of silence (store-connection.ts).
 */
const DRAIN_MS = 30_000
/** The lanes' rules (test/support/engine-harness.ts: USD, offline up to USD 100.00 a payment; the configuration's return limits). */
const RULES = {
  currency: 'USD',
  storedPaymentMaxMinor: 10_000,
  unreferencedReturnMaxMinor: 10_000,
  unreferencedReturnPerCardDayMinor: 10_000,
  unreferencedReturnPerDayMinor: 50_000,
}
const keys = makeRecoveryKeyPair(PASSPHRASE)
const recovery = openRecoveryPrivateKey(keys.privateKeyPem, PASSPHRASE).jwk

// ---------------------------------------------------------------------------------------------
// The commands

export type ModelCommand =
  /** `offline`: the bank is down for this sale (it is stored); otherwise the bank is as it is. */
  | { kind: 'sale'; amountMinor: number; offline: boolean }
  /** A void of an earlier sale (its index among the sales rung up so far, modulo their number). */
  | { kind: 'void'; sale: number }
  /** The bank goes down, or comes back. */
  | { kind: 'bank' }
  /** The lane is frozen (SIGSTOP), or thawed (SIGCONT). */
  | { kind: 'freeze' }
  /** The lane's cable to the store server is pulled, or plugged back. */
  | { kind: 'cable' }
  /** The lane is killed (SIGKILL), or started again on its own disk. */
  | { kind: 'kill' }
  /** The store server is killed and started again on its store and port. */
  | { kind: 'storeRestart' }
  /** A rescue from lane T-0002, `afterMs` from now (a silent lane may be rescued once its heartbeat is old enough). */
  | { kind: 'rescue'; terminalIsOff: boolean; afterMs: number }
  | { kind: 'pause'; ms: number }

const simple = (kind: 'bank' | 'freeze' | 'cable' | 'kill' | 'storeRestart') => fc.constant({ kind })

/** Amounts the training host approves (it declines cents ending in 05 and 51): USD 5.00 to 60.00. */
const saleArb: fc.Arbitrary<ModelCommand> = fc
  .record({ amountMinor: fc.integer({ min: 5, max: 60 }), offline: fc.boolean() })
  .map(({ amountMinor, offline }): ModelCommand => ({ kind: 'sale', amountMinor: amountMinor * 100, offline }))

export const commandArb: fc.Arbitrary<ModelCommand> = fc.oneof(
  { weight: 5, arbitrary: saleArb },
  { weight: 3, arbitrary: fc.nat(20).map((sale): ModelCommand => ({ kind: 'void', sale })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ terminalIsOff: fc.boolean(), afterMs: fc.constantFrom(0, (RESCUE_AFTER_SECONDS + 0.3) * 1000) })
      .map(({ terminalIsOff, afterMs }): ModelCommand => ({ kind: 'rescue', terminalIsOff, afterMs })),
  },
  { weight: 1, arbitrary: fc.constantFrom(300, 1_200).map((ms): ModelCommand => ({ kind: 'pause', ms })) },
  { weight: 2, arbitrary: simple('bank') },
  { weight: 2, arbitrary: simple('freeze') },
  { weight: 2, arbitrary: simple('cable') },
  { weight: 2, arbitrary: simple('kill') },
  { weight: 1, arbitrary: simple('storeRestart') },
)

/** Each run rings up a sale or two first, so that what follows has something to void, store and rescue. */
export function scenarioArb(maxCommands: number): fc.Arbitrary<ModelCommand[]> {
  return fc
    .tuple(
      fc.array(saleArb, { minLength: 1, maxLength: 2 }),
      fc.array(commandArb, { minLength: 2, maxLength: Math.max(2, maxCommands - 2) }),
    )
    .map(([first, rest]) => [...first, ...rest])
}

// ---------------------------------------------------------------------------------------------
// The lane in its child process

interface Answer {
  id?: string
  state?: string
  error?: string
  [field: string]: unknown
}

interface LaneStatus {
  count: number
  owed: Array<{ operation: string; messageId: string }>
  fenced: boolean
  uncopied: number
  alarms: string[]
}

interface LaneProcess {
  child: ChildProcess
  ready: Promise<unknown>
  run(command: string): Promise<Answer>
  exited: Promise<void>
}

function spawnLane(world: World): LaneProcess {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/support/store-lane-worker.ts',
      world.laneDir,
      world.host.url,
      world.host.caFile,
      world.forwarder.url,
      LANE,
      keys.publicKey,
      world.keychainFile,
      world.server.seedFile(LANE),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let errors = ''
  child.stderr.on('data', (d: Buffer) => (errors = (errors + d.toString()).slice(-4_000)))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async (): Promise<Answer> => {
    let timer: NodeJS.Timeout | undefined
    try {
      const line = await Promise.race([
        lines.next(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the lane did not answer: ${errors}`)), 30_000))),
      ])
      if (line.done) throw new Error(`the lane stopped: ${errors}`)
      return JSON.parse(line.value) as Answer
    } finally {
      clearTimeout(timer)
    }
  }
  return {
    child,
    ready: next(),
    exited,
    async run(command) {
      child.stdin.write(`${command}\n`)
      return next()
    },
  }
}

// ---------------------------------------------------------------------------------------------
// One run

interface ModelSale {
  id: string
  amountMinor: number
  /** What the cashier saw when the sale ended. */
  state: string
  /** What the cashier saw when voiding it (a state, or the refusal's words). */
  void?: string
}

interface World {
  dir: string
  laneDir: string
  keychainFile: string
  server: StoreServer
  host: TrainingHost
  forwarder: Forwarder
  admin: StoreConnection
  observer: Subscription[]
  /** Every message seen on the lane's copy subjects and its fence key, in the order the store server passed them on. */
  seen: Array<{ subject: string; data: Uint8Array }>
  copyPublicKey: string
  lane: LaneProcess | undefined
  laneState: 'alive' | 'frozen' | 'dead'
  bankDown: boolean
  partitioned: boolean
  sales: ModelSale[]
  /** When the store server took the lane's fence (its clock), once a rescue fenced it. */
  fencedAt: Date | undefined
  rescues: number
  /** Rescues that changed nothing (the lane heard from lately, and the manager did not state it off). */
  rescuesRefused: number
  /** What each command did, for the report of a failing run. */
  trace: string[]
  violations: string[]
}

export interface RunReport {
  commands: number
  applied: number
  sales: number
  stored: number
  voids: number
  rescues: number
  rescuesRefused: number
  fenced: boolean
  violations: string[]
  trace: string[]
}

/**
 * A look at the store as the admin's commands take it (`fleet`, `lift-fence`, the rescue): a
 * connection of its own for each. A request written to a long-lived connection while it reconnects
 * after the store server's restart gets no answer; a command run afterwards never meets that.
 */
async function atStore<T>(world: World, what: string, read: (admin: StoreConnection) => Promise<T>): Promise<T> {
  const admin = new StoreConnection({
    ...adminConnectionSettings({ servers: [world.server.url], storeId: STORE, maxAgeMs: MAX_AGE }, world.server.adminSeed),
    name: 'model admin look',
  })
  try {
    return await labelled(what, read(admin))
  } finally {
    await admin.close()
  }
}

/** A harness call that failed says which it was. */
async function labelled<T>(what: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise
  } catch (error) {
    throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const charged = (status: string | undefined) => status === 'Captured' || status === 'Authorised'

async function startWorld(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-rescue-model-'))
  const server = await startStoreServer({ storeId: STORE, terminals: [LANE, RESCUER] })
  const host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
  const forwarder = await startForwarder(server.port)
  const admin = new StoreConnection({
    ...adminConnectionSettings({ servers: [server.url], storeId: STORE, maxAgeMs: MAX_AGE }, server.adminSeed),
    name: 'model admin',
  })
  // The lane's copy key in its keychain (a file: it outlives the process), enrolled at the store by the recovery key's holder.
  const keychainFile = join(dir, 'keychain.json')
  const copyKey = makeCopyKeyPair()
  await new FileSecretStore(keychainFile).set(copyKeyAccount(STORE, LANE), JSON.stringify(copyKey.privateJwk))
  const certificate = makeEnrolment(recovery, {
    storeId: STORE,
    terminalId: LANE,
    publicKey: copyKey.publicKey,
    by: 'model',
    now: new Date(),
  })
  await admin.putEnrolment(LANE, JSON.stringify(certificate), 5_000)
  const world: World = {
    dir,
    laneDir: join(dir, 'lane'),
    keychainFile,
    server,
    host,
    forwarder,
    admin,
    observer: [],
    seen: [],
    copyPublicKey: copyKey.publicKey,
    lane: undefined,
    laneState: 'dead',
    bankDown: false,
    partitioned: false,
    sales: [],
    fencedAt: undefined,
    rescues: 0,
    rescuesRefused: 0,
    trace: [],
    violations: [],
  }
  // One connection sees the fence's put and the lane's publications in the order the server took them.
  const nc = await admin.nats(5_000)
  const note = (_: Error | null, msg: { subject: string; data: Uint8Array }) =>
    void world.seen.push({ subject: msg.subject, data: new Uint8Array(msg.data) })
  world.observer.push(nc.subscribe(terminalCopies(STORE, LANE), { callback: note }))
  world.observer.push(nc.subscribe(bucketSubject(FENCE_BUCKET, terminalKey(STORE, LANE)), { callback: note }))
  await nc.flush()
  await startLaneProcess(world)
  return world
}

async function startLaneProcess(world: World): Promise<void> {
  const lane = spawnLane(world)
  world.lane = lane
  const ready = await lane.ready
  if ((ready as Answer).error) throw new Error(`the lane did not start: ${(ready as Answer).error}`)
  world.laneState = 'alive'
}

async function killLane(world: World): Promise<void> {
  const lane = world.lane
  world.lane = undefined
  world.laneState = 'dead'
  if (!lane || lane.child.exitCode !== null || lane.child.signalCode !== null) return
  lane.child.kill('SIGKILL')
  await lane.exited
}

async function closeWorld(world: World): Promise<void> {
  await killLane(world).catch(() => undefined)
  world.observer.forEach((sub) => sub.unsubscribe())
  await world.admin.close().catch(() => undefined)
  await world.forwarder.close()
  await world.host.close()
  await world.server.close()
  rmSync(world.dir, { recursive: true, force: true })
}

async function rescue(world: World, terminalIsOff: boolean): Promise<RescueRunResult & { out: string }> {
  const client = hostClient(world.host.url, world.host.caPem)
  const out: string[] = []
  try {
    const result = await runRescue({
      connection: adminConnectionSettings({ servers: [world.server.url], storeId: STORE, maxAgeMs: MAX_AGE }, world.server.adminSeed),
      terminalId: LANE,
      recoveryPublicKey: keys.publicKey,
      keyFile: 'recovery.pem',
      keyPem: keys.privateKeyPem,
      passphrase: PASSPHRASE,
      rules: RULES,
      rescueAfterSeconds: RESCUE_AFTER_SECONDS,
      terminalIsOff,
      dryRun: false,
      confirm: () => Promise.resolve(true),
      sender: rescueSender(client),
      reportDir: join(world.dir, 'reports'),
      reportDirIsDefault: true,
      lane: RESCUER,
      audit: () => undefined,
      print: (text) => void out.push(text),
      warn: (text) => void out.push(text),
      timeoutMs: 3_000,
    })
    return { ...result, out: out.join('\n') }
  } finally {
    await client.close()
  }
}

/** When the store server took the lane's fence (a fence is made once, never put again), or undefined. */
function fenceTime(world: World): Promise<Date | undefined> {
  return atStore(world, 'reading when the fence was put', async (admin) => {
    const jsm = await admin.manager(5_000)
    try {
      const subject = bucketSubject(FENCE_BUCKET, terminalKey(STORE, LANE))
      return (await jsm.streams.getMessage(bucketStream(FENCE_BUCKET), { last_by_subj: subject }))?.time ?? undefined
    } catch (error) {
      if (isNotFound(error)) return undefined
      throw error
    }
  })
}

/** What a message on the lane's copy subjects is: a copy or a withdrawal, of which item. */
async function describeRecord(world: World, subject: string, data: Uint8Array): Promise<string> {
  try {
    const record = await new CopyOpener(recovery).open(data, subject, [world.copyPublicKey])
    return `${record.kind === 'withdrawn' ? 'a withdrawal' : 'a copy'} of ${record.operation} ${record.messageId}`
  } catch (error) {
    return `a record that does not open (${error instanceof Error ? error.message : String(error)}) at ${subject}`
  }
}

/**
 * A fenced lane publishes nothing more (docs/store.md: "it watches its fence, and every pass that
 * would publish reads it first"): nothing the observer saw after the fence's put, and nothing in the
 * lane's stream that the store server took after the fence. Checked before every rescue erases what
 * it sent (a fenced lane erases nothing itself), and once more at the end.
 */
async function checkNothingAfterFence(world: World, when: string): Promise<void> {
  const fenceAt = world.seen.findIndex((m) => m.subject.startsWith('$KV.'))
  if (fenceAt >= 0)
    for (const m of world.seen.slice(fenceAt + 1))
      if (!m.subject.startsWith('$KV.'))
        world.violations.push(`${when}: the fenced lane published ${await describeRecord(world, m.subject, m.data)} after its fence`)
  if (world.fencedAt === undefined) return
  const fencedAt = world.fencedAt
  const late = await atStore(world, 'reading the stream', async (admin) => {
    const jsm = await admin.manager(5_000)
    const found: Array<{ subject: string; data: Uint8Array; timestamp: string }> = []
    for (const subject of await admin.copySubjects(LANE, 5_000)) {
      const stored = await jsm.streams.getMessage(laneStreamName(STORE, LANE), { last_by_subj: subject })
      if (stored && stored.time > fencedAt) found.push({ subject, data: new Uint8Array(stored.data), timestamp: stored.timestamp })
    }
    return found
  })
  for (const { subject, data, timestamp } of late)
    world.violations.push(
      `${when}: the store took ${await describeRecord(world, subject, data)} from the fenced lane at ${timestamp}, after its fence at ${fencedAt.toISOString()}`,
    )
  // Each finding once.
  world.seen = world.seen.filter((m) => m.subject.startsWith('$KV.'))
}

async function runCommand(world: World, command: ModelCommand): Promise<string> {
  const lane = world.lane
  const alive = world.laneState === 'alive' && lane !== undefined
  switch (command.kind) {
    case 'sale': {
      if (!alive) return `skipped: the lane is ${world.laneState}`
      const bankWasUp = !world.bankDown
      if (command.offline && bankWasUp) world.host.setFault('*', 'http-503')
      try {
        const answer = await lane.run(`sale ${command.amountMinor}`)
        if (answer.error !== undefined || answer.id === undefined) return `refused: ${answer.error ?? JSON.stringify(answer)}`
        world.sales.push({ id: answer.id, amountMinor: command.amountMinor, state: answer.state ?? '?' })
        return `${answer.id} ${answer.state}`
      } finally {
        if (command.offline && bankWasUp) world.host.clearFaults()
      }
    }
    case 'void': {
      if (!alive) return `skipped: the lane is ${world.laneState}`
      if (world.sales.length === 0) return 'skipped: no sale yet'
      const sale = world.sales[command.sale % world.sales.length]!
      const answer = await lane.run(`void ${sale.id}`)
      const outcome = answer.error !== undefined ? `refused: ${answer.error}` : (answer.state ?? '?')
      // A sale voided once stays voided at the counter: a second void is only refused.
      if (sale.void !== 'cancelled' && sale.void !== 'cancelPending') sale.void = outcome
      return `${sale.id} ${outcome}`
    }
    case 'bank':
      world.bankDown = !world.bankDown
      if (world.bankDown) world.host.setFault('*', 'http-503')
      else world.host.clearFaults()
      return world.bankDown ? 'the bank is down' : 'the bank is back'
    case 'freeze':
      if (world.laneState === 'dead' || !lane) return 'skipped: the lane is dead'
      lane.child.kill(world.laneState === 'alive' ? 'SIGSTOP' : 'SIGCONT')
      world.laneState = world.laneState === 'alive' ? 'frozen' : 'alive'
      return world.laneState === 'frozen' ? 'the lane is frozen' : 'the lane is thawed'
    case 'cable':
      if (world.partitioned) await world.forwarder.restore()
      else await world.forwarder.cut()
      world.partitioned = !world.partitioned
      return world.partitioned ? 'the lane is cut off from the store' : 'the lane reaches the store again'
    case 'kill':
      if (world.laneState !== 'dead') {
        await killLane(world)
        return 'the lane is killed'
      }
      await startLaneProcess(world)
      return 'the lane is started again on its own disk'
    case 'storeRestart':
      await world.server.restart()
      return 'done'
    case 'pause':
      await sleep(command.ms)
      return 'done'
    case 'rescue': {
      await sleep(command.afterMs)
      await checkNothingAfterFence(world, 'before a rescue')
      const result = await rescue(world, command.terminalIsOff)
      world.fencedAt ??= await fenceTime(world)
      world.rescues++
      if (!result.report) world.rescuesRefused++
      if (!result.report) return `exit ${result.code}: ${result.out.split('\n').at(-1)}`
      const lines = result.report.lines.map((l) => `${l.operation} ${l.saleId || l.messageId} ${l.result}`).join(', ')
      return `exit ${result.code}: ${lines || 'nothing sent'}; ${result.report.left} left`
    }
  }
}

/** Everything healed, the lane's queue drained as far as its fence lets it, the lane stopped; then a last rescue of a fenced lane. */
async function settle(world: World): Promise<{ finalRescue?: RescueRunResult & { out: string } }> {
  world.host.clearFaults()
  world.bankDown = false
  if (world.partitioned) await world.forwarder.restore()
  world.partitioned = false
  if (world.laneState === 'frozen') {
    world.lane!.child.kill('SIGCONT')
    world.laneState = 'alive'
  }
  if (world.laneState === 'dead') await startLaneProcess(world)
  const lane = world.lane!
  const fencedAtStore = async () =>
    (await atStore(world, 'reading the fence', (admin) => readFence(admin, STORE, LANE, 5_000))) !== undefined
  // Drained: a lane sends all it owes; a fenced one its reversals (the rest belongs to the rescue).
  let status: LaneStatus | undefined
  for (const until = Date.now() + DRAIN_MS; Date.now() < until;) {
    status = (await labelled('the lane forwarding', lane.run('forward'))) as unknown as LaneStatus
    const fenced = await fencedAtStore()
    const drained = fenced ? status.fenced && status.owed.every((item) => item.operation !== 'reversal') : status.count === 0
    if (drained) break
    status = undefined
    await sleep(250)
  }
  if (!status) {
    const last = (await lane.run('status')) as unknown as LaneStatus
    world.violations.push(
      `the lane's queue did not drain once everything was healed: ${JSON.stringify(last)}${(await fencedAtStore()) ? ' (the store holds its fence)' : ''}`,
    )
  }
  await lane.run('quit')
  await lane.exited
  world.lane = undefined
  world.laneState = 'dead'
  if (!(await fencedAtStore())) return {}
  world.fencedAt ??= await fenceTime(world)
  await checkNothingAfterFence(world, 'at the end')
  const finalRescue = await rescue(world, true)
  return { finalRescue }
}

interface JournalSale {
  id: string
  state: string
  offline: number
  amount_minor: number
}

function readJournal(world: World): {
  sales: Map<string, JournalSale>
  /** The operations of a sale's queue items, each with its state. */
  queued: (id: string) => Array<{ operation: string; state: string }>
  history: (id: string) => string
} {
  const db = new Database(join(world.laneDir, 'journal.sqlite'), { readonly: true, fileMustExist: true })
  try {
    const sales = db.prepare('SELECT id, state, offline, amount_minor FROM sale').all() as JournalSale[]
    const events = db.prepare('SELECT sale_id, type, from_state, to_state FROM sale_event ORDER BY seq').all() as Array<{
      sale_id: string
      type: string
      from_state: string | null
      to_state: string
    }>
    const outbox = db.prepare('SELECT sale_id, operation, state FROM outbox ORDER BY seq').all() as Array<{
      sale_id: string
      operation: string
      state: string
    }>
    const history = (id: string) =>
      [
        ...events.filter((e) => e.sale_id === id).map((e) => `${e.type}:${e.from_state ?? ''}→${e.to_state}`),
        ...outbox.filter((o) => o.sale_id === id).map((o) => `queue ${o.operation}=${o.state}`),
      ].join(', ')
    const queued = (id: string) => outbox.filter((o) => o.sale_id === id).map(({ operation, state }) => ({ operation, state }))
    return { sales: new Map(sales.map((s) => [s.id, s])), queued, history }
  } finally {
    db.close()
  }
}

/** The invariants, against the bank's ledger, the lane's journal (read after it stopped) and the store. */
async function check(world: World, finalRescue: (RescueRunResult & { out: string }) | undefined): Promise<void> {
  const bad = (words: string) => void world.violations.push(words)
  const { entries, payments } = world.host.ledger()
  const journal = readJournal(world)
  const paymentOf = new Map(payments.map((p) => [p.merchantTransID, p]))
  const bank = (id: string) => {
    const p = paymentOf.get(id)
    const sent = entries
      .filter((e) => e.merchantTransID === id)
      .map((e) => `${e.operation}=${e.status ?? e.resultCode}${e.replayed ? '(repeat)' : ''}`)
    return `${p ? p.status : 'unknown'} at the bank [${sent.join(', ')}] [journal: ${journal.history(id)}]`
  }

  // Never two charges for one merchantTransID.
  const charges = new Map<string, number>()
  for (const e of entries)
    if (e.operation === 'payment' && !e.replayed && charged(e.status))
      charges.set(e.merchantTransID, (charges.get(e.merchantTransID) ?? 0) + 1)
  for (const [id, n] of charges) if (n > 1) bad(`payment ${id} was charged ${n} times: ${bank(id)}`)

  for (const sale of world.sales) {
    const inJournal = journal.sales.get(sale.id)
    if (!inJournal) {
      bad(`sale ${sale.id} (${sale.state} at the counter) is not in the lane's journal`)
      continue
    }
    const status = paymentOf.get(sale.id)?.status
    const voidAsked = sale.void === 'cancelled' || sale.void === 'cancelPending'
    const approved = sale.state === 'approved' || sale.state === 'storedOffline'
    if (!approved) {
      // Declined, or its answer lost (reversed): the customer pays nothing.
      if (charged(status)) bad(`sale ${sale.id} was ${sale.state} at the counter but is ${bank(sale.id)}`)
    } else if (voidAsked && inJournal.state === 'cancelled') {
      // The cashier saw it voided: no charge stands (a voided stored payment may only be refused or reversed).
      if (charged(status)) bad(`sale ${sale.id} was voided at the counter (${sale.void}) but is ${bank(sale.id)}`)
    } else if (voidAsked && inJournal.state === 'cancelPending') {
      // Still waiting for the bank once everything was healed and the queue drained: a void is a
      // reversal or a cancel, and even a fenced terminal sends those (docs/store.md "A void while cut off").
      bad(`sale ${sale.id}'s void still waits once everything was healed and the queue drained: ${bank(sale.id)}`)
    } else if (!voidAsked || inJournal.state === 'approved' || inJournal.state === 'forwarded') {
      // Approved online, or stored offline and not voided: charged at least once.
      if (!charged(status))
        bad(`sale ${sale.id} was ${sale.state} at the counter${sale.void ? ` (void: ${sale.void})` : ''} but is ${bank(sale.id)}`)
    } else bad(`sale ${sale.id}: its void answered ${sale.void ?? ''} but it ends ${inJournal.state}: ${bank(sale.id)}`)
  }

  if (finalRescue) {
    // Nothing is left at the store for a rescued lane: the last rescue sent or erased all of it.
    if (!finalRescue.report) bad(`the last rescue of the fenced lane did not run: exit ${finalRescue.code}: ${finalRescue.out}`)
    else if (finalRescue.report.left > 0 || finalRescue.report.refusedCopies > 0)
      bad(`the last rescue left ${finalRescue.report.left} message(s) and refused ${finalRescue.report.refusedCopies}: ${finalRescue.out}`)
    const left = await atStore(world, 'listing what is left', (admin) => admin.copySubjects(LANE, 5_000))
    if (left.length > 0) bad(`the store still holds ${left.length} record(s) of the rescued lane: ${left.join(', ')}`)
  }
}

export async function runScenario(commands: ModelCommand[]): Promise<RunReport> {
  const world = await startWorld()
  let applied = 0
  try {
    for (const [i, command] of commands.entries()) {
      const outcome = await runCommand(world, command)
      if (!outcome.startsWith('skipped')) applied++
      world.trace.push(`${i}: ${JSON.stringify(command)} → ${outcome}`)
    }
    const { finalRescue } = await settle(world)
    if (finalRescue)
      world.trace.push(
        `settle: last rescue → exit ${finalRescue.code}, ${finalRescue.report?.lines.map((l) => `${l.operation} ${l.saleId || l.messageId} ${l.result}`).join(', ') ?? 'no report'}`,
      )
    await check(world, finalRescue)
  } catch (error) {
    world.violations.push(`the run stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  } finally {
    await closeWorld(world)
  }
  return {
    commands: commands.length,
    applied,
    sales: world.sales.length,
    stored: world.sales.filter((s) => s.state === 'storedOffline').length,
    voids: world.sales.filter((s) => s.void !== undefined).length,
    rescues: world.rescues,
    rescuesRefused: world.rescuesRefused,
    fenced: world.fencedAt !== undefined,
    violations: world.violations,
    trace: world.trace,
  }
}

// ---------------------------------------------------------------------------------------------
// Many runs

export interface ModelSummary {
  runs: number
  commands: number
  applied: number
  sales: number
  stored: number
  voids: number
  rescues: number
  rescuesRefused: number
  fencedRuns: number
  seed: number
  ms: number
  failure?: { path: string; commands: ModelCommand[]; violations: string[]; trace: string[] }
}

export interface ModelOptions {
  runs: number
  maxCommands: number
  seed?: number
  path?: string
  /** One given sequence instead of generated ones (a failure's printed list). */
  commands?: ModelCommand[]
  log?: (line: string) => void
  /** Each run's commands and what they did, not only a failing run's. */
  trace?: boolean
}

export async function runRescueModel(options: ModelOptions): Promise<ModelSummary> {
  const started = Date.now()
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0
  const summary: ModelSummary = {
    runs: 0,
    commands: 0,
    applied: 0,
    sales: 0,
    stored: 0,
    voids: 0,
    rescues: 0,
    rescuesRefused: 0,
    fencedRuns: 0,
    seed,
    ms: 0,
  }
  const reports = new WeakMap<ModelCommand[], RunReport>()
  const property = fc.asyncProperty(
    options.commands ? fc.constant(options.commands) : scenarioArb(options.maxCommands),
    async (commands) => {
      const report = await runScenario(commands)
      reports.set(commands, report)
      summary.runs++
      summary.commands += report.commands
      summary.applied += report.applied
      summary.sales += report.sales
      summary.stored += report.stored
      summary.voids += report.voids
      summary.rescues += report.rescues
      summary.rescuesRefused += report.rescuesRefused
      if (report.fenced) summary.fencedRuns++
      options.log?.(
        `run ${summary.runs}: ${report.commands} commands (${report.applied} applied), ${report.sales} sales (${report.stored} stored), ${report.voids} voids, ${report.rescues} rescues${report.fenced ? ', fenced' : ''}, ${report.violations.length} violations`,
      )
      if (options.trace) report.trace.forEach((line) => options.log?.(`  ${line}`))
      return report.violations.length === 0
    },
  )
  // No shrinking: each run starts processes, and timing is real; the failing sequence is printed whole.
  const result = await fc.check(property, {
    numRuns: options.commands ? 1 : options.runs,
    seed,
    ...(options.path !== undefined ? { path: options.path } : {}),
    endOnFailure: true,
  })
  summary.ms = Date.now() - started
  if (result.failed && result.counterexample) {
    const [commands] = result.counterexample
    const report = reports.get(commands)
    summary.failure = {
      path: result.counterexamplePath ?? '',
      commands,
      violations: report?.violations ?? [String(result.errorInstance ?? 'failed')],
      trace: report?.trace ?? [],
    }
  } else if (result.failed)
    summary.failure = { path: result.counterexamplePath ?? '', commands: [], violations: [String(result.errorInstance)], trace: [] }
  return summary
}

/** What a failing run ends with: the violations, what each command did, and how to run it again. */
export function describeFailure(summary: ModelSummary): string {
  const failure = summary.failure
  if (!failure) return ''
  return [
    `rescue model: invariant violated (seed ${summary.seed}, path ${failure.path})`,
    ...failure.violations.map((v) => `  - ${v}`),
    'commands:',
    ...failure.trace.map((line) => `  ${line}`),
    `replay: RESCUE_MODEL_SEED=${summary.seed} RESCUE_MODEL_PATH=${failure.path} npm test -- test/main/store/rescue-model.test.ts`,
    `    or: RESCUE_MODEL_COMMANDS='${JSON.stringify(failure.commands)}' npm test -- test/main/store/rescue-model.test.ts`,
  ].join('\n')
}
