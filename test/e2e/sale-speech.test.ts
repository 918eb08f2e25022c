/**
 * Spoken prompts for one sale, asked for by the cashier or the POS (a customer who asks), in Chromium
 * against `pos-agent serve` in training mode. The customer display, where the customer has switched
 * nothing on, speaks that sale's prompts because the sale says so (startSale `speech`); the cashier's
 * control is for one sale only, so the next sale is silent. The platform's speech is stubbed in the
 * display's page so the spoken lines are recorded (as in customer-access.test.ts).
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { keyAmount, newSale, presentCard, waitForResult } from './cashier'
import { e2eComponentsPresent, screenshot } from './harness'
import { posValue } from './pos-api'
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

describe.skipIf(!e2eComponentsPresent())('speech switched on for one sale', () => {
  const e2e = useE2E('sale-speech')

  const spoken = (display: Page) => display.evaluate<string[]>('window.__spoken')

  it('the cashier asks for it: the display speaks that sale, the next sale is silent; the POS asks: it speaks', async () => {
    const { page } = e2e.cashier
    const customer = await e2e.browser.newContext({ viewport: { width: 800, height: 480 } })
    try {
      await customer.addInitScript(SPEECH_STUB)
      const display = await customer.newPage()
      await display.goto(await e2e.serve.launchUrl('customer'))
      await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
      const control = display.getByTestId('customer-speech')
      expect(await control.getAttribute('aria-pressed')).toBe('false')
      expect(await spoken(display)).toEqual([])

      // The cashier switches spoken help on for this customer, then charges.
      const forSale = page.getByTestId('speech-for-sale')
      expect(await forSale.getAttribute('aria-pressed')).toBe('false')
      await forSale.click()
      expect(await forSale.getAttribute('aria-pressed')).toBe('true')
      await screenshot(page, 'sale-speech-for-customer')
      await keyAmount(page, '4321', '43.21')
      await page.getByTestId('charge-button').click()
      await expect
        .poll(() => spoken(display))
        .toContainEqual('Total 43 US dollars 21. Insert, tap or swipe your card. Follow the instructions on the card reader.')
      expect(await control.getAttribute('aria-pressed')).toBe('true')
      await page.getByTestId('sale-speech').waitFor()
      await screenshot(page, 'sale-speech-running')
      await presentCard(page, 'chip-visa')
      await waitForResult(page, 'approved')
      await expect.poll(() => spoken(display)).toContainEqual(expect.stringContaining('Approved'))
      await screenshot(display, 'customer-speech-for-sale')

      // For that customer only: the cashier's control is off again, and the next sale is not spoken.
      await newSale(page)
      expect(await page.getByTestId('speech-for-sale').getAttribute('aria-pressed')).toBe('false')
      await keyAmount(page, '1111', '11.11')
      await page.getByTestId('charge-button').click()
      await display.getByTestId('customer-amount').filter({ hasText: '11.11' }).waitFor()
      await expect.poll(() => control.getAttribute('aria-pressed')).toBe('false')
      await presentCard(page, 'chip-visa')
      await waitForResult(page, 'approved')
      expect((await spoken(display)).filter((line) => line.includes('11.11'))).toEqual([])
      await newSale(page)

      // The POS asks for it over the local API: the display speaks that sale from its first prompt.
      const started = await posValue(e2e.serve, 'startSale', { amountMinor: 2222, reference: 'ECR-SPEAK-1', speech: true })
      expect(started.speech).toBe(true)
      await expect.poll(() => spoken(display)).toContainEqual(expect.stringContaining('Total 22 US dollars 22'))
      await posValue(e2e.serve, 'cancelSale', { id: started.id })
    } finally {
      await customer.close()
    }
  })
})
