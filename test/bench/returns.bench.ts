/**
 * bench:returns, a referenced return's own time against the sale it returns, in the same run:
 * each round charges a sale (chip or swipe, alternating) and returns it in full to the same card.
 * Own time is the elapsed time minus the time spent waiting for the host (the same method as
 * bench:engine's sale own time), p50 and p99 over 1,000 returns after 50 to warm up:
 * - `returnOwnMs`: from the manager's start to the bank's credit journaled (`credited`), through the
 *   card step, the commit of the credit with its queue item, and the queue sending it;
 * - `returnAtCounterMs`: to the end of the card step (`creditPending`), what the counter waits for;
 * - the baseline: the sale's own time in the same rounds, and `ratioP50` / `ratioP99` return / sale.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Engine } from '../../src-main/app/compose'
import { ScriptedCardReader, TEST_CARDS } from '../fakes/scripted-card-reader'
import { percentile, report, startHostProcess } from './support/bench-kit'
import { AID, KEY, benchEngine, benchHostClient, timedHost } from './support/timed-engine'

const RETURNS = Number(process.env.BENCH_RETURNS ?? 1_000)
const WARM_UP = 50
const SETTLED = new Set(['credited', 'declined', 'needsAttention', 'abandoned'])

const host = await startHostProcess(AID, KEY)
const dir = mkdtempSync(join(tmpdir(), 'pos-bench-returns-'))
const reader = new ScriptedCardReader()
const hostClient = timedHost(benchHostClient(host))
const engine = await benchEngine(dir, hostClient, reader, `R${process.pid}`)

/** Resolves with the return's state once the queue has its bank's answer (or it ended another way). */
function settled(e: Engine, id: string): Promise<string> {
  return new Promise((resolve) => {
    const check = (): void => {
      const state = e.txn.reads.get(id)?.state
      if (state === undefined || !SETTLED.has(state)) return
      e.txn.off('update', check)
      resolve(state)
    }
    e.txn.on('update', check)
    check()
  })
}

const times = { sale: [] as number[], returnOwn: [] as number[], atCounter: [] as number[] }

async function round(i: number): Promise<void> {
  const card = i % 2 ? TEST_CARDS.chipVisa() : TEST_CARDS.swipeMastercard()
  const amountMinor = 2_000 + (i % 40) * 10
  reader.present({ card })
  hostClient.spentMs = 0
  let started = performance.now()
  const sale = engine.txn.sales.start({ amountMinor, currency: 'USD' })
  const charged = await engine.txn.waitForOutcome(sale.id)
  const saleOwn = performance.now() - started - hostClient.spentMs
  if (charged.state !== 'approved') throw new Error(`sale ${charged.id} ended ${charged.state}: ${charged.reason ?? ''}`)

  reader.present({ card })
  hostClient.spentMs = 0
  started = performance.now()
  const credit = engine.txn.returns.start({ originalId: sale.id, amountMinor, currency: 'USD', managerApproved: true })
  const answered = settled(engine, credit.id)
  const counter = await engine.txn.waitForOutcome(credit.id)
  const atCounter = performance.now() - started - hostClient.spentMs
  if (counter.state !== 'creditPending' && counter.state !== 'credited')
    throw new Error(`return ${counter.id} ended ${counter.state} at the counter: ${counter.reason ?? ''}`)
  const final = await answered
  const returnOwn = performance.now() - started - hostClient.spentMs
  if (final !== 'credited') throw new Error(`return ${credit.id} ended ${final}`)
  if (i < WARM_UP) return // JIT, statements and connections warm up first
  times.sale.push(saleOwn)
  times.returnOwn.push(returnOwn)
  times.atCounter.push(atCounter)
}

try {
  for (let i = 0; i < RETURNS + WARM_UP; i++) await round(i)
  for (const list of Object.values(times)) list.sort((a, b) => a - b)
  const p = (list: number[], q: number) => Number(percentile(list, q).toFixed(3))
  console.error(
    `own time: return p50 ${p(times.returnOwn, 50)} ms p99 ${p(times.returnOwn, 99)} ms (at the counter p50 ${p(times.atCounter, 50)} ms); sale p50 ${p(times.sale, 50)} ms p99 ${p(times.sale, 99)} ms`,
  )
  report({
    bench: 'returns',
    returns: RETURNS,
    returnOwnMsP50: p(times.returnOwn, 50),
    returnOwnMsP99: p(times.returnOwn, 99),
    returnAtCounterMsP50: p(times.atCounter, 50),
    returnAtCounterMsP99: p(times.atCounter, 99),
    saleOwnMsP50: p(times.sale, 50),
    saleOwnMsP99: p(times.sale, 99),
    ratioP50: Number((percentile(times.returnOwn, 50) / percentile(times.sale, 50)).toFixed(3)),
    ratioP99: Number((percentile(times.returnOwn, 99) / percentile(times.sale, 99)).toFixed(3)),
  })
} finally {
  await engine.close()
  await hostClient.close()
  await host.stop()
  rmSync(dir, { recursive: true, force: true })
}
