/**
 * An update with payments owed (test/support/upgrade-journal.ts): the last release's engine leaves
 * stored payments, a reversal, a tip, a capture and a return's credit owed in its journal; this
 * checkout opens it (every migration in between) and sends each exactly once, under its own id, with
 * the body the release sealed, to the training host over HTTPS. Needs git and the release's commit
 * in this clone's history; without them it says why and skips (never under CI=true).
 */
import { describe, expect, it } from 'vitest'
import { gitIn } from '../../bench/support/baseline-checkout'
import { requireComponent } from '../../support/system'
import { ROOT, runUpgrade, upgradeRelease } from '../../support/upgrade-journal'

const release = upgradeRelease(gitIn(ROOT))
const found = requireComponent(
  `the last release's commit (${'none' in release ? release.none : release.ref})`,
  !('none' in release),
  'fetch the release tags (git fetch --tags) or name one with UPGRADE_BASELINE=<commit>',
)

describe.runIf(found)('an update while the queue owes the bank', () => {
  it("each owed item of the release's journal reaches the host exactly once, under its own id, with the release's body", async () => {
    if ('none' in release) return
    const report = await runUpgrade(release, (line) => console.log(line))
    console.log(`upgrade: ${JSON.stringify({ ...report, release: report.release.ref })}`)
    expect(report.violations).toEqual([])
    expect(report.owed).toEqual({ payment: 2, reversal: 1, tips: 1, capture: 1, merchandiseCredit: 1 })
    expect(report.forwardedOnce).toBe(report.items)
    expect(report.fromVersion).toBeLessThan(report.toVersion)
  }, 300_000)
})
