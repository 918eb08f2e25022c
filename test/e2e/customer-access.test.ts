/**
 * The customer display for a customer who cannot read it, in Chromium against `pos-agent serve` in
 * training mode: one large control (found without speech) switches spoken help on, after which every
 * prompt is spoken (the amount, present the card, enter the PIN on the pad, the outcome) and no PIN
 * digit ever is; the high-contrast theme's text is measured at 7:1 or more; at 200% text nothing is
 * cut and both controls can be pressed; axe finds nothing. The
 * platform's speech is stubbed in the page so the spoken lines are recorded.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { keyAmount, presentCard, waitForResult } from './cashier'
import { lowestContrast } from './contrast'
import { e2eComponentsPresent, screenshot } from './harness'
import { coveredControls, cutAtRight } from './in-view'
import { useE2E } from './suite'

// Records what would be spoken; runs before the page's own scripts.
const SPEECH_STUB = `(() => {
  window.__spoken = []
  class Utterance { constructor(text) { this.text = text } }
  window.SpeechSynthesisUtterance = Utterance
  Object.defineProperty(window, 'speechSynthesis', {
    configurable: true,
    value: { speak: (u) => window.__spoken.push(u.text), cancel: () => {}, pause: () => {}, resume: () => {}, getVoices: () => [] },
  })
})()`

describe.skipIf(!e2eComponentsPresent())('the customer display, accessible', () => {
  const e2e = useE2E('customer-access')

  const spoken = (display: Page) => display.evaluate<string[]>('window.__spoken')

  it('speaks every prompt once switched on, never a PIN digit; high contrast at 7:1; axe clean', async () => {
    const { page } = e2e.cashier
    const customer = await e2e.browser.newContext({ viewport: { width: 800, height: 480 } })
    try {
      await customer.addInitScript(SPEECH_STUB)
      const display = await customer.newPage()
      await display.goto(await e2e.serve.launchUrl('customer'))
      await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
      expect(await axeViolations(display)).toEqual([])

      // Nothing is spoken until the customer asks; the control is a large button named for what it does.
      const control = display.getByRole('button', { name: 'Spoken help' })
      const box = (await control.boundingBox())!
      expect(box.height).toBeGreaterThanOrEqual(88)
      expect(await spoken(display)).toEqual([])
      await control.click()
      expect(await control.getAttribute('aria-pressed')).toBe('true')
      await expect.poll(() => spoken(display)).toEqual([expect.stringContaining('Welcome')])

      // A sale with a PIN card (its PIN is 1234): the amount and each prompt are spoken, the PIN never.
      await keyAmount(page, '5678', '56.78')
      await page.getByTestId('charge-button').click()
      await expect
        .poll(() => spoken(display))
        .toContainEqual('Total 56 US dollars 78. Insert, tap or swipe your card. Follow the instructions on the card reader.')
      await presentCard(page, 'pin-aes')
      await expect.poll(() => spoken(display), { timeout: 15_000 }).toContainEqual(expect.stringContaining('Enter your PIN'))
      await waitForResult(page, 'approved')
      await expect.poll(() => spoken(display)).toContainEqual(expect.stringContaining('Approved'))
      const lines = await spoken(display)
      for (const line of lines) expect(line.replace(/\D/g, '')).not.toContain('1234')
      // No line twice in a row: each is spoken when the display changes, not on every tick.
      for (let i = 1; i < lines.length; i++) expect(lines[i]).not.toBe(lines[i - 1])
      await screenshot(display, 'customer-spoken-approved')

      // High contrast: every text at 7:1 or more (WCAG 1.4.6), measured on the page.
      const plain = await lowestContrast(display)
      await display.getByRole('button', { name: 'High contrast' }).click()
      const high = await lowestContrast(display)
      expect(high.ratio, `lowest: "${high.text}"`).toBeGreaterThanOrEqual(7)
      expect(high.ratio).toBeGreaterThanOrEqual(plain.ratio)
      expect(await axeViolations(display)).toEqual([])
      await screenshot(display, 'customer-high-contrast')
      // The larger displays a shop may face the customer with: the same 7:1, axe clean, the controls in reach.
      for (const size of [
        { width: 1024, height: 768 },
        { width: 1280, height: 800 },
      ]) {
        await display.setViewportSize(size)
        const lowest = await lowestContrast(display)
        expect(lowest.ratio, `${size.width}x${size.height}, lowest: "${lowest.text}"`).toBeGreaterThanOrEqual(7)
        expect(await axeViolations(display)).toEqual([])
        expect(await coveredControls(display)).toEqual([])
        await screenshot(display, `customer-high-contrast-${size.width}x${size.height}`)
      }
      await display.setViewportSize({ width: 800, height: 480 })

      // Text at 200% (WCAG 1.4.4): an 800x480 display zoomed to 200% is a 400x240 page. Nothing is cut
      // at the side, and both controls can still be brought into view and pressed.
      await display.setViewportSize({ width: 400, height: 240 })
      expect(await cutAtRight(display)).toEqual([])
      expect(await coveredControls(display)).toEqual([])
      await screenshot(display, 'customer-zoom-200')
    } finally {
      await customer.close()
    }
  })
})
