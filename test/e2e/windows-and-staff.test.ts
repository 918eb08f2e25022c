/**
 * No dead ends with windows and staff, in Chromium against `pos-agent serve` in training mode, at
 * 800x480, 1024x768 and 1280x800:
 * - a customer display and another cashier window are opened from a running cashier window
 *   (Settings, Windows), and from the command line with `pos-agent open`; a tab opened without a link
 *   says where to get one;
 * - the Staff screen opens on "Add": a number typed and Enter go into the new person's form, never
 *   into a manager's new PIN, and a PIN is typed twice.
 */
import { describe, expect, it } from 'vitest'
import { goTo } from './cashier'
import { e2eComponentsPresent, ownerRuns, screenshot } from './harness'
import { notInView } from './in-view'
import { auditTrailAsPos, posValue } from './pos-api'
import { MANAGER, signedInWithStaff } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('windows and staff without dead ends', () => {
  const e2e = useE2E('windows-and-staff')

  it('a customer display and a cashier window from a cashier window and from `pos-agent open`; a tab without a link says where to get one', async () => {
    const { page, context } = e2e.cashier
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await goTo(page, 'settings')
      await page.getByTestId('open-customer-display').scrollIntoViewIfNeeded()
      await page.getByTestId('open-cashier-window').scrollIntoViewIfNeeded()
      expect(await notInView(page, ['open-customer-display', 'open-cashier-window'])).toEqual([])
      await screenshot(page, `windows-open-${size.width}x${size.height}`)
    }
    // A customer display: a window of its own in this browser, to move to the customer's screen.
    const [display] = await Promise.all([context.waitForEvent('page'), page.getByTestId('open-customer-display').click()])
    await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
    expect(await page.getByTestId('opened-link').count()).toBe(0)
    await display.close()
    // Another cashier window, for a tab that was closed: a new tab of this browser.
    const [cashier] = await Promise.all([context.waitForEvent('page'), page.getByTestId('open-cashier-window').click()])
    await cashier.getByTestId('training-banner').waitFor()
    await cashier.getByTestId('amount-input').waitFor()
    await expect
      .poll(async () => (await posValue(e2e.serve, 'listWindows', {})).map((w) => w.view).sort())
      .toEqual(['cashier', 'cashier', 'customer'])
    await cashier.close()

    // From the command line: a link for a customer display, opened in another browser.
    const opened = await ownerRuns(e2e.serve, ['open', '--customer'])
    expect(opened, opened.output).toMatchObject({ code: 0 })
    const link = /https?:\/\/127\.0\.0\.1:\d+\/\S+/.exec(opened.output)?.[0]
    expect(link).toBeDefined()
    const other = await e2e.browser.newContext({ viewport: SIZES[0] })
    try {
      const tab = await other.newPage()
      await tab.goto(link!)
      await tab.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
    } finally {
      await other.close()
    }
    // A tab opened without a link (a browser with no session) says where a new one comes from.
    const fresh = await e2e.browser.newContext({ viewport: SIZES[0] })
    try {
      const bare = await fresh.newPage()
      await bare.goto(e2e.serve.uiUrl)
      await bare.getByText('Open a new one from a cashier window (Settings, Windows)').waitFor()
      expect(await bare.locator('body').innerText()).toContain('"pos-agent open"')
      await screenshot(bare, 'windows-no-link-800x480')
    } finally {
      await fresh.close()
    }
  }, 120_000)

  it('Staff opens on Add: a number and Enter go to the new person, never to a PIN; PINs are typed twice', async () => {
    const { page } = e2e.cashier
    await signedInWithStaff(e2e, MANAGER)
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await goTo(page, 'sale')
      await goTo(page, 'staff')
      const form = page.getByTestId('add-staff')
      await expect.poll(() => form.getByLabel('Operator number').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
      await screenshot(page, `staff-opens-on-add-${size.width}x${size.height}`)
    }
    // Keypad style: the cashier's number and Enter. It goes into the new person's form; nothing is changed.
    await page.keyboard.type('2222')
    await page.keyboard.press('Enter')
    expect(await page.getByTestId('add-staff').getByLabel('Operator number').inputValue()).toBe('2222')
    await page.getByTestId('add-staff').getByText('Type their name.').waitFor()
    // A new PIN is taken only typed twice, the same.
    const row = page.getByTestId('staff-17')
    await row.getByLabel('New PIN for Carl').fill('2468')
    expect(await row.getByRole('button', { name: 'Set PIN' }).isDisabled()).toBe(true)
    await row.getByText('Type the same PIN again below it.').waitFor()
    await screenshot(page, 'staff-pin-twice-1280x800')
    const audit = await auditTrailAsPos(e2e.serve, MANAGER)
    expect(audit.records.filter((r) => r.action === 'setOperatorPin')).toEqual([])

    // Disabling the only manager is refused with the agent's own reason, not a generic one.
    await page.getByRole('button', { name: 'Disable Maria' }).click()
    await page.getByTestId('disable-staff-dialog').getByRole('button', { name: 'Disable' }).click()
    await page
      .getByTestId('staff-notice')
      .filter({ hasText: 'Not done: This is the last manager of this terminal: add another manager first, then disable this one.' })
      .waitFor()
    const refusals = e2e.cashier.consoleErrors.splice(0)
    expect(refusals).toEqual([expect.stringMatching(/status of 409/)])
  }, 120_000)
})
