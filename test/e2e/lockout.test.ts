/**
 * The only manager mistypes the PIN, keypad only, in Chromium against `pos-agent serve` in training
 * mode: each wrong PIN says how many tries are left; the fifth locks the number and the screen says
 * who can unlock it; the machine's owner runs `pos-agent operators unlock <number>`, which the audit
 * trail records, and the manager signs in with the same PIN. The locked screen at 800x480, 1024x768
 * and 1280x800.
 */
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { e2eComponentsPresent, ownerRuns, screenshot } from './harness'
import { notInView } from './in-view'
import { auditTrailAsPos } from './pos-api'
import { MANAGER } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('the only manager locked out', () => {
  const e2e = useE2E('lockout')

  it('tries left after each wrong PIN, the lock says who unlocks it, the owner unlocks it from the command line (audited)', async () => {
    const { page, context } = e2e.cashier
    await page.setViewportSize(SIZES[0])
    const added = await context.request.post(`${e2e.serve.uiUrl}/v1/ops/addOperator`, { data: { ...MANAGER } })
    expect(added.ok()).toBe(true)
    await page.reload()
    await page.getByTestId('sign-in-form').waitFor()

    const tryPin = async (pin: string) => {
      await page.getByTestId('operator-id-input').focus()
      await page.getByTestId('operator-id-input').fill('')
      await page.keyboard.type(MANAGER.operatorId)
      await page.keyboard.press('Enter')
      await page.keyboard.type(pin)
      await page.keyboard.press('Enter')
    }
    const problem = page.getByTestId('sign-in-problem')
    for (const left of [4, 3, 2, 1]) {
      await tryPin('0000')
      await problem
        .filter({ hasText: `${left} ${left === 1 ? 'try' : 'tries'} left before this number is locked for 15 minutes.` })
        .waitFor()
      if (left === 4) await screenshot(page, 'lockout-tries-left-800x480')
    }
    await tryPin('0000')
    await problem.filter({ hasText: 'Too many wrong PINs: locked for 15 minutes.' }).waitFor()
    expect(await problem.innerText()).toContain('or the owner of this computer with "pos-agent operators unlock"')
    // Locked: the right PIN is refused too.
    await tryPin(MANAGER.pin)
    await problem.filter({ hasText: 'locked for 15 minutes' }).waitFor()
    expect(await page.getByTestId('amount-input').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    for (const size of SIZES) {
      await page.setViewportSize(size)
      expect(await notInView(page, ['sign-in-problem', 'sign-in-button'])).toEqual([])
      await screenshot(page, `lockout-locked-${size.width}x${size.height}`)
    }
    await page.setViewportSize(SIZES[0])

    const unlocked = await ownerRuns(e2e.serve, ['operators', 'unlock', MANAGER.operatorId])
    expect(unlocked, unlocked.output).toMatchObject({ code: 0 })
    expect(unlocked.output).toContain('Maria (number 9, manager) can sign in again with the same PIN')
    await tryPin(MANAGER.pin)
    await page.getByTestId('amount-input').waitFor()

    const audit = await auditTrailAsPos(e2e.serve, MANAGER)
    const record = audit.records.find((r) => r.action === 'unlockOperator')
    expect(record).toMatchObject({ door: 'cli', subject: '9', ok: true })
    expect(record?.detail).toContain("by the machine's owner")
    expect(audit.intact).toBe(true)
    // The six refusals the scenario asked for: four wrong PINs, the lock, and the right PIN while locked (422 each).
    const refusals = e2e.cashier.consoleErrors.splice(0)
    expect(refusals).toHaveLength(6)
    for (const refusal of refusals) expect(refusal).toMatch(/status of 422/)
  }, 120_000)
})
