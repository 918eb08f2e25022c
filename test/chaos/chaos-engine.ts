/**
 * Model-based chaos checker for the transaction engine. fast-check generates sequences of sales
 * (every offline policy, every test card), voids at any moment, tips, returns (of a charged sale,
 * part or whole or more than is left, with its card or another; and without a sale, by a manager),
 * close of day, forward now, host down and up, every fault of the training host, a store server
 * (docs/store.md) down, slow and restarted in the runs that draw one, and SIGKILLs of the worker
 * between commands and in the middle of them; and the seams where flows meet (chaos-seams.ts):
 * tip changes, voids and returns racing a return's card read, a void during a forward, a tip past
 * every limit, nexo payments, refunds, reversals and aborts from two POS under repeated ServiceIDs.
 * With a store, once it answers again every item the terminal still owes must have a copy in its
 * stream. After each sequence the system is settled (healthy host, restart,
 * queue drained, manager actions the model allows) and invariants are checked against the training
 * host's ledger and the journal, read from disk once the worker has stopped.
 *
 * Example tests were written with the code and share its blind spots; a generated sequence does not.
 * Timing is real, so a replayed seed takes the same decisions but not always the same interleaving.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { COUNTER_BUSY, CHARGED, OFFLINE_POLICIES, type OfflinePolicy, type SaleState } from '../../src-shared/sale'
import { overCredited, startTrainingHost, type TrainingHost } from '../../src-main/training/host'
import type { OperationKind } from '../../src-main/gateway'
import { AID, KEY } from '../support/engine-harness'
import { makeRecoveryKeyPair } from '../../src-main/store'
import { startNatsServer, type NatsServer } from '../support/nats-server'
import { StoreGate } from './store-gate'
import { commandAvailable } from '../support/system'
import {
  limitViolations,
  nexoDisagreement,
  nexoServiceId,
  seamArbs,
  type LimitRow,
  type NexoSent,
  type Race,
  type SeamCommand,
} from './chaos-seams'
import type { NexoCheck } from '../support/chaos-nexo'
import { TEST_SALE_LIMITS } from '../support/engine-harness'
import {
  CHAOS_CARDS,
  READER_FAULTS,
  RETURN_READER_FAULTS,
  UNREFERENCED_RETURN_MAX_MINOR,
  UNREFERENCED_RETURN_PER_CARD_DAY_MINOR,
  UNREFERENCED_RETURN_PER_DAY_MINOR,
  type ChaosCard,
  type ReaderFault,
  type ReturnReaderFault,
  type WorkerCommand,
} from '../support/chaos-worker'

// ---------------------------------------------------------------------------------------------
// The commands the generator draws from

export type FaultTargetName = OperationKind | '*'

export type ChaosCommand =
  | {
      kind: 'sale'
      amountMinor: number
      policy: OfflinePolicy
      card: ChaosCard
      /** A chip that declines after the host approved (AAC): the reversal path. */
      cardDeclines: boolean
      /** Most sales meet a healthy reader; some a read that fails, no card, or a reader lost at completion. */
      readerFault?: ReaderFault
      /** false: later commands overlap the sale (a void, a kill, a fault in the middle of it). */
      wait: boolean
    }
  | { kind: 'void'; sale: number }
  | {
      /** A return of an earlier sale: a share of what is left (100: all of it), or `overMinor` > 0 more than is left. */
      kind: 'return'
      sale: number
      /** Picked among the sales with something left to return, as from the list; otherwise any earlier sale. */
      chargedOnly: boolean
      percent: number
      overMinor: number
      /** The customer presents a card other than the one the sale was paid with: the terminal refuses it. */
      otherCard: boolean
      readerFault?: ReturnReaderFault
      wait: boolean
    }
  | {
      /** A return without a sale: only with a manager (Scenario.manager), within the terminal's limit. */
      kind: 'unreferencedReturn'
      amountMinor: number
      card: ChaosCard
      readerFault?: ReturnReaderFault
      wait: boolean
    }
  | { kind: 'tip'; sale: number; percent: number }
  | { kind: 'close'; managerOverride: boolean }
  | { kind: 'forwardNow' }
  | { kind: 'hostDown' }
  | { kind: 'hostUp' }
  | { kind: 'fault'; operation: FaultTargetName; fault: string; times?: number }
  | { kind: 'clearFaults' }
  | { kind: 'kill' }
  /** SIGKILL a moment from now, whatever is running then: in the middle of a command or of forwarding. */
  | { kind: 'killSoon'; afterMs: number }
  | { kind: 'pause'; ms: number }
  /** The store's server (docs/store.md), in runs that draw one: unreachable, slow, back, restarted. */
  | { kind: 'storeDown' }
  | { kind: 'storeSlow'; ms: number }
  | { kind: 'storeUp' }
  | { kind: 'storeRestart' }
  | SeamCommand

/** Every fault of the training host; `delay=900` outlasts the worker's 700 ms response timeout. */
/** The checkout this file is in: the worker's path does not depend on where the run was started. */
const ROOT_DIR = resolve(import.meta.dirname, '..', '..')

export const CHAOS_FAULTS = [
  'delay=900',
  'drop-before-processing',
  'process-then-drop',
  'http-503',
  'proxy-503',
  'proxy-503-after-processing',
  'bad-signature',
  'garbage-body',
] as const

const FAULT_TARGETS: readonly FaultTargetName[] = ['*', '*', 'payment', 'reversal', 'cancel', 'tips', 'capture']

/** The host declines amounts ending in 51 or 05 (docs/gateway.md §D4): the cents are drawn to hit them. */
const amountArb = fc.tuple(fc.integer({ min: 1, max: 320 }), fc.constantFrom(0, 25, 51, 5, 99)).map(([major, minor]) => major * 100 + minor)

const saleIndex = fc.nat({ max: 30 })

const returnReaderFaultArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  ...RETURN_READER_FAULTS.map((fault) => ({ weight: 1, arbitrary: fc.constant(fault) })),
)

