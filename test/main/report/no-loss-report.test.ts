/**
 * The no-loss report (test/report/): its words and chart say what the runs found, a failing run's
 * seed and replay included; and its generator, on a small budget, runs the chaos checker and the
 * store's faults for real and finds no violation (the full budget is `npm run report:no-loss`).
 */
import { describe, expect, it } from 'vitest'
import { chaosFaultsOf, chaosPart, storeFaultsOf, storePart, type Budget, type PartResult } from '../../report/no-loss-parts'
import { renderChart, renderReport, totalViolations, type ReportConfig } from '../../report/no-loss-render'
import { natsServerAvailable } from '../../support/nats-server'
import { INSTALL, requireComponent, secretServiceAvailable } from '../../support/system'

const TINY: Budget = { chaosKills: 2, chaosMaxRuns: 2, storeRuns: 1, storeCommandsPerRun: 6, upgrade: false }

const config: ReportConfig = {
  commit: 'abcdef123456',
  date: '2026-11-28',
  node: 'v20.19.0',
  natsServer: 'nats-server: v2.9.10',
  sqlite: '3.50.1',
  betterSqlite3: '12.11.1',
  fastCheck: '4.10.2',
  os: 'Linux x64, 2 cores',
  mode: 'full',
  budget: TINY,
  natsSync: 'buffered',
  killsPerMinute: 23,
}

const part = (over: Partial<PartResult> & Pick<PartResult, 'id'>): PartResult => ({
  runs: 3,
  items: 12,
  kills: 5,
  faults: { SIGKILL: 5 },
  violations: 0,
  replay: `replay ${over.id}`,
  ms: 60_000,
  details: {},
  seed: 42,
  ...over,
})

describe('the no-loss report', () => {
  it('states the claim with its figures, every section, the seeds and the command of each run', () => {
    const parts = [
      part({ id: 'chaos', kills: 1_200, items: 3_000 }),
      part({ id: 'store' }),
      part({ id: 'cluster', skipped: 'no test yet' }),
    ]
    const text = renderReport(parts, config)
    for (const heading of ['## The claim', '## Configuration', '## Fault model', '## What is not survived', '## Reproduce'])
      expect(text).toContain(heading)
    expect(text).toContain('3,012 sales, returns and owed items checked, 1,205 processes killed, **0 violations**')
    expect(text).toContain('| nats-server | nats-server: v2.9.10 |')
    expect(text).toContain('Reproduce this run: `replay chaos`')
    expect(text).toContain('| 3 | 3,000 | 1,200 | 0 | 42 | 1.0 min |')
    expect(text).toContain('**Not run here**: no test yet.')
    expect(text).toMatch(/A `buffered` store copy and the terminal's disk lost together/)
    // 1,000 kills at 23 a minute
    expect(text).toContain('so the full budget takes about 45 minutes here')
  })

  it('a failing run says the claim does not hold, with its seed and how to replay it', () => {
    const failing = part({
      id: 'chaos',
      violations: 1,
      failure: 'chaos: invariant violated (seed 42, path 3)\nreplay: npm run report:no-loss -- --only chaos --seed 42 --path 3',
    })
    const text = renderReport([failing], config)
    expect(totalViolations([failing])).toBe(1)
    expect(text).toContain('**1 violation**: the claim does not hold for this commit')
    expect(text).toContain('--only chaos --seed 42 --path 3')
  })

  it('draws one bar per part and figure, scaled to the largest, and marks a part not run', () => {
    const svg = renderChart([
      part({ id: 'chaos', items: 100 }),
      part({ id: 'store', items: 50 }),
      part({ id: 'upgrade', skipped: 'no release' }),
    ])
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.match(/<rect x=/g)).toHaveLength(9)
    expect(svg).toContain('width="140" height="20" fill="#2b6cb0"')
    expect(svg).toContain('width="70" height="20" fill="#2b6cb0"')
    expect(svg).toContain('upgrade (not run)')
  })

  it('counts the faults a sequence drew, and the store model commands from its trace', () => {
    expect(
      chaosFaultsOf([
        { kind: 'fault', operation: '*', fault: 'delay=900' },
        { kind: 'hostDown' },
        { kind: 'storeRestart' },
        { kind: 'void', sale: 0 },
        { kind: 'sale', amountMinor: 100, policy: 'preferOnline', card: 'chip', cardDeclines: false, wait: false },
      ]),
    ).toEqual({ 'bank fault delay': 1, 'bank unreachable': 1, 'store server restarted': 1, 'overlapping command': 1 })
    expect(
      storeFaultsOf([
        '  0: {"kind":"kill"} → killed',
        '  1: {"kind":"freeze"} → frozen',
        '  2: {"kind":"kill"} → started',
        '  3: {"kind":"sale","amountMinor":500} → approved',
      ]),
    ).toEqual({
      'lane killed or restarted': 2,
      'lane frozen or thawed': 1,
    })
  })
})

const keychain = requireComponent('the Secret Service (gnome-keyring)', await secretServiceAvailable(), INSTALL.keychain)
const nats = natsServerAvailable()

describe.runIf(keychain && nats)('the no-loss generator on a small budget', () => {
  it('kills the agent under generated sequences and the store under its faults, and finds nothing lost', async () => {
    const chaos = await chaosPart(TINY, 20261128)
    const store = await storePart(TINY, 20261128)
    for (const result of [chaos, store]) expect(result.failure ?? '', `${result.id} seed ${result.seed}`).toBe('')
    expect(chaos.runs).toBeGreaterThan(0)
    expect(chaos.kills).toBe(chaos.faults.SIGKILL)
    expect(store.runs).toBe(1)
    expect(totalViolations([chaos, store])).toBe(0)
    expect(renderReport([chaos, store], config)).toContain('**0 violations**')
  }, 600_000)
})
