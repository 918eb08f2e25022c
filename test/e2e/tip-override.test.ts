/**
 * A tip above the limit, in Chromium against `pos-agent serve` in training mode, at 800x480, 1024x768
 * and 1280x800:
 * - on a terminal without staff nobody can approve it, so ticking "Allow above the limit" asks first
 *   (keypad only too: Enter on the box asks, Escape keeps it unticked), and the audit trail keeps that
 *   it was allowed without a manager; a tip within the limit offers no override at all;
 * - with staff, the override is a manager's: the cashier's tick is sent only with a manager's
 *   approval, which shows the tip it approves;
 * - by keypad, Enter on the override box never flips it unseen (it asks), and the arrows stop at
 *   "Send tips" instead of wrapping back to the first row.
 */
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { goTo, newSale, sell } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { notInView } from './in-view'
import { auditTrailAsPos, posValue } from './pos-api'
import { CASHIER, MANAGER, signedInWithStaff } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('a tip above the limit', () => {
  const e2e = useE2E('tip-override')

  it('without staff: allowed only after a question, and the audit trail keeps it; within the limit no override is offered', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize(SIZES[0])
    const big = await sell(page, '5000', '50.00', 'approved')
    await newSale(page)
    const small = await sell(page, '4000', '40.00', 'approved')
    await newSale(page)
    await goTo(page, 'tips')
    // Within the limit (20% of 40.00): nothing to override.
    await page.getByTestId(`tip-input-${small}`).click()
    await page.keyboard.type('200')
    expect(await page.getByTestId(`tip-override-${small}`).count()).toBe(0)
    expect(await page.getByTestId(`tip-override-none-${small}`).innerText()).toBe('Not needed')

    const tip = page.getByTestId(`tip-input-${big}`)
    await tip.click()
    await page.keyboard.type('1200')
    await page.getByTestId(`tip-warning-${big}`).filter({ hasText: 'Tick "Allow above the limit" to send it.' }).waitFor()
    const box = page.getByTestId(`tip-override-${big}`)
    expect(await page.getByRole('checkbox', { name: /^Allow above the limit for USD 50\.00/ }).count()).toBe(1)
    // Keypad only: Enter on the box asks; Escape leaves it unticked.
    await box.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByTestId('tip-allow-dialog')
    await dialog.waitFor()
    expect(await dialog.getByRole('heading').innerText()).toBe('Allow a tip of USD 12.00 above the limit?')
    expect(await dialog.innerText()).toContain('the audit trail records it as allowed without a manager')
    for (const size of SIZES) {
      await page.setViewportSize(size)
      expect(await notInView(page, ['tip-allow-dialog'])).toEqual([])
      await screenshot(page, `tip-allow-${size.width}x${size.height}`)
    }
    await page.setViewportSize(SIZES[0])
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await box.isChecked()).toBe(false)
    expect(await page.getByTestId('submit-tips-button').isDisabled()).toBe(true)

    await box.click()
    await dialog.getByRole('button', { name: 'Allow this tip' }).click()
    expect(await box.isChecked()).toBe(true)
    await page.getByTestId('submit-tips-button').click()
    await page.getByTestId(`tip-row-${big}`).filter({ hasText: 'Tip saved' }).waitFor()
    expect(await page.getByTestId(`tip-warning-${big}`).innerText()).toContain('Saved, allowed above the limit.')
    await screenshot(page, 'tip-allowed-saved-800x480')

    const audit = await posValue(e2e.serve, 'auditTrail', {})
    const allowed = audit.records.filter((r) => r.action === 'approval' && r.subject === 'adjustTip')
    expect(allowed).toHaveLength(1)
    expect(allowed[0]!.detail).toMatch(/^no staff on this terminal: allowed without a manager: .*USD 12\.00/)
  }, 120_000)

  it("with staff: the cashier's override goes only with a manager's approval, which shows the tip", async () => {
    const { page } = e2e.cashier
    await page.setViewportSize(SIZES[0])
    await signedInWithStaff(e2e, CASHIER)
    const sale = await sell(page, '3000', '30.00', 'approved')
    await newSale(page)
    await goTo(page, 'tips')
    await page.getByTestId(`tip-input-${sale}`).click()
    await page.keyboard.type('900')
    await page.getByTestId(`tip-warning-${sale}`).filter({ hasText: 'A manager must tick the override.' }).waitFor()
    const box = page.getByTestId(`tip-override-${sale}`)
    // Keypad: Enter on the box asks instead of ticking; Escape leaves it as it was.
    await box.focus()
    await page.keyboard.press('Enter')
    const ask = page.getByTestId('tip-override-ask-dialog')
    await ask.waitFor()
    expect(await box.isChecked()).toBe(false)
    await page.keyboard.press('Escape')
    await ask.waitFor({ state: 'detached' })
    expect(await box.isChecked()).toBe(false)
    await box.check()
    expect(await page.getByTestId('tip-allow-dialog').count()).toBe(0)
    // Enter on the ticked box asks too; leaving it as it is keeps the tick.
    await box.focus()
    await page.keyboard.press('Enter')
    await ask.waitFor()
    await ask.getByRole('button', { name: 'Leave it as it is' }).click()
    await ask.waitFor({ state: 'detached' })
    expect(await box.isChecked()).toBe(true)
    // The arrows stop at the last control: from Send tips, down never comes back round to the rows.
    await page.getByTestId('submit-tips-button').focus()
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('ArrowDown')
      const at = await page.evaluate<string>("(document.activeElement && document.activeElement.getAttribute('data-testid')) || ''")
      expect(at).not.toMatch(/^tip-(input|override)-/)
    }
    expect(await box.isChecked()).toBe(true)
    await page.getByTestId('submit-tips-button').click()
    const approval = page.getByTestId('approval-dialog')
    await approval.waitFor()
    expect(await approval.innerText()).toContain('USD 9.00')
    await screenshot(page, 'tip-override-approval-800x480')
    await page.getByTestId('approval-operator-input').fill(MANAGER.operatorId)
    await page.getByTestId('approval-pin-input').fill(MANAGER.pin)
    await page.getByTestId('approve-button').click()
    await page.getByTestId(`tip-row-${sale}`).filter({ hasText: 'Tip saved' }).waitFor()
    const audit = await auditTrailAsPos(e2e.serve, MANAGER)
    const approvals = audit.records.filter((r) => r.action === 'approval' && r.subject === 'adjustTip' && r.ok)
    // The last approval of a tip is the manager's, for this tip (the one before was the no-staff one).
    expect(approvals.at(-1)).toMatchObject({ actor: MANAGER.operatorId, detail: expect.stringContaining('USD 9.00') })
    expect(approvals.filter((r) => r.actor === undefined)).toHaveLength(1)
    // The first try was refused for want of a manager (403): the refusal the approval answered.
    expect(e2e.cashier.consoleErrors.splice(0)).toEqual([expect.stringMatching(/status of 403/)])
  }, 120_000)
})