export const commandArb: fc.Arbitrary<ChaosCommand> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        kind: fc.constant('sale' as const),
        amountMinor: amountArb,
        policy: fc.constantFrom(...OFFLINE_POLICIES),
        card: fc.constantFrom<ChaosCard>('chip', 'swipe', 'contactless'),
        cardDeclines: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
        wait: fc.boolean(),
        readerFault: fc.oneof(
          { weight: 9, arbitrary: fc.constant(undefined) },
          ...READER_FAULTS.map((fault) => ({ weight: 1, arbitrary: fc.constant(fault) })),
        ),
      },
      { requiredKeys: ['kind', 'amountMinor', 'policy', 'card', 'cardDeclines', 'wait'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), sale: saleIndex }) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        kind: fc.constant('return' as const),
        sale: saleIndex,
        chargedOnly: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
        // all that is left, or part of it
        percent: fc.oneof({ weight: 2, arbitrary: fc.constant(100) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 99 }) }),
        // now and then more than is left
        overMinor: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 5_000 }) }),
        otherCard: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
        readerFault: returnReaderFaultArb,
        wait: fc.boolean(),
      },
      { requiredKeys: ['kind', 'sale', 'chargedOnly', 'percent', 'overMinor', 'otherCard', 'wait'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        kind: fc.constant('unreferencedReturn' as const),
        // a sixth of them above the terminal's limit
        amountMinor: fc.integer({ min: 1, max: Math.round(UNREFERENCED_RETURN_MAX_MINOR * 1.2) }),
        card: fc.constantFrom<ChaosCard>('chip', 'swipe', 'contactless'),
        readerFault: returnReaderFaultArb,
        wait: fc.boolean(),
      },
      { requiredKeys: ['kind', 'amountMinor', 'card', 'wait'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tip' as const), sale: saleIndex, percent: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), managerOverride: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'forwardNow' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'hostDown' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'hostUp' as const }) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('fault' as const),
        operation: fc.constantFrom(...FAULT_TARGETS),
        fault: fc.constantFrom(...CHAOS_FAULTS),
        times: fc.integer({ min: 1, max: 3 }),
      },
      { requiredKeys: ['kind', 'operation', 'fault'] },
    ),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'clearFaults' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'kill' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('killSoon' as const), afterMs: fc.integer({ min: 0, max: 600 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 10, max: 800 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'storeDown' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('storeSlow' as const), ms: fc.integer({ min: 50, max: 600 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'storeUp' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'storeRestart' as const }) },
  ...seamArbs,
)

export const scenarioArb = fc.record({
  restaurant: fc.boolean(),
  /** The terminal copies its queue to a store server (a real nats-server behind a gate), where there is one. */
  store: commandAvailable('nats-server') ? fc.boolean() : fc.constant(false),
  /** The terminal has a manager, who approves a return without a sale; without one such a return is refused. */
  manager: fc.boolean(),
  commands: fc.array(commandArb, { minLength: 6, maxLength: 40, size: 'medium' }),
})
/** `manager` absent (a sequence printed before returns): no manager. */
export type Scenario = { restaurant: boolean; manager?: boolean; store?: boolean; commands: ChaosCommand[] }

// ---------------------------------------------------------------------------------------------
// The host behind a gate: "down" refuses connections, as a host that is off or unreachable does

export class HostGate {
  private readonly sockets = new Set<Socket>()
  private isUp = false

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async open(targetPort: number): Promise<HostGate> {
    const server = createServer()
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
    })
    const gate = new HostGate(server, port)
    gate.isUp = true
    server.on('connection', (client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      gate.sockets.add(client).add(upstream)
      const drop = (): void => {
        client.destroy()
        upstream.destroy()
        gate.sockets.delete(client)
        gate.sockets.delete(upstream)
      }
      client.on('error', drop).on('close', drop)
      upstream.on('error', drop).on('close', drop)
      client.pipe(upstream)
      upstream.pipe(client)
    })
    return gate
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}`
  }

  async down(): Promise<void> {
    if (!this.isUp) return
    this.isUp = false
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()))
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
    await closed
  }

  async up(): Promise<void> {
    if (this.isUp) return
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject)
        resolve()
      })
    })
    this.isUp = true
  }

  async close(): Promise<void> {
    await this.down()
  }
}

// ---------------------------------------------------------------------------------------------
// The worker process

export interface WorkerAnswer {
  n: number
  ok: boolean
  error?: string
  code?: string
  [key: string]: unknown
}

export class WorkerKilled extends Error {}

/**
 * How a worker is started. Through tsx, every spawn compiled the worker's whole module graph again
 * (about 0.3 s of a kill's 1 s on a two-core machine); built once per process into one ESM file
 * under out/ (esbuild, which tsx runs on; the packages stay in node_modules), a spawn loads plain
 * JavaScript. POS_AGENT_CHAOS_TSX=1, or no esbuild, keeps tsx.
 */
let workerBuild: Promise<string[]> | undefined
function workerEntry(): Promise<string[]> {
  const viaTsx = ['--import', 'tsx', join(ROOT_DIR, 'test/support/chaos-worker.ts')]
  if (process.env.POS_AGENT_CHAOS_TSX) return Promise.resolve(viaTsx)
  workerBuild ??= (async () => {
    try {
      const { build } = await import('esbuild')
      const outfile = join(ROOT_DIR, 'out', 'chaos-worker', `chaos-worker-${process.pid}.mjs`)
      await build({
        entryPoints: [join(ROOT_DIR, 'test/support/chaos-worker.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        outfile,
        logLevel: 'error',
      })
      process.once('exit', () => rmSync(outfile, { force: true }))
      return [outfile]
    } catch {
      return viaTsx
    }
  })()
  return workerBuild
}

export class WorkerProcess {
  private readonly pending = new Map<number, { resolve: (a: WorkerAnswer) => void; reject: (e: Error) => void }>()
  private next = 0
  private buffer = ''
  private stderr = ''
  alive = true
  readonly exited: Promise<void>

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.alive = false
        for (const waiter of this.pending.values()) waiter.reject(new WorkerKilled('the worker stopped'))
        this.pending.clear()
        resolve()
      }),
    )
  }

  static async start(args: string[]): Promise<WorkerProcess> {
    const child = spawn(process.execPath, [...(await workerEntry()), ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const worker = new WorkerProcess(child)
    // A command written as the worker is killed meets a closed pipe (EPIPE): the exit that follows
    // rejects it as WorkerKilled, which the run expects; unhandled, the error would end the run.
    child.stdin.on('error', () => undefined)
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker not ready in 30 s: ${worker.stderr}`)), 30_000)
      child.stdout.on('data', (data: Buffer) => {
        worker.buffer += data.toString()
        let at: number
        while ((at = worker.buffer.indexOf('\n')) >= 0) {
          const line = worker.buffer.slice(0, at)
          worker.buffer = worker.buffer.slice(at + 1)
          if (!line.trim()) continue
          const message = JSON.parse(line) as WorkerAnswer & { ready?: boolean; alarms?: unknown[] }
          if (message.ready) {
            clearTimeout(timer)
            if (message.alarms && message.alarms.length > 0) reject(new Error(`worker alarms at start: ${JSON.stringify(message.alarms)}`))
            else resolve()
            continue
          }
          const waiter = worker.pending.get(message.n)
          worker.pending.delete(message.n)
          waiter?.resolve(message)
        }
      })
      child.stderr.on('data', (data: Buffer) => (worker.stderr = (worker.stderr + data.toString()).slice(-4_000)))
      void worker.exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`worker exited before ready: ${worker.stderr}`))
      })
    })
    await ready
    return worker
  }

  send(command: WorkerCommand, timeoutMs = 20_000): Promise<WorkerAnswer> {
    if (!this.alive) return Promise.reject(new WorkerKilled('the worker is not running'))
    const n = ++this.next
    return new Promise<WorkerAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(n)
        reject(new Error(`no answer to ${JSON.stringify(command)} in ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending.set(n, {
        resolve: (a) => (clearTimeout(timer), resolve(a)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      })
      this.child.stdin!.write(`${JSON.stringify({ n, ...command })}\n`)
    })
  }

  async kill(): Promise<void> {
    if (this.alive) this.child.kill('SIGKILL')
    await this.exited
  }

  /** Closes stdin: the worker closes the engine and exits. */
  async stop(): Promise<void> {
    if (!this.alive) return
    this.child.stdin!.end()
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000)
    await this.exited
    clearTimeout(timer)
  }

  get errorOutput(): string {
    return this.stderr
  }
}

// ---------------------------------------------------------------------------------------------
// One run: interpret a sequence, settle, check

interface ModelSale {
  id: string
  amountMinor: number
  card: ChaosCard
  policy: OfflinePolicy
}

/** A return as the model saw it: known by its reference even when a kill took its answer. */
interface ModelReturn {
  reference: string
  /** The journal's id, when the answer came. */
  id?: string
  /** The code of the terminal's refusal, when it refused to start the return. */
  refused?: string
}

/** The model's sales as a return's target: the worker picks among them as the terminal stands. */
const targetsOf = (sales: ModelSale[]) => sales.map((s) => ({ id: s.id, card: s.card }))

export interface RunReport {
  violations: string[]
  kills: number
  /** Generated commands interpreted. */
  commands: number
  /** Lines sent to the worker, settling included. */
  workerCommands: number
  sales: number
  /** Return commands sent to the worker, and of them those the terminal refused to start, by code. */
  returns: number
  returnsRefused: Record<string, number>
  refusals: number
  states: Record<string, number>
  /** How the returns in the journal ended. */
  returnStates: Record<string, number>
  /** nexo messages sent, and TransactionStatus answers checked against the journal (after restarts and at the end). */
  nexo: number
  nexoChecks: number
  /** Seam commands run: a race on a return's card read, a void during a forward, a tip past every limit. */
  races: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The store's recovery key of every run (only its public half is used: the checker reads no copy). */
const STORE_KEYS = makeRecoveryKeyPair('chaos checker recovery passphrase')

/** A real nats-server behind a gate, for a run that draws a store. */
class StoreUnderTest {
  private constructor(
    readonly server: NatsServer,
    readonly gate: StoreGate,
  ) {}

  static async start(): Promise<StoreUnderTest> {
    const server = await startNatsServer()
    return new StoreUnderTest(server, await StoreGate.open(server.port))
  }

  async close(): Promise<void> {
    await this.gate.close()
    await this.server.close()
  }
}

/** The host declines these amounts (docs/gateway.md §D4): a stored one cannot be collected. */
export const hostDeclines = (amountMinor: number): boolean => amountMinor % 100 === 51 || amountMinor % 100 === 5

/** States a sale may rest in once settled with a healthy host. */
const SETTLED_OK: ReadonlySet<SaleState> = new Set<SaleState>([
  'approved',
  'declined',
  'abandoned',
  'forwarded',
  'reversed',
  'cancelled',
  'captured',
  'notReceived',
  'credited',
])

const CLEAR_SECRETS = [
  ...new Set(Object.values(CHAOS_CARDS).flatMap((card) => [card().pan, card().track2 ?? '', card().track1 ?? ''])),
].filter((s) => s.length > 0)

const minorOf = (value: string | undefined): number | undefined => (value === undefined ? undefined : Math.round(Number(value) * 100))

export interface RunOptions {
  /** Holds the training host's TLS material between runs (making it costs time). */
  tlsDir: string
  log?: (line: string) => void
}

export async function runScenario(scenario: Scenario, options: RunOptions): Promise<RunReport> {
  const dir = mkdtempSync(join(tmpdir(), 'pos-chaos-'))
  const agentDir = join(dir, 'agent')
  mkdirSync(agentDir)
  const service = `pos-agent-chaos-${randomUUID()}`
  const host: TrainingHost = await startTrainingHost({ stateDir: options.tlsDir, signingKeys: { [AID]: KEY } })
  const gate = await HostGate.open(host.port)
  const report: RunReport = {
    violations: [],
    kills: 0,
    commands: 0,
    workerCommands: 0,
    sales: 0,
    returns: 0,
    returnsRefused: {},
    refusals: 0,
    states: {},
    returnStates: {},
    nexo: 0,
    nexoChecks: 0,
    races: 0,
  }
  const sales: ModelSale[] = []
  const nexoSent = new Map<string, NexoSent>()
  const returns: ModelReturn[] = []
  const manager = scenario.manager === true
  const store = scenario.store === true ? await StoreUnderTest.start() : undefined
  const args = [
    agentDir,
    gate.url,
    host.caFile,
    service,
    scenario.restaurant ? 'restaurant' : 'retail',
    ...(store ? [store.gate.url, STORE_KEYS.publicKey] : []),
  ]
  let worker: WorkerProcess | undefined
  const timers = new Set<NodeJS.Timeout>()

  /** One worker at a time on the journal: commands sent together (a void during a forward) wait for the same start. */
  let starting: Promise<WorkerProcess> | undefined
  const ensureWorker = (): Promise<WorkerProcess> => {
    if (worker?.alive) return Promise.resolve(worker)
    starting ??= (async () => {
      const restarted = worker !== undefined
      const started = await WorkerProcess.start(args)
      worker = started
      // After every restart, nexo must tell each POS what the journal says.
      if (restarted && nexoSent.size > 0) await checkNexo()
      return started
    })().finally(() => (starting = undefined))
    return starting
  }
  const checkNexo = async (): Promise<void> => {
    const answer = await send({ op: 'nexoCheck', requests: [...nexoSent.values()] }, 30_000)
    if (!answer?.ok) return
    for (const check of answer.checks as NexoCheck[]) {
      report.nexoChecks++
      const disagreement = nexoDisagreement(check)
      if (disagreement !== undefined) report.violations.push(`nexo TransactionStatus disagrees with the journal: ${disagreement}`)
    }
  }
  const remember = (sent: NexoSent): void => void nexoSent.set(`${sent.pos}|${sent.serviceId}|${sent.category}`, sent)
  /** What runs on `sale` while a return of it waits for its card. */
  const race = async (what: Race, sale: ModelSale, index: number): Promise<void> => {
    switch (what) {
      case 'tipDown':
        await send({ op: 'adjustTip', id: sale.id, tipMinor: 0 })
        break
      case 'tipUp':
        await send({ op: 'adjustTip', id: sale.id, tipMinor: Math.max(1, Math.floor(sale.amountMinor * 0.3)) })
        break
      case 'void':
        await send({ op: 'voidSale', id: sale.id, card: sale.card })
        break
      case 'return': {
        const reference = `chaos-return-${returns.length + 1}`
        const model: ModelReturn = { reference }
        returns.push(model)
        report.returns++
        const answer = await send({
          op: 'startReturn',
          reference,
          target: { sales: [{ id: sale.id, card: sale.card }], index: 0, chargedOnly: false, otherCard: false },
          amount: { percentOfLeft: 100, overMinor: 0 },
          managerApproved: manager,
        })
        if (answer && !answer.ok) model.refused = answer.code ?? '?'
        else if (answer?.ok) model.id = (answer.sale as { id: string }).id
        break
      }
      case 'nexoReversal': {
        const serviceId = nexoServiceId('Reversal', 100 + index)
        remember({ pos: 'POS-A', serviceId, category: 'Reversal' })
        report.nexo++
        await send({ op: 'nexoReversal', pos: 'POS-A', serviceId, saleId: sale.id, amountMinor: 1, wait: false, card: sale.card })
        break
      }
    }
  }
  const killWorker = async (): Promise<void> => {
    if (worker?.alive) {
      report.kills++
      await worker.kill()
    }
  }
  /** Sends one command; a kill in the middle of it is expected and not an error. */
  const send = async (command: WorkerCommand, timeoutMs?: number): Promise<WorkerAnswer | undefined> => {
    const w = await ensureWorker()
    report.workerCommands++
    try {
      const answer = await w.send(command, timeoutMs)
      if (!answer.ok) {
        report.refusals++
        if (answer.code === undefined || answer.code === 'INTERNAL') {
          report.violations.push(`unexpected error from ${JSON.stringify(command)}: ${answer.code ?? ''} ${answer.error ?? ''}`)
        }
      }
      return answer
    } catch (error) {
      if (error instanceof WorkerKilled) return undefined
      report.violations.push(`${(error as Error).message}; worker stderr: ${w.errorOutput}`)
      await w.kill()
      return undefined
    }
  }

  try {
    await ensureWorker()
    for (const command of scenario.commands) {
      report.commands++
      switch (command.kind) {
        case 'sale': {
          const answer = await send({
            op: 'startSale',
            amountMinor: command.amountMinor,
            offlinePolicy: command.policy,
            card: command.card,
            ...(command.cardDeclines && command.card !== 'swipe' ? { decision: 'declined' as const } : {}),
            ...(command.readerFault ? { readerFault: command.readerFault } : {}),
          })
          const sale = answer?.ok ? (answer.sale as { id: string }) : undefined
          if (!sale) break
          sales.push({ id: sale.id, amountMinor: command.amountMinor, card: command.card, policy: command.policy })
          if (command.wait) {
            const outcome = await send({ op: 'waitForOutcome', id: sale.id, timeoutMs: 15_000 })
            if (outcome?.timedOut)
              report.violations.push(`sale ${sale.id} still at the counter after 15 s: ${JSON.stringify(outcome.sale)}`)
          }
          break
        }
        case 'void': {
          const sale = sales[command.sale % Math.max(1, sales.length)]
          if (sale) await send({ op: 'voidSale', id: sale.id, card: sale.card })
          break
        }
        case 'return':
        case 'unreferencedReturn': {
          const referenced = command.kind === 'return'
          if (referenced && sales.length === 0) break
          const reference = `chaos-return-${returns.length + 1}`
          const model: ModelReturn = { reference }
          returns.push(model)
          report.returns++
          const answer = await send({
            op: 'startReturn',
            reference,
            target: referenced
              ? { sales: targetsOf(sales), index: command.sale, chargedOnly: command.chargedOnly, otherCard: command.otherCard }
              : { card: command.card },
            amount: referenced ? { percentOfLeft: command.percent, overMinor: command.overMinor } : { minor: command.amountMinor },
            // a referenced return needs no more approval of the engine than the API's; one without a sale needs the manager
            managerApproved: manager,
            ...(command.readerFault ? { readerFault: command.readerFault } : {}),
          })
          if (!answer) break
          if (!answer.ok) {
            model.refused = answer.code ?? '?'
            report.returnsRefused[model.refused] = (report.returnsRefused[model.refused] ?? 0) + 1
            if (answer.code === 'MANAGER_REQUIRED' && (manager || referenced))
              report.violations.push(`return ${reference} refused for want of a manager (${manager ? 'there is one' : 'it names a sale'})`)
            break
          }
          const started = answer.sale as { id: string; kind?: string; originalId?: string } | undefined
          if (!started) {
            report.violations.push(`return ${reference} answered without a return: ${JSON.stringify(answer)}`)
            break
          }
          model.id = started.id
          if (started.kind !== 'return' || started.originalId !== answer.originalId)
            report.violations.push(`return ${reference} started as ${JSON.stringify(started)}`)
          if (!referenced && !manager) report.violations.push(`return ${reference} without a sale started with no manager to approve it`)
          if (!referenced && (answer.amountMinor as number) > UNREFERENCED_RETURN_MAX_MINOR)
            report.violations.push(`return ${reference} without a sale started above the limit: ${String(answer.amountMinor)}`)
          if (command.wait) {
            const outcome = await send({ op: 'waitForOutcome', id: started.id, timeoutMs: 15_000 })
            if (outcome?.timedOut)
              report.violations.push(`return ${started.id} still at the counter after 15 s: ${JSON.stringify(outcome.sale)}`)
          }
          break
        }
        case 'tip': {
          const sale = sales[command.sale % Math.max(1, sales.length)]
          if (sale)
            await send({ op: 'adjustTip', id: sale.id, tipMinor: Math.max(1, Math.floor((sale.amountMinor * command.percent) / 100)) })
          break
        }
        case 'close':
          await send({ op: 'closeDay', managerOverride: command.managerOverride })
          break
        case 'forwardNow':
          await send({ op: 'forwardNow' })
          break
        case 'hostDown':
          await gate.down()
          break
        case 'hostUp':
          await gate.up()
          break
        case 'fault':
          host.setFault(command.operation, command.fault, command.times)
          break
        case 'clearFaults':
          host.clearFaults()
          break
        case 'kill':
          await killWorker()
          break
        case 'killSoon': {
          const target = await ensureWorker()
          const timer = setTimeout(() => {
            timers.delete(timer)
            if (target.alive && target === worker) {
              report.kills++
              void target.kill()
            }
          }, command.afterMs)
          timers.add(timer)
          break
        }
        case 'pause':
          await sleep(command.ms)
          break
        case 'storeDown':
          await store?.gate.down()
          break
        case 'storeSlow':
          await store?.gate.up()
          store?.gate.slow(command.ms)
          break
        case 'storeUp':
          await store?.gate.up()
          break
        case 'storeRestart':
          await store?.server.restart()
          break
        case 'returnRace': {
          if (sales.length === 0) break
          report.races++
          const reference = `chaos-return-${returns.length + 1}`
          const model: ModelReturn = { reference }
          returns.push(model)
          report.returns++
          // A return of everything left, its card held back while the race runs on the same sale.
          const started = await send({
            op: 'startReturn',
            reference,
            target: { sales: targetsOf(sales), index: command.sale, chargedOnly: true, otherCard: false },
            amount: { percentOfLeft: 100, overMinor: 0 },
            managerApproved: manager,
            cardAfterMs: command.cardAfterMs,
          })
          if (!started) break
          if (!started.ok) {
            model.refused = started.code ?? '?'
            report.returnsRefused[model.refused] = (report.returnsRefused[model.refused] ?? 0) + 1
            break
          }
          model.id = (started.sale as { id: string }).id
          const original = sales.find((s) => s.id === started.originalId)
          if (!original) break
          await race(command.race, original, command.sale)
          await send({ op: 'waitForOutcome', id: model.id, timeoutMs: 15_000 })
          break
        }
        case 'voidDuringForward': {
          const sale = sales[command.sale % Math.max(1, sales.length)]
          if (!sale) break
          report.races++
          await Promise.all([send({ op: 'forwardNow' }), send({ op: 'voidSale', id: sale.id, card: sale.card })])
          break
        }
        case 'hugeTip': {
          const sale = sales[command.sale % Math.max(1, sales.length)]
          if (!sale) break
          report.races++
          const answer = await send({ op: 'adjustTip', id: sale.id, tipMinor: Number.MAX_SAFE_INTEGER - sale.amountMinor })
          if (answer?.ok) report.violations.push(`sale ${sale.id}: a tip of ${Number.MAX_SAFE_INTEGER - sale.amountMinor} was accepted`)
          break
        }
        case 'nexoPayment': {
          const serviceId = nexoServiceId('Payment', command.service)
          remember({ pos: command.pos, serviceId, category: 'Payment' })
          report.nexo++
          const answer = await send(
            {
              op: 'nexoPayment',
              pos: command.pos,
              serviceId,
              amountMinor: command.amountMinor,
              refund: command.refund,
              wait: command.wait,
              card: command.card,
            },
            30_000,
          )
          const id = answer?.poiTransactionId
          const succeeded = (answer?.response as { Result?: string } | undefined)?.Result === 'Success'
          if (typeof id === 'string' && succeeded && !command.refund && !sales.some((s) => s.id === id))
            sales.push({ id, amountMinor: command.amountMinor, card: command.card, policy: 'preferOnline' })
          break
        }
        case 'nexoAbort': {
          report.nexo++
          await sleep(command.afterMs)
          await send({ op: 'nexoAbort', pos: command.pos, of: command.of, serviceId: nexoServiceId('Payment', command.service) })
          break
        }
        case 'nexoReversal': {
          const sale = sales[command.sale % Math.max(1, sales.length)]
          if (!sale) break
          const serviceId = nexoServiceId('Reversal', command.service)
          remember({ pos: command.pos, serviceId, category: 'Reversal' })
          report.nexo++
          const amountMinor =
            command.percent >= 100 ? sale.amountMinor : Math.max(1, Math.floor((sale.amountMinor * command.percent) / 100))
          await send(
            { op: 'nexoReversal', pos: command.pos, serviceId, saleId: sale.id, amountMinor, wait: command.wait, card: sale.card },
            30_000,
          )
          break
        }
      }
    }
    for (const timer of timers) clearTimeout(timer)
    timers.clear()

    // With a store: once it answers again, every item the terminal still owes has a copy in the stream.
    if (store) {
      await store.gate.up()
      const answer = await send({ op: 'uncopied' }, 30_000)
      const uncopied = (answer?.uncopied as string[] | undefined) ?? []
      if (answer?.ok && uncopied.length > 0) report.violations.push(`owed without a copy at the store: ${uncopied.join(', ')}`)
    }

    // Settle: a healthy host, a restart (recovery), the queue drained, what needs a manager handled.
    host.clearFaults()
    await gate.up()
    await killWorker()
    const managerTries = new Map<string, number>()
    let settled = false
    for (let round = 0; round < 80 && !settled; round++) {
      const status = await send({ op: 'status' })
      if (!status?.ok) continue
      const views = status.sales as Array<{ id: string; state: SaleState; amountMinor: number; offline: boolean }>
      for (const view of views.filter((s) => COUNTER_BUSY.has(s.state)))
        await send({ op: 'waitForOutcome', id: view.id, timeoutMs: 15_000 })
      for (const view of views.filter((s) => s.state === 'needsAttention')) {
        const tries = managerTries.get(view.id) ?? 0
        if (tries >= 3) continue
        managerTries.set(view.id, tries + 1)
        // A stored payment the host declines cannot be collected: the manager takes note. Anything else is retried.
        if (view.offline && hostDeclines(view.amountMinor)) await send({ op: 'acknowledge', id: view.id })
        else await send({ op: 'managerRetry', id: view.id })
      }
      await send({ op: 'forwardNow' })
      const after = await send({ op: 'status' })
      if (!after?.ok) continue
      const queue = after.queue as { count: number }
      const open = (after.sales as Array<{ id: string; state: SaleState }>).filter((s) => !SETTLED_OK.has(s.state))
      // what still needs a manager after three tries stays for the invariants to judge
      if (queue.count === 0 && open.every((s) => s.state === 'needsAttention' && (managerTries.get(s.id) ?? 0) >= 3)) settled = true
      else await sleep(100)
    }
    if (nexoSent.size > 0) await checkNexo()
    await worker?.stop()

    checkJournalAndLedger(agentDir, host, sales, returns, report)
  } catch (error) {
    report.violations.push(`the run itself failed: ${(error as Error).stack ?? String(error)}`)
  } finally {
    for (const timer of timers) clearTimeout(timer)
    await worker?.kill()
    await gate.close()
    await host.close()
    await store?.close()
    rmSync(dir, { recursive: true, force: true })
  }
  report.sales = sales.length
  return report
}

interface JournalSale {
  id: string
  state: SaleState
  amount_minor: number
  tip_minor: number
  tip_state: string
  offline: number
  attention_from: string | null
  kind: 'sale' | 'return'
  original_id: string | null
  reference: string | null
  card_fingerprint: string | null
  business_day: string
  read_method: string | null
}

function checkJournalAndLedger(
  agentDir: string,
  host: TrainingHost,
  model: ModelSale[],
  modelReturns: ModelReturn[],
  report: RunReport,
): void {
  const db = new Database(join(agentDir, 'journal.sqlite'), { readonly: true, fileMustExist: true })
  let sales: JournalSale[]
  let sealed: Array<{ sale_id: string }>
  let keys: Array<{ sale_id: string }>
  let outbox: Array<{ sale_id: string; operation: string; state: string }>
  let events: Array<{ sale_id: string; type: string; from_state: string | null; to_state: string }>
  let batches: Array<{ number: number; closed_at: number; sale_count: number; members: number; late: number }>
  try {
    // Each closed batch holds the sales its close counted: as many as it says, none rung up after it closed.
    batches = db
      .prepare(
        `SELECT b.number, b.closed_at, b.sale_count,
           (SELECT count(*) FROM sale s WHERE s.batch = b.number) AS members,
           (SELECT count(*) FROM sale s WHERE s.batch = b.number AND s.created_at > b.closed_at) AS late
         FROM batch b ORDER BY b.number`,
      )
      .all() as typeof batches
    sales = db
      .prepare(
        'SELECT id, state, amount_minor, tip_minor, tip_state, offline, attention_from, kind, original_id, reference, card_fingerprint, business_day, read_method FROM sale',
      )
      .all() as JournalSale[]
    sealed = db.prepare('SELECT sale_id FROM sealed_card').all() as typeof sealed
    keys = db.prepare('SELECT sale_id FROM sale_key').all() as typeof keys
    outbox = db
      .prepare("SELECT sale_id, operation, state FROM outbox WHERE state IN ('pending', 'inflight', 'attention')")
      .all() as typeof outbox
    events = db.prepare('SELECT sale_id, type, from_state, to_state FROM sale_event ORDER BY seq').all() as typeof events
    const allOutbox = db.prepare('SELECT sale_id, operation, state FROM outbox ORDER BY seq').all() as typeof outbox
    for (const item of allOutbox)
      events.push({ sale_id: item.sale_id, type: `queue:${item.operation}`, from_state: null, to_state: item.state })
  } finally {
    db.close()
  }
  // A violation names the sale's history, so that a report can be read without a replay.
  const history = (id: string): string =>
    events
      .filter((e) => e.sale_id === id)
      .map((e) => (e.from_state === null ? `${e.type}=${e.to_state}` : `${e.type}:${e.from_state}→${e.to_state}`))
      .join(', ')
  const bad = (message: string, id?: string): void => void report.violations.push(id ? `${message} [history: ${history(id)}]` : message)
  batches.forEach((b, index) => {
    if (b.number !== index + 1) bad(`closed batches are not numbered 1, 2, 3, …: found ${b.number} at position ${index + 1}`)
    if (b.members !== b.sale_count) bad(`batch ${b.number} was closed with ${b.sale_count} sale(s) but holds ${b.members}`)
    if (b.late > 0) bad(`batch ${b.number} holds ${b.late} sale(s) rung up after it closed`)
  })
  const byId = new Map(sales.map((s) => [s.id, s]))
  for (const s of sales) report.states[s.state] = (report.states[s.state] ?? 0) + 1
  for (const s of sales) if (s.kind === 'return') report.returnStates[s.state] = (report.returnStates[s.state] ?? 0) + 1
  for (const m of model) if (!byId.has(m.id)) bad(`sale ${m.id} was started but is not in the journal`)

  const { payments, entries } = host.ledger()
  const hostCharged = (status: string): boolean => status === 'Captured' || status === 'Authorised'
  const paymentOf = new Map(payments.map((p) => [p.merchantTransID, p]))

  /** The manager may leave a stored payment the host declined (it cannot be collected). */
  const legitimatelyWaiting = (s: JournalSale): boolean => s.state === 'needsAttention' && s.offline === 1 && hostDeclines(s.amount_minor)

  for (const s of sales) {
    const p = paymentOf.get(s.id)
    // charged in the journal ⇔ charged at the host, same amount and tip
    if (CHARGED.has(s.state)) {
      if (!p || !hostCharged(p.status))
        bad(`sale ${s.id} is ${s.state} (charged) in the journal but ${p ? p.status : 'unknown'} at the host`, s.id)
      else {
        if (minorOf(p.transAmount.value) !== s.amount_minor)
          bad(`sale ${s.id}: amount ${s.amount_minor} in the journal, ${p.transAmount.value} at the host`, s.id)
        // A tip of 0 takes the tip off the payment at the host: it then has none.
        if (s.tip_state === 'adjusted' && (minorOf(p.tipAmount?.value) ?? 0) !== s.tip_minor)
          bad(`sale ${s.id}: tip ${s.tip_minor} adjusted in the journal, ${p.tipAmount?.value ?? 'none'} at the host`, s.id)
        if (s.tip_state === 'none' && p.tipAmount !== undefined)
          bad(`sale ${s.id}: no tip in the journal, ${p.tipAmount.value} at the host`, s.id)
        if (s.state === 'captured' && p.status !== 'Captured')
          bad(`sale ${s.id} is captured in the journal but ${p.status} at the host`, s.id)
      }
    } else if (p && hostCharged(p.status)) {
      bad(`sale ${s.id} is ${s.state} (not charged) in the journal but ${p.status} at the host`, s.id)
    }
    // a chip payment approved offline reaches the host as the card approved it: its TC and Y3, never the ARQC
    // (the card the sale read, as the journal has it: commands sent together may hand a card to another's read)
    if (s.offline === 1 && s.read_method === 'chip' && p !== undefined) {
      const chip = entries.find((e) => e.operation === 'payment' && e.merchantTransID === s.id && !e.replayed)?.icCardData ?? ''
      if (!chip.includes('9F270140') || !chip.includes('8A025933'))
        bad(`stored chip payment ${s.id} reached the host without the card's TC and Y3 (icCardData ${chip || 'none'})`, s.id)
    }
    // once settled: nothing at the counter, in flight or waiting, except what a manager must see
    if (COUNTER_BUSY.has(s.state)) bad(`sale ${s.id} is still at the counter (${s.state}) after settling`, s.id)
    else if (!SETTLED_OK.has(s.state) && !legitimatelyWaiting(s))
      bad(`sale ${s.id} ends ${s.state}${s.attention_from ? ` (from ${s.attention_from})` : ''} with a healthy host after settling`, s.id)
    if (s.tip_state === 'pending') bad(`sale ${s.id}: tip still pending after settling`, s.id)
  }
  for (const p of payments)
    if (hostCharged(p.status) && !byId.has(p.merchantTransID))
      bad(`the host charged ${p.merchantTransID}, a sale the journal does not know`)
  for (const item of outbox) {
    const s = byId.get(item.sale_id)
    if (!s || !legitimatelyWaiting(s))
      bad(`queue item ${item.operation} of ${item.sale_id} still ${item.state} after settling`, item.sale_id)
  }

  // no card data for a sale whose authorisation completed
  const mayHoldCard = (id: string): boolean => {
    const s = byId.get(id)
    return s !== undefined && (s.state === 'storedOffline' || (s.state === 'needsAttention' && s.attention_from === 'storedOffline'))
  }
  for (const row of sealed)
    if (!mayHoldCard(row.sale_id)) bad(`sealed card data kept for ${row.sale_id} (${byId.get(row.sale_id)?.state})`, row.sale_id)
  for (const row of keys)
    if (!mayHoldCard(row.sale_id)) bad(`sale key kept for ${row.sale_id} (${byId.get(row.sale_id)?.state})`, row.sale_id)
  for (const file of readdirSync(agentDir).filter((f) => f.startsWith('journal'))) {
    const bytes = readFileSync(join(agentDir, file))
    for (const secret of CLEAR_SECRETS) {
      if (bytes.includes(Buffer.from(secret, 'latin1'))) bad(`${file} holds card data in clear: ${secret.slice(0, 6)}…`)
      if (bytes.includes(Buffer.from(secret, 'utf16le'))) bad(`${file} holds card data in clear (UTF-16): ${secret.slice(0, 6)}…`)
    }
  }

  // never charged twice; no payment recorded after its own reversal or cancel
  const chargesById = new Map<string, number>()
  const endedAt = new Map<string, number>()
  for (const e of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (e.operation === 'payment' && !e.replayed && e.status !== undefined && hostCharged(e.status)) {
      chargesById.set(e.merchantTransID, (chargesById.get(e.merchantTransID) ?? 0) + 1)
      const ended = endedAt.get(e.merchantTransID)
      if (ended !== undefined)
        bad(
          `payment ${e.merchantTransID} charged at the host (seq ${e.seq}) after its reversal or cancel (seq ${ended})`,
          e.merchantTransID,
        )
    }
    if ((e.operation === 'reversal' || e.operation === 'cancel') && e.status === 'Success') {
      const id = e.originalMerchantTransID ?? e.merchantTransID
      if (!endedAt.has(id)) endedAt.set(id, e.seq)
    }
  }
  for (const [id, count] of chargesById) if (count > 1) bad(`payment ${id} charged ${count} times at the host`, id)

  checkReturns(sales, modelReturns, payments, entries, bad)

  // no amount or sum beyond the limits, whatever a manager approved
  const limitRows: LimitRow[] = sales
  for (const found of limitViolations(limitRows, {
    maxSaleMinor: TEST_SALE_LIMITS.maxSaleMinor,
    unreferencedReturnMaxMinor: UNREFERENCED_RETURN_MAX_MINOR,
    perCardDayMinor: UNREFERENCED_RETURN_PER_CARD_DAY_MINOR,
    perDayMinor: UNREFERENCED_RETURN_PER_DAY_MINOR,
  }))
    bad(found)
  // the host's own ledger: never more credited for a payment than it holds for it (the credits name their payment)
  for (const over of overCredited(host.ledger()))
    bad(
      `the host credited ${over.creditedMinor} against ${over.merchantTransID}, which it holds ${over.heldMinor} for`,
      over.merchantTransID,
    )
}

