/**
 * The in-doubt run with real kills: generated sequences (fast-check) of what a register does and what
 * goes wrong around it, against the agent in a child process (the chaos worker: its journal file, the
 * data key in the real Secret Service, the ZVT door over TCP) and a training host over real HTTPS in
 * this process, whose ledger outlives every kill. Steps: a payment; a register that leaves after the
 * payment's acknowledgement; an abort right after it; the agent SIGKILLed a generated moment after it
 * (card read, the bank's call, the journal's write, the status on its way); the bank's answer lost
 * (the payment is reversed); the bank down (the payment is stored offline). A register that lost an
 * answer does what PA00P015 asks of it: it reconnects and asks with `84 9C` until it has the status
 * information. Once the queue has drained, the bank holds exactly what the register was told was
 * approved: each such payment charged once, every other one (stopped, interrupted, unknown) not
 * charged or reversed. The seed is printed, to run it again; ZVT_KILL_TRACE=1 prints each step and outcome.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { apdu, controlOf, type Apdu } from '../../../src-main/zvt'
import { WorkerProcess } from '../../chaos/chaos-engine'
import type { ChaosCard } from '../../support/chaos-worker'
import type { ZvtSaleRow } from '../../support/chaos-zvt'
import { AID, KEY } from '../../support/engine-harness'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'
import { authorization, statusOf, ZvtRegister } from './support/zvt-register'

const keychain = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)
const SEED = Number(process.env.ZVT_KILL_SEED ?? Date.now() % 2 ** 31)
const RUNS = Number(process.env.ZVT_KILL_RUNS ?? 5)

type Step =
  | { kind: 'pay'; card: ChaosCard }
  | { kind: 'leave'; card: ChaosCard }
  | { kind: 'abort'; card: ChaosCard }
  | { kind: 'kill'; card: ChaosCard; afterMs: number }
  | { kind: 'answerLost'; card: ChaosCard }
  | { kind: 'bankDown'; card: ChaosCard }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.runIf(keychain)('ZVT in doubt, the agent killed (generated)', () => {
  let dir: string
  let host: TrainingHost
  let worker: WorkerProcess | undefined
  let port = 0
  let args: string[]
  let kills = 0

  const start = async (): Promise<void> => {
    worker = await WorkerProcess.start(args)
    const opened = await worker.send({ op: 'zvtOpen' })
    if (!opened.ok) throw new Error(`the ZVT door did not open: ${String(opened.error)}`)
    port = opened.port as number
  }
  const send = async (command: Parameters<WorkerProcess['send']>[0]) => {
    const answer = await worker!.send(command, 30_000)
    if (!answer.ok) throw new Error(`${command.op}: ${String(answer.error)}`)
    return answer
  }

  /**
   * What a register does after it lost an answer: reconnect, `84 9C` until the terminal has the outcome
   * of this payment. A payment the kill stopped before the journal had it has none: the terminal then
   * answers with the one before it, or `84 83` when the batch has none.
   */
  const recover = async (minor: number): Promise<Apdu | undefined> => {
    for (let tries = 0; tries < 200; tries++) {
      const ecr = await ZvtRegister.open(port, [])
      const got = await ecr.exchange(apdu(0x84, 0x9c))
      await ecr.close()
      const status = got.find((message) => controlOf(message) === 0x040f)
      if (status && statusOf(status).amount === minor) return status
      if (tries >= 20) {
        const sales = (await send({ op: 'zvtSales' })).sales as ZvtSaleRow[]
        if (!sales.some((sale) => sale.amountMinor === minor)) return status
      }
      await sleep(50)
    }
    throw new Error(`the terminal never gave the outcome of the payment of ${minor}`)
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-zvt-kill-'))
    mkdirSync(join(dir, 'agent'))
    host = await startTrainingHost({ stateDir: join(dir, 'host'), signingKeys: { [AID]: KEY } })
    args = [join(dir, 'agent'), host.url, host.caFile, `pos-agent-zvt-kill-${randomUUID()}`, 'retail']
    await start()
  }, 60_000)

  afterAll(async () => {
    await worker?.stop()
    await host?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('the bank holds exactly what the register was told was approved, whatever is killed or lost', async () => {
    console.log(`ZVT kill run: seed ${SEED}, ${RUNS} sequences (ZVT_KILL_SEED=${SEED} ZVT_KILL_RUNS=${RUNS} to run it again)`)
    let amount = 200
    const card = fc.constantFrom<ChaosCard>('chip', 'swipe', 'contactless')
    const step: fc.Arbitrary<Step> = fc.oneof(
      { arbitrary: card.map((c) => ({ kind: 'pay' as const, card: c })), weight: 3 },
      { arbitrary: card.map((c) => ({ kind: 'leave' as const, card: c })), weight: 1 },
      { arbitrary: card.map((c) => ({ kind: 'abort' as const, card: c })), weight: 1 },
      {
        arbitrary: fc.record({
          kind: fc.constant('kill' as const),
          card,
          afterMs: fc.oneof(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 150 })),
        }),
        weight: 3,
      },
      { arbitrary: card.map((c) => ({ kind: 'answerLost' as const, card: c })), weight: 1 },
      { arbitrary: card.map((c) => ({ kind: 'bankDown' as const, card: c })), weight: 1 },
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const before = new Set(((await send({ op: 'zvtSales' })).sales as ZvtSaleRow[]).map((sale) => sale.id))
        /** The amounts of this sequence, and of them those the register was told were approved. */
        const amounts: number[] = []
        const approved = new Set<number>()
        for (const one of steps) {
          if (process.env.ZVT_KILL_TRACE) console.log('step', JSON.stringify(one))
          // A new amount each time (the same card and amount twice is asked about as a duplicate); never the declined cents.
          do amount += 1
          while (amount % 100 === 5 || amount % 100 === 51)
          amounts.push(amount)
          await send({ op: 'zvtCard', card: one.card })
          if (one.kind === 'answerLost') host.setFault('payment', 'process-then-drop', 1)
          if (one.kind === 'bankDown') host.setFault('payment', 'http-503', 1)
          const ecr = await ZvtRegister.open(port, [])
          let outcome: Apdu | undefined
          if (one.kind === 'pay' || one.kind === 'answerLost' || one.kind === 'bankDown') {
            outcome = (await ecr.exchange(authorization(amount))).find((m) => controlOf(m) === 0x040f)
            await ecr.close()
          } else if (one.kind === 'abort') {
            const got = await ecr.exchange(authorization(amount), (messages) => messages.length > 0)
            const rest = await ecr.exchange(apdu(0x06, 0xb0), (messages) => messages.some((m) => [0x060f, 0x061e].includes(controlOf(m))))
            outcome = [...got, ...rest].find((m) => controlOf(m) === 0x040f)
            await ecr.close()
          } else {
            // The register takes the payment's acknowledgement, then is gone, or the agent is killed.
            await ecr.exchange(authorization(amount), (messages) => messages.length > 0)
            if (one.kind === 'kill') {
              await sleep(one.afterMs)
              await worker!.kill()
              kills++
              await ecr.close()
              await start()
            } else await ecr.close()
            outcome = await recover(amount)
          }
          if (process.env.ZVT_KILL_TRACE) console.log('  told', amount, outcome ? statusOf(outcome) : 'nothing')
          host.clearFaults('payment')
          // The outcome the register keeps is the one for this payment's amount (84 9C may give the previous one).
          if (outcome && statusOf(outcome).amount === amount && statusOf(outcome).result === '00') approved.add(amount)
        }

        // The queue drains: stored payments reach the bank, reversals reverse.
        let sales: ZvtSaleRow[]
        for (let tries = 0; ; tries++) {
          await send({ op: 'forwardNow' })
          sales = ((await send({ op: 'zvtSales' })).sales as ZvtSaleRow[]).filter((sale) => !before.has(sale.id))
          if (sales.every((sale) => sale.queued.length === 0)) break
          if (tries > 100) throw new Error(`the queue did not drain: ${JSON.stringify(sales)}`)
          await sleep(100)
        }
        const ours = new Set(sales.map((sale) => sale.id))
        const charged = host
          .ledger()
          .payments.filter((p) => ours.has(p.merchantTransID) && (p.status === 'Authorised' || p.status === 'Captured'))
        const chargedAmounts = charged.map((p) => Math.round(Number(p.transAmount.value) * 100))
        if (process.env.ZVT_KILL_TRACE)
          console.log('  journal', JSON.stringify(sales.map((sale) => [sale.amountMinor, sale.state])), 'bank', chargedAmounts)
        // Each approved payment charged once, nothing else charged.
        expect(chargedAmounts.sort((a, b) => a - b)).toEqual([...approved].sort((a, b) => a - b))
        // No payment of this sequence reached the journal twice (one ZVT payment, one sale).
        const perAmount = new Map<number, number>()
        for (const sale of sales) perAmount.set(sale.amountMinor, (perAmount.get(sale.amountMinor) ?? 0) + 1)
        for (const [minor, count] of perAmount) expect({ minor, count }).toEqual({ minor, count: 1 })
        for (const sale of sales) expect(amounts).toContain(sale.amountMinor)
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    console.log(`ZVT kill run: ${kills} kills`)
  }, 900_000)
})
