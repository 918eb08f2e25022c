/**
 * A terminal with no staff, in Chromium against `pos-agent serve` in training mode: the Sale screen
 * carries a plain notice that no manager is set up (nobody approves returns, voids or tips above the
 * limit) with the way to Staff, covering nothing at 800x480, 1024x768 and 1280x800; "Not today" hides
 * it for the day (a reload keeps it hidden); once a manager exists it is gone.
 */
import { describe, expect, it } from 'vitest'
import { e2eComponentsPresent, screenshot } from './harness'
import { coveredControls, cutAtRight } from './in-view'
import { CASHIER, signedInWithStaff } from './staff'
import { useE2E } from './suite'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('a terminal with no manager', () => {
  const e2e = useE2E('no-manager')

  it('the Sale screen suggests adding a manager, covers nothing, and hides the notice for the day', async () => {
    const { page } = e2e.cashier
    const notice = page.getByTestId('no-manager-notice')
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await notice.waitFor()
      expect(await notice.innerText()).toContain('No manager is set up on this terminal')
      expect(await coveredControls(page)).toEqual([])
      expect(await cutAtRight(page)).toEqual([])
      await screenshot(page, `no-manager-${size.width}x${size.height}`)
    }
    // The way to Staff, and back.
    await page.getByTestId('no-manager-add').click()
    await page.getByTestId('staff-first-manager').waitFor()
    await page.keyboard.press('Escape')
    await notice.waitFor()
    // Not today: gone, and still gone after a reload the same day.
    await page.getByTestId('no-manager-not-today').click()
    await notice.waitFor({ state: 'detached' })
    await page.reload()
    await page.getByTestId('amount-input').waitFor()
    expect(await notice.count()).toBe(0)
  }, 120_000)

  it('once a manager exists the notice is gone', async () => {
    const { page } = e2e.cashier
    await page.evaluate('window.localStorage.clear()')
    await page.reload()
    await page.getByTestId('no-manager-notice').waitFor()
    await signedInWithStaff(e2e, CASHIER)
    await page.getByTestId('amount-input').waitFor()
    expect(await page.getByTestId('no-manager-notice').count()).toBe(0)
  }, 120_000)
})