/**
 * Returns against the host's credits: credited at the host ⇔ credited in the journal, for the same
 * amount, each merchantTransID credited at most once; never more credited against a sale than the
 * host holds for it (amount plus tip); a return the terminal refused or ended at the reader left
 * nothing at the host. (No return waits once settled and none keeps card data: the checks above
 * cover every row of the sale table, returns included.)
 */
function checkReturns(
  sales: JournalSale[],
  modelReturns: ModelReturn[],
  payments: ReturnType<TrainingHost['ledger']>['payments'],
  entries: ReturnType<TrainingHost['ledger']>['entries'],
  bad: (message: string, id?: string) => void,
): void {
  const byId = new Map(sales.map((s) => [s.id, s]))
  const byReference = new Map(sales.filter((s) => s.reference !== null).map((s) => [s.reference!, s]))
  const returns = sales.filter((s) => s.kind === 'return')
  const credits = entries.filter((e) => e.operation === 'merchandiseCredit')
  const processed = new Map<string, typeof credits>()
  for (const e of credits) if (!e.replayed) processed.set(e.merchantTransID, [...(processed.get(e.merchantTransID) ?? []), e])
  const creditedMinor = (id: string): number | undefined => {
    const success = (processed.get(id) ?? []).filter((e) => e.status === 'Success')
    return success.length === 0 ? undefined : minorOf(success[0]!.amount?.value)
  }

  for (const [id, list] of processed) {
    if (list.length > 1) bad(`return ${id} processed ${list.length} times at the host (${list.map((e) => e.status).join(', ')})`, id)
    const r = byId.get(id)
    if (!r || r.kind !== 'return') bad(`the host credited ${id}, ${r ? 'a sale' : 'a record the journal does not know'}`)
  }
  for (const r of returns) {
    const atHost = creditedMinor(r.id)
    if (r.state === 'credited' && atHost === undefined) bad(`return ${r.id} is credited in the journal but not at the host`, r.id)
    if (r.state !== 'credited' && atHost !== undefined) bad(`return ${r.id} is ${r.state} in the journal but credited at the host`, r.id)
    if (atHost !== undefined && atHost !== r.amount_minor)
      bad(`return ${r.id}: ${r.amount_minor} in the journal, ${atHost} credited at the host`, r.id)
    if (r.state === 'abandoned' && credits.some((e) => e.merchantTransID === r.id))
      bad(`return ${r.id} ended at the terminal (abandoned) but reached the host`, r.id)
    if (r.original_id !== null && byId.get(r.original_id)?.kind !== 'sale')
      bad(`return ${r.id} names ${r.original_id}, which is not a sale of the journal`, r.id)
  }

  // never more credited against a sale than the host holds for it
  const creditedAgainst = new Map<string, number>()
  for (const r of returns) {
    const atHost = creditedMinor(r.id)
    if (r.original_id !== null && atHost !== undefined)
      creditedAgainst.set(r.original_id, (creditedAgainst.get(r.original_id) ?? 0) + atHost)
  }
  const paymentOf = new Map(payments.map((p) => [p.merchantTransID, p]))
  for (const [saleId, credited] of creditedAgainst) {
    const p = paymentOf.get(saleId)
    const held =
      p && (p.status === 'Captured' || p.status === 'Authorised')
        ? (minorOf(p.transAmount.value) ?? 0) + (minorOf(p.tipAmount?.value) ?? 0)
        : 0
    if (credited > held)
      bad(
        `sale ${saleId}: ${credited} credited by its returns, the host holds ${held} for it (${p?.status ?? 'no payment'}) [returns: ${returns
          .filter((r) => r.original_id === saleId)
          .map((r) => `${r.id} ${r.state} ${r.amount_minor}`)
          .join('; ')}]`,
        saleId,
      )
  }

  // a return refused at the terminal is not journaled, so nothing of it can reach the host
  for (const m of modelReturns) {
    const row = byReference.get(m.reference)
    if (m.refused !== undefined && row) bad(`return ${m.reference} was refused (${m.refused}) but is in the journal as ${row.id}`, row.id)
    if (m.id !== undefined && row?.id !== m.id)
      bad(`return ${m.reference} started as ${m.id} but the journal holds ${row?.id ?? 'nothing'}`)
  }
}

