/**
 * The chaos checker, bounded: a few generated sequences of sales, voids, tips, closes, host faults,
 * outages (of the bank and of the store's server) and SIGKILLs of a worker running the whole engine, each settled and checked against the
 * training host's ledger and the journal (test/chaos/chaos-engine.ts). `npm run chaos -- --runs N`
 * runs many more. A failure names its seed and path; CHAOS_SEED and CHAOS_PATH replay it here.
 */
import { describe, expect, it } from 'vitest'
import { describeFailure, envSeed, runChaos } from '../../chaos/chaos-engine'
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
