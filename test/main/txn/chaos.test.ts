/**
 * The chaos checker, bounded: a few generated sequences of sales, voids, tips, closes, host faults,
 * outages (of the bank and of the store's server) and SIGKILLs of a worker running the whole engine, each settled and checked against the
 * training host's ledger and the journal (test/chaos/chaos-engine.ts). `npm run chaos -- --runs N`
 * runs many more. A failure names its seed and path; CHAOS_SEED and CHAOS_PATH replay it here.
 */
import { describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeFailure, envSeed, runChaos, runScenario, type Scenario } from '../../chaos/chaos-engine'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'

const RUNS = Number(process.env.CHAOS_RUNS ?? 10)
const keychain = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)

describe.runIf(keychain)(`chaos checker: ${RUNS} generated runs`, () => {
  it('host ledger and journal agree after every generated sequence of operations, faults and kills', async () => {
    const summary = await runChaos({ runs: RUNS, ...envSeed(), timeLimitMs: 120_000 })
    console.log(JSON.stringify(summary))
    expect(summary.violations, summary.violations > 0 ? describeFailure(summary) : '').toBe(0)
    expect(summary.runs).toBeGreaterThan(0)
  }, 180_000)
})

/** The seam where a return met a tip: everything returned while the tip is lowered to 0 during the card read. */
const RETURN_RACED_BY_A_TIP: Scenario = {
  restaurant: false,
  manager: true,
  commands: [
    { kind: 'sale', amountMinor: 10_000, policy: 'preferOnline', card: 'chip', cardDeclines: false, wait: true },
    { kind: 'tip', sale: 0, percent: 20 },
    { kind: 'forwardNow' },
    { kind: 'pause', ms: 300 },
    { kind: 'forwardNow' },
    { kind: 'returnRace', sale: 0, race: 'tipDown', cardAfterMs: 300 },
    { kind: 'forwardNow' },
  ],
}

describe.runIf(keychain)('chaos checker: a pinned seam', () => {
  it('a return of everything raced by a tip lowered to 0: the host never credits more than it holds', async () => {
    const tlsDir = mkdtempSync(join(tmpdir(), 'pos-chaos-tls-'))
    try {
      const report = await runScenario(RETURN_RACED_BY_A_TIP, { tlsDir })
      expect(report.violations).toEqual([])
      expect(report.races).toBe(1)
      expect(report.returnStates).toEqual({ credited: 1 })
    } finally {
      rmSync(tlsDir, { recursive: true, force: true })
    }
  }, 120_000)
})