// ---------------------------------------------------------------------------------------------
// Many runs under fast-check

export interface ChaosSummary {
  chaos: 'engine'
  runs: number
  /** Runs whose terminal copied its queue to a store server (docs/store.md). */
  runsWithStore: number
  kills: number
  commands: number
  workerCommands: number
  sales: number
  returns: number
  returnsRefused: Record<string, number>
  refusals: number
  violations: number
  seed: number
  path?: string
  counterexample?: Scenario
  firstViolations?: string[]
  /** Explore mode: every failing run's path and its violations (histories left out). */
  failingRuns?: Array<{ path: string; violations: string[] }>
  states: Record<string, number>
  returnStates: Record<string, number>
  nexo: number
  nexoChecks: number
  races: number
  ms: number
}

export interface ChaosOptions {
  runs: number
  seed?: number
  path?: string
  /** Stop shrinking after this long (each run starts processes; shrinking can be slow). */
  timeLimitMs?: number
  /**
   * Run every generated sequence and count each failing one, without stopping at the first or
   * shrinking it: one frequent failure would otherwise hide rarer ones. Failing run k of seed S
   * replays with CHAOS_SEED=S CHAOS_PATH=k.
   */
  explore?: boolean
  log?: (line: string) => void
}

export async function runChaos(options: ChaosOptions): Promise<ChaosSummary> {
  const started = Date.now()
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0
  const tlsDir = mkdtempSync(join(tmpdir(), 'pos-chaos-tls-'))
  const totals = {
    runs: 0,
    runsWithStore: 0,
    kills: 0,
    commands: 0,
    workerCommands: 0,
    sales: 0,
    returns: 0,
    returnsRefused: {} as Record<string, number>,
    refusals: 0,
    states: {} as Record<string, number>,
    returnStates: {} as Record<string, number>,
    nexo: 0,
    nexoChecks: 0,
    races: 0,
  }
  const violationsOf = new WeakMap<Scenario, string[]>()
  let lastViolations: string[] = []
  const failing: Array<{ path: string; violations: string[] }> = []
  try {
    const result = await fc.check(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const report = await runScenario(scenario, { tlsDir })
        totals.runs++
        if (scenario.store === true) totals.runsWithStore++
        totals.kills += report.kills
        totals.commands += report.commands
        totals.workerCommands += report.workerCommands
        totals.sales += report.sales
        totals.refusals += report.refusals
        totals.returns += report.returns
        totals.nexo += report.nexo
        totals.nexoChecks += report.nexoChecks
        totals.races += report.races
        for (const [code, n] of Object.entries(report.returnsRefused)) totals.returnsRefused[code] = (totals.returnsRefused[code] ?? 0) + n
        for (const [state, n] of Object.entries(report.states)) totals.states[state] = (totals.states[state] ?? 0) + n
        for (const [state, n] of Object.entries(report.returnStates)) totals.returnStates[state] = (totals.returnStates[state] ?? 0) + n
        options.log?.(
          `run ${totals.runs}: ${scenario.restaurant ? 'restaurant' : 'retail'}${scenario.store === true ? ' with a store server' : ''}, ${scenario.commands.length} commands, ${report.sales} sales, ${report.returns} returns, ${report.nexo} nexo, ${report.races} races, ${report.kills} kills, ${report.violations.length} violations`,
        )
        if (report.violations.length > 0) {
          lastViolations = report.violations
          violationsOf.set(scenario, report.violations)
          options.log?.(`  violations: ${report.violations.join('\n    ')}`)
          if (options.explore) {
            failing.push({ path: String(totals.runs - 1), violations: report.violations })
            return true
          }
          return false
        }
        return true
      }),
      {
        numRuns: options.runs,
        seed,
        ...(options.path !== undefined ? { path: options.path } : {}),
        ...(options.timeLimitMs !== undefined ? { interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false } : {}),
        endOnFailure: false,
      },
    )
    const summary: ChaosSummary = {
      chaos: 'engine',
      ...totals,
      violations: result.failed ? 1 : failing.length,
      seed: result.seed,
      ms: Date.now() - started,
    }
    if (failing.length > 0) {
      summary.failingRuns = failing.map((f) => ({ path: f.path, violations: f.violations.map((v) => v.replace(/ \[history: .*\]$/, '')) }))
      summary.path = failing[0]!.path
      summary.firstViolations = failing[0]!.violations
    }
    if (result.failed) {
      summary.path = result.counterexamplePath ?? undefined
      summary.counterexample = result.counterexample?.[0]
      summary.firstViolations = (summary.counterexample && violationsOf.get(summary.counterexample)) ?? lastViolations
    }
    return summary
  } finally {
    rmSync(tlsDir, { recursive: true, force: true })
  }
}

