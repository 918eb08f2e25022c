/**
 * The card prompt's time limit on the customer display, in Chromium against `pos-agent serve
 * --training` with a configuration whose card prompt lasts 25 s and whose simulated customer presents
 * no card by itself: before time runs out the display warns on screen, by a chime (a stubbed Web Audio
 * records the notes) and, with spoken help on, in words (a stubbed speechSynthesis records them); the
 * customer's "More time" moves the end (twice at most), the reader keeps waiting past the first end,
 * and the card presented then is approved. axe finds nothing with the warning shown.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeViolations } from './axe'
import { keyAmount, presentCard, salePrompt, waitForResult } from './cashier'
import { coveredControls } from './in-view'
import { e2eComponentsPresent, openCashier, screenshot } from './harness'
import { triedTerminal, useTriedE2E } from './suite'

const CARD_PROMPT_SECONDS = 25

// Records what would be spoken and what notes would sound; runs before the page's own scripts.
const SOUND_STUBS = `(() => {
  window.__spoken = []
  window.__tones = []
  class Utterance { constructor(text) { this.text = text } }
  window.SpeechSynthesisUtterance = Utterance
  Object.defineProperty(window, 'speechSynthesis', {
    configurable: true,
    value: { speak: (u) => window.__spoken.push(u.text), cancel: () => {}, pause: () => {}, resume: () => {}, getVoices: () => [] },
  })
  class Audio {
    constructor() { this.currentTime = 0; this.destination = {} }
    resume() { return Promise.resolve() }
    createOscillator() {
      const tone = { frequency: { value: 0 }, connect() {}, start() { window.__tones.push(tone.frequency.value) }, stop() {} }
      return tone
    }
    createGain() { return { gain: { value: 1 }, connect() {} } }
  }
  window.AudioContext = Audio
})()`

describe.skipIf(!e2eComponentsPresent())('the card prompt’s time limit on the customer display', () => {
  const tried = useTriedE2E(
    'customer-time-limit',
    triedTerminal('Corner Shop', { device: { cardReadTimeoutSeconds: CARD_PROMPT_SECONDS }, training: { autoPresentCard: false } }),
  )

  const recorded = (display: Page, what: '__spoken' | '__tones') => display.evaluate<unknown[]>(`window.${what}`)
  const extend = (display: Page) =>
    display.evaluate(async () => {
      const reply = await fetch('/customer/v1/ops/extendCardRead', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      return { status: reply.status, body: (await reply.json()) as { ok: boolean; value?: { extensionsLeft: number } } }
    })

  it('warns by sound, words and screen before the card prompt ends, and More time keeps it open', async () => {
    const { page, context } = await openCashier(tried.browser, await tried.serve.launchUrl())
    const customer = await tried.browser.newContext({ viewport: { width: 800, height: 480 } })
    try {
      await customer.addInitScript(SOUND_STUBS)
      const display = await customer.newPage()
      await display.goto(await tried.serve.launchUrl('customer'))
      await display.getByTestId('customer-message').filter({ hasText: 'Welcome' }).waitFor()
      await display.getByRole('button', { name: 'Spoken help' }).click()

      await keyAmount(page, '1500', '15.00')
      await page.getByTestId('charge-button').click()
      const chargedAt = Date.now()
      await salePrompt(page).filter({ hasText: /card/i }).waitFor()
      const warning = display.getByTestId('customer-time-warning')
      expect(await warning.count()).toBe(0)

      // 20 s before the end (WCAG 2.2 SC 2.2.1): on screen, by a chime, and spoken.
      await warning.waitFor({ timeout: 15_000 })
      expect(Date.now() - chargedAt).toBeLessThan(CARD_PROMPT_SECONDS * 1000)
      expect(await warning.getByRole('alert').textContent()).toContain('Time is almost up')
      expect(await display.getByTestId('customer-time-left').textContent()).toMatch(/^\d+ seconds? left$/)
      await expect.poll(() => recorded(display, '__tones')).toEqual([880, 660])
      await expect.poll(() => recorded(display, '__spoken')).toContainEqual(expect.stringContaining('Time is almost up.'))
      expect(await axeViolations(display)).toEqual([])
      await screenshot(display, 'customer-time-warning')
      // On the larger displays a shop may face the customer with: the warning and More time in reach, axe clean.
      for (const size of [
        { width: 1024, height: 768 },
        { width: 1280, height: 800 },
      ]) {
        await display.setViewportSize(size)
        expect(await coveredControls(display)).toEqual([])
        expect(await axeViolations(display)).toEqual([])
        await screenshot(display, `customer-time-warning-${size.width}x${size.height}`)
      }
      await display.setViewportSize({ width: 800, height: 480 })

      // More time: the warning goes (the end moved 30 s), and may come back later.
      await display.getByTestId('customer-more-time').click()
      await warning.waitFor({ state: 'detached' })
      // Once more, then no more: the limit is bounded so a forgotten sale still ends.
      const second = await extend(display)
      expect(second).toMatchObject({ status: 200, body: { ok: true, value: { extensionsLeft: 0 } } })
      const third = await extend(display)
      expect(third.status).toBe(422)

      // Past the first end the reader still waits for the card; the card then is approved.
      const firstEnd = chargedAt + CARD_PROMPT_SECONDS * 1000
      await page.waitForTimeout(Math.max(0, firstEnd - Date.now() + 2_000))
      expect(await page.getByTestId('sale-result').count()).toBe(0)
      expect(await display.getByTestId('customer-message').textContent()).toContain('your card')
      await presentCard(page, 'chip-visa')
      await waitForResult(page, 'approved')
      await display.getByTestId('customer-message').filter({ hasText: 'Approved' }).waitFor()
    } finally {
      await customer.close()
      await context.close()
    }
  }, 120_000)
})
