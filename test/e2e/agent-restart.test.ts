/**
 * A cashier window that outlives its agent, in Chromium against `pos-agent serve` in training mode:
 * the agent is stopped, and while it does not answer the header says so in red and Charge is
 * disabled with that reason; the agent is started again on the same data directory and port, and
 * the same window reconnects by itself (no new launch link: its pairing is kept in the journal),
 * reloads, and sells. Down and back, at 800x480, 1024x768 and 1280x800.
 */
import { describe, expect, it } from 'vitest'
import { keyAmount, sell } from './cashier'
import { e2eComponentsPresent, ensureRendererBuilt, launchChromium, openCashier, screenshot, startServe } from './harness'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('a cashier window across an agent restart', () => {
  it('goes red with Charge disabled while the agent is down, then reconnects by itself and sells', async () => {
    await ensureRendererBuilt()
    const first = await startServe('agent-restart')
    const browser = await launchChromium()
    let second: Awaited<ReturnType<typeof startServe>> | undefined
    try {
      const { page, context } = await openCashier(browser, await first.launchUrl(), { width: 800, height: 480 })
      await sell(page, '125', '1.25', 'approved')
      await page.getByTestId('new-sale-button').click()
      const header = page.locator('header')
      await header.getByText('Reader connected').waitFor()

      // Marks this very page: were it reloaded or opened again, the mark would be gone.
      await page.evaluate('window.samePage = true')
      await first.halt()
      const badge = page.getByTestId('agent-not-answering')
      await badge.waitFor({ timeout: 10_000 })
      expect(await badge.textContent()).toBe('Payment agent not answering')
      // Red (nothing can be charged), and nothing left that still claims to be fine.
      expect(await badge.evaluate((el) => el.className)).toContain('tone-error')
      expect(await header.locator('.tone-ok').count()).toBe(0)
      expect(await header.textContent()).not.toContain('Bank online')
      await keyAmount(page, '300', '3.00')
      const charge = page.getByTestId('charge-button')
      expect(await charge.isDisabled()).toBe(true)
      expect(await page.getByTestId('charge-disabled-reason').textContent()).toContain('Payment agent not answering')
      expect(await page.getByRole('status', { name: 'Sale status' }).textContent()).toContain('Payment agent not answering')
      await screenshot(page, 'agent-restart-down-800x480')
      // At every size the line says so, in sight (never only in the Menu), and Charge stays disabled.
      for (const size of SIZES) {
        await page.setViewportSize(size)
        await expect.poll(() => badge.isVisible()).toBe(true)
        // Whole, on one line of the status line: no word of it clipped under the line's edge.
        const [box, line] = [await badge.boundingBox(), await page.locator('.status-line').boundingBox()]
        const label = `${size.width}x${size.height}: badge ${JSON.stringify(box)} in line ${JSON.stringify(line)}`
        expect(box!.height, label).toBeLessThan(40)
        expect(box!.y + box!.height, label).toBeLessThanOrEqual(line!.y + line!.height)
        expect(box!.x + box!.width, label).toBeLessThanOrEqual(line!.x + line!.width)
        expect(await charge.isDisabled()).toBe(true)
        await screenshot(page, `agent-restart-down-${size.width}x${size.height}`)
      }
      await page.setViewportSize(SIZES[0])

      second = await startServe('agent-restart-again', {}, 45_000, {
        dataDir: first.dataDir,
        configHome: first.configHome,
        port: first.port,
      })
      expect(second.uiUrl).toBe(first.uiUrl)
      // The same page, no new link: the stream comes back with backoff and everything reloads.
      await badge.waitFor({ state: 'detached', timeout: 40_000 })
      await header.getByText('Reader connected').waitFor()
      expect(await page.evaluate('window.samePage')).toBe(true)
      await page.getByTestId('amount-input').waitFor()
      expect(await page.getByTestId('amount-input').inputValue()).toBe('3.00')
      for (const size of SIZES) {
        await page.setViewportSize(size)
        await expect.poll(() => charge.isEnabled()).toBe(true)
        await screenshot(page, `agent-restart-back-${size.width}x${size.height}`)
      }
      await page.setViewportSize(SIZES[0])
      await page.getByTestId('key-clear').click()
      await sell(page, '250', '2.50', 'approved')
      await context.close()
    } finally {
      await browser.close().catch(() => undefined)
      await second?.stop()
      await first.stop()
    }
  }, 180_000)
})