/** The words a failing run ends with: what failed, and how to run exactly that again. */
export function describeFailure(summary: ChaosSummary): string {
  if (summary.failingRuns)
    return [
      `chaos checker: ${summary.failingRuns.length} failing run(s) of seed ${summary.seed}`,
      ...summary.failingRuns.flatMap((f) => [
        `  path ${f.path} (replay: CHAOS_SEED=${summary.seed} CHAOS_PATH=${f.path} npm run chaos -- --runs 1)`,
        ...f.violations.map((v) => `    - ${v}`),
      ]),
    ].join('\n')
  return [
    `chaos checker: invariant violated (seed ${summary.seed}, path ${summary.path ?? '?'})`,
    ...(summary.firstViolations ?? []).map((v) => `  - ${v}`),
    `shrunk sequence: ${JSON.stringify(summary.counterexample)}`,
    `replay: CHAOS_SEED=${summary.seed} CHAOS_PATH=${summary.path ?? ''} npm run chaos -- --runs 1`,
    `    or: CHAOS_SEED=${summary.seed} CHAOS_PATH=${summary.path ?? ''} npm test -- test/main/txn/chaos.test.ts`,
    // timing is real: the printed sequence itself is the surest replay
    `    or: npm run chaos -- --scenario '${JSON.stringify(summary.counterexample)}'`,
  ].join('\n')
}

export function envSeed(): { seed?: number; path?: string } {
  const seed = process.env.CHAOS_SEED
  const path = process.env.CHAOS_PATH
  return {
    ...(seed !== undefined && seed !== '' ? { seed: Number(seed) } : {}),
    ...(path !== undefined && path !== '' ? { path } : {}),
  }
}
