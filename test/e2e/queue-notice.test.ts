/**
 * The Queue screen's notice tells of what was just done there and goes once it is no longer true, in
 * Chromium against `pos-agent serve` in training mode at 800x480: "Send now" with the bank away says
 * the payment still waits; once the agent has sent it on its own, that notice is gone while the
 * screen stays open, and a notice does not wait for the cashier's next visit to the screen.
 * Screenshots go to test-artifacts/e2e/queue-notice-*.png.
 */
import { describe, expect, it } from 'vitest'
import { goTo, newSale, sell } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { posValue } from './pos-api'
import { useE2E } from './suite'

describe.skipIf(!e2eComponentsPresent())('the Queue keeps no stale notice', () => {
  const e2e = useE2E('queue-notice')

  it('800x480: the "still waiting" notice goes once the payment was sent, and on leaving the screen', async () => {
    const { page } = e2e.cashier
    await page.setViewportSize({ width: 800, height: 480 })
    await e2e.serve.host.setFault('*', 'http-503')
    await sell(page, '2551', '25.51', 'storedOffline')
    await newSale(page)

    // The bank is still away: "Send now" says so, and the notice stays while it is true.
    await goTo(page, 'queue')
    await page.getByTestId('forward-now-button').click()
    const notice = page.getByTestId('queue-notice')
    await notice.waitFor()
    expect(await page.getByTestId('queue-count').innerText()).toBe('1')
    await screenshot(page, 'queue-notice-waiting')

    // The bank comes back and the agent sends the payment itself, the screen still open.
    await e2e.serve.host.clearFaults()
    await posValue(e2e.serve, 'forwardNow', {})
    await expect.poll(() => page.getByTestId('queue-count').innerText(), { timeout: 15_000 }).toBe('0')
    await notice.waitFor({ state: 'detached' })
    await screenshot(page, 'queue-notice-sent')

    // A notice of what was done here is gone when the cashier comes back later.
    await page.getByTestId('forward-now-button').click()
    await notice.filter({ hasText: 'Nothing was waiting to be sent.' }).waitFor()
    await goTo(page, 'sale')
    await goTo(page, 'queue')
    await page.getByTestId('queue-count').waitFor()
    expect(await notice.count()).toBe(0)
  })
})
