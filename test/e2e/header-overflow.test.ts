/**
 * The status line moves into the Menu only what does not fit, in Chromium against `pos-agent serve
 * --training` trying a shop's settings (a short store name, so the line has room to spare): with an
 * alarm, the bank offline, the long "Queue …, 1 need a manager" badge and the shorter "Reader connected"
 * and the signed-in cashier after it, at 1024x768 and 800x480. Every item kept in the line lies inside
 * it and is the element under its own centre; every item in the Menu is wider than the room the kept
 * ones left; at 1024x768 the long queue badge goes into the Menu and the reader's badge after it stays
 * in sight; and before any bad news, at 800x480, the kept badges stay one row centred on the line. Screenshots go to test-artifacts/e2e/header-overflow-*.png.
 */
import { describe, expect, it } from 'vitest'
import { newSale, sell } from './cashier'
import { e2eComponentsPresent, openCashier, screenshot } from './harness'
import { statusLine } from './in-view'
import { addStaff, raiseManagerAlarm, signInIfAsked, type StaffMember } from './staff'
import { triedTerminal, useTriedE2E } from './suite'

const MANAGER: StaffMember = { operatorId: '9', name: 'Maria', role: 'manager', pin: '4321' }
const CASHIER: StaffMember = { operatorId: '17', name: 'Bo', role: 'cashier', pin: '1234' }

describe.skipIf(!e2eComponentsPresent())('the status line keeps what fits', () => {
  const tried = useTriedE2E('header-overflow', triedTerminal('Deli'))

  it('moves a long bad-news badge into the Menu alone, keeping the shorter ones after it in sight', async () => {
    const cashier = await openCashier(tried.browser, await tried.serve.launchUrl(), { width: 1024, height: 768 })
    const { page, context } = cashier
    try {
      await addStaff(context, tried.serve, MANAGER, CASHIER)
      await page.reload()
      await signInIfAsked(page, CASHIER)
      // No bad news yet, at 800x480: the signed-in cashier goes into the Menu, and the badges kept stay
      // one row, centred on the line (the moved item leaves no second row to push them up).
      await page.setViewportSize({ width: 800, height: 480 })
      await expect.poll(async () => (await statusLine(page)).problems, { timeout: 5_000 }).toEqual([])
      expect((await statusLine(page)).moved.map((item) => item.key)).toContain('operator')
      await screenshot(page, 'header-overflow-800x480-quiet')
      await page.setViewportSize({ width: 1024, height: 768 })
      await raiseManagerAlarm(page, tried.serve)
      await page.getByTestId('alarm-button').waitFor()
      // The bank down again, with payments stored: "Bank offline" beside the alarm.
      await tried.serve.host.setFault('*', 'http-503')
      await sell(page, '2552', '25.52', 'storedOffline')
      await newSale(page)
      await expect.poll(() => page.locator('[data-status-item="bank"]').textContent()).toBe('Bank offline')
      await expect.poll(() => page.locator('[data-status-item="queue"]').textContent()).toMatch(/^Queue \d+, 1 need a manager$/)

      for (const size of [
        { width: 1024, height: 768 },
        { width: 800, height: 480 },
      ]) {
        const label = `${size.width}x${size.height}`
        await page.setViewportSize(size)
        await expect.poll(async () => (await statusLine(page)).problems, { timeout: 5_000 }).toEqual([])
        const layout = await statusLine(page)
        const seen = `${label}: ${JSON.stringify(layout)}`
        await screenshot(page, `header-overflow-${label}`)
        const kept = layout.kept.map((item) => item.key)
        const moved = layout.moved.map((item) => item.key)
        // The bad news stays first in sight: the alarm and the bank offline.
        expect(kept.slice(0, 2), seen).toEqual(['alarm', 'bank'])
        if (size.width === 1024) {
          // The long queue badge does not fit beside them; the reader's shorter badge after it does, and stays.
          expect(moved, seen).toContain('queue')
          expect(kept, seen).toContain('reader')
        }
        // What was moved is in the Menu, in words.
        await page.getByTestId('nav-menu').click()
        const menu = page.getByTestId('menu-status')
        await menu.waitFor()
        if (moved.includes('queue')) expect(await menu.innerText()).toMatch(/1 need a manager/)
        if (moved.includes('operator')) await menu.getByTestId('menu-signed-in-operator').waitFor()
        await screenshot(page, `header-overflow-${label}-menu`)
        await page.keyboard.press('Escape')
      }
      expect(cashier.consoleErrors).toEqual([])
    } finally {
      await context.close()
    }
  }, 120_000)
})
