/**
 * Training without an OS keychain keeps its offline practice across a restart, in Chromium against
 * `pos-agent serve` in training mode with no Secret Service to be found: the agent stops while a card
 * payment waits for the bank, starts again on the same data folder, and the counter shows no alarm
 * and takes a payment offline (stored) when the bank is down. At 800x480, 1024x768 and 1280x800.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { keyAmount, presentCard, salePrompt, sell } from './cashier'
import {
  e2eComponentsPresent,
  ensureRendererBuilt,
  launchChromium,
  openCashier,
  screenshot,
  startServe,
  type ServeProcess,
} from './harness'

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
] as const

describe.skipIf(!e2eComponentsPresent())('training without a keychain across a restart', () => {
  it('a restart during a card payment leaves no alarm, and offline payments still work', async () => {
    await ensureRendererBuilt()
    const work = await mkdtemp(join(tmpdir(), 'pos-e2e-nobus-'))
    // No Secret Service to be found: training keeps its keys in process memory.
    const env = { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(work, 'no-bus')}` }
    const first = await startServe('training-restart', env)
    const browser = await launchChromium()
    let second: ServeProcess | undefined
    try {
      const { page, context } = await openCashier(browser, await first.launchUrl(), SIZES[0])
      await first.host.setFault('payment', 'delay=8000')
      await keyAmount(page, '6612', '66.12')
      await presentCard(page, 'chip-visa')
      await page.getByTestId('charge-button').click()
      await salePrompt(page).filter({ hasText: /bank/i }).waitFor({ timeout: 15_000 })
      await first.halt()

      second = await startServe('training-restart-again', env, 45_000, {
        dataDir: first.dataDir,
        configHome: first.configHome,
        port: first.port,
      })
      await page.getByTestId('agent-not-answering').waitFor({ state: 'detached', timeout: 40_000 })
      await page.getByTestId('amount-input').waitFor()
      expect(await page.getByTestId('alarms-banner').count()).toBe(0)
      await page.getByTestId('key-clear').click()

      // The bank is down: offline practice still stores the payment.
      await second.host.setFault('*', 'http-503')
      await sell(page, '1234', '12.34', 'storedOffline')
      expect(await page.getByTestId('alarms-banner').count()).toBe(0)
      for (const size of SIZES) {
        await page.setViewportSize(size)
        await screenshot(page, `training-restart-stored-${size.width}x${size.height}`)
      }
      await context.close()
    } finally {
      await browser.close().catch(() => undefined)
      await second?.stop()
      await first.stop()
      await rm(work, { recursive: true, force: true })
    }
  }, 180_000)
})
